"""Citations end to end: a site with `.bib` files built by `postil build`'s stages."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support.blog import build_into, build_site, make_site, page, post_text

from postil.bibliography import load
from postil.cache.store import BuildCache
from postil.config import load_config
from postil.errors import BuildFailed, ConfigFailed

MESSY = Path(__file__).parents[1] / "fixtures" / "cite.bib"
BODY = (
    "Attention [@vaswani2017] and [see @muller2019, p. 3]; @deepmind2023 agrees.\n\n"
    "Mail ann@example.org or read `[@x]`.[^n]\n\n[^n]: A note.\n"
)


def cite_site(tmp_path, config="bibliography: refs.bib\n", posts=None):
    root = make_site(tmp_path, posts or {"p.md": post_text("Citing", "2026-01-02", BODY)}, config)
    shutil.copy(MESSY, root / "refs.bib")
    return root


def test_a_post_cites_in_author_year_with_a_reference_list_and_margin_copies(tmp_path):
    out = build_into(cite_site(tmp_path))
    doc = page(out, "posts/p/index.html")
    citations = [c.text_content() for c in doc.find_class("citation")]
    assert citations == [
        "(Vaswani et al., 2017)",
        "(see Müller & François, 2019, p. 3)",
        "Google DeepMind (2023)",
    ]
    [refs] = doc.find_class("references-list")
    assert [li.get("id") for li in refs] == [
        "ref-deepmind2023",
        "ref-muller2019",
        "ref-vaswani2017",
    ]
    assert [a.get("href") for a in refs[1].find_class("citation-backref")] == ["#cite-2"]
    assert (
        refs[1].find_class("reference-link")[0].get("href")
        == "https://doi.org/10.5555/3322706.3322712"
    )
    margin = doc.get_element_by_id("cn-1")
    assert (
        margin.get("aria-hidden") == "true" and "Attention Is All You Need" in margin.text_content()
    )
    # References come before the Notes
    headings = [h.get("id") for h in doc.xpath("//section/h2")]
    assert headings.index("references") < headings.index("notes")


def test_metadata_lists_the_cited_works(tmp_path):
    doc = page(build_into(cite_site(tmp_path)), "posts/p/index.html")
    refs = doc.xpath("//meta[@name='citation_reference']/@content")
    assert len(refs) == 3
    assert refs[1] == (
        "citation_title=SGD and α-divergences in Réseaux & graphs – revisited; "
        "citation_author=Müller, Hans; citation_author=François, Jean-Pierre; "
        "citation_publication_date=2019; citation_journal_title=Journal of Machine Learning "
        "Research; citation_volume=20; citation_issue=3; citation_firstpage=1; "
        "citation_doi=10.5555/3322706.3322712"
    )
    [script] = doc.xpath("//script[@type='application/ld+json']")
    cited = json.loads(script.text)["citation"]
    assert [c["@type"] for c in cited] == ["CreativeWork", "ScholarlyArticle", "ScholarlyArticle"]
    assert cited[0]["author"] == [{"@type": "Organization", "name": "Google DeepMind"}]
    assert cited[1]["identifier"]["value"] == "10.5555/3322706.3322712"


def test_numeric_style_from_the_site_and_overridden_by_a_post(tmp_path):
    posts = {
        "n.md": post_text(
            "Numeric", "2026-01-02", "A [@muller2019; @vaswani2017]. @vaswani2017 too.\n"
        ),
        "a.md": post_text(
            "Author", "2026-01-03", "A [@muller2019].\n", citation_style="author-year"
        ),
    }
    out = build_into(
        cite_site(tmp_path, "bibliography: refs.bib\ncitation_style: numeric\n", posts)
    )
    doc = page(out, "posts/n/index.html")
    assert [c.text_content() for c in doc.find_class("citation")] == [
        "[1, 2]",
        "Vaswani et al. [2]",
    ]
    labels = [s.text_content() for s in doc.find_class("reference-label")]
    assert labels == ["[1]", "[2]"]
    assert page(out, "posts/a/index.html").find_class("citation")[0].text_content() == (
        "(Müller & François, 2019)"
    )


def test_feeds_keep_the_list_and_drop_the_margin_copies(tmp_path):
    out = build_into(cite_site(tmp_path))
    feed = (out / "feed.xml").read_text("utf-8")
    assert "ref-vaswani2017" in feed and "Attention Is All You Need" in feed
    assert "citenote" not in feed and "sidenote-toggle" not in feed


def test_an_unknown_key_warns_at_its_line_and_column_and_fails_under_strict(tmp_path):
    posts = {"p.md": "---\ntitle: T\ndate: 2026-01-01\n---\nText and [@nosuch] here.\n"}
    root = cite_site(tmp_path, posts=posts)
    result = build_site(root)
    assert [str(w).split(";")[0] for w in result.warnings if "`nosuch`" in str(w)] == [
        "content/posts/p.md:5:11: warning: citation key `nosuch` is not in the bibliography"
    ]
    with pytest.raises(BuildFailed) as failed:
        build_site(root, strict=True)
    assert any("`nosuch`" in d.message for d in failed.value.diagnostics)


def test_a_bib_entry_that_cannot_be_read_is_one_warning_however_many_posts_cite(tmp_path):
    posts = {f"p{i}.md": post_text(f"P{i}", "2026-01-02", "[@vaswani2017]\n") for i in range(3)}
    result = build_site(cite_site(tmp_path, posts=posts))
    broken = [str(w) for w in result.warnings if "broken" in str(w)]
    assert len(broken) == 1 and broken[0].startswith("refs.bib:48: warning: entry `broken`")


def test_a_bundle_bibliography_and_a_missing_one(tmp_path):
    posts = {"x.md": post_text("X", "2026-01-02", "[@vaswani2017]\n", bibliography="nope.bib")}
    root = make_site(tmp_path, posts)
    bundle = root / "content/posts/b"
    bundle.mkdir()
    (bundle / "index.md").write_text(
        post_text("B", "2026-01-02", "[@ostergaard2020a]\n", bibliography="refs.bib"), "utf-8"
    )
    shutil.copy(MESSY, bundle / "refs.bib")
    result = build_site(root)
    texts = [str(w) for w in result.warnings]
    assert any(
        t.startswith("content/posts/x.md:3:15: warning: bibliography `content/posts/nope.bib`")
        for t in texts
    ), texts
    assert any(
        "[@vaswani2017] reads as a citation but the post names no bibliography" not in t
        for t in texts
    )
    doc = page(root / "_site", "posts/b/index.html")
    assert doc.find_class("citation")[0].text_content() == "(Østergaard, 2020)"


def test_a_key_defined_in_two_files_warns_at_the_later_entry_naming_the_one_cited(tmp_path):
    body = "[@knuth84] and [@lamport94]\n"
    posts = {"p.md": post_text("P", "2026-01-02", body)}
    root = make_site(tmp_path, posts, "bibliography: [a.bib, b.bib]\n")
    (root / "a.bib").write_text("@book{knuth84, title={The TeXbook}, year={1984}}\n", "utf-8")
    (root / "b.bib").write_text(
        "@book{lamport94, title={LaTeX}, year={1994}}\n\n"
        "  @book{knuth84, title={Another}, year={1999}}\n",
        "utf-8",
    )
    bundle = root / "content/posts/own"
    bundle.mkdir()
    (bundle / "index.md").write_text(
        post_text("Own", "2026-01-03", "[@lamport94]\n", bibliography="refs.bib"), "utf-8"
    )
    (bundle / "refs.bib").write_text("@misc{lamport94, title={Mine}, year={2000}}\n", "utf-8")
    result = build_site(root)
    again = sorted(str(w) for w in result.warnings if "defined again" in str(w))
    assert again == [
        "b.bib:1:7: warning: `lamport94` is defined again: the entry in "
        "`content/posts/own/refs.bib:1:7`, a file read before this one, is the one cited; "
        "delete one of them, or give this one a new key and cite it by that",
        "b.bib:3:9: warning: `knuth84` is defined again: the entry in `a.bib:1:7`, a file "
        "read before this one, is the one cited; delete one of them, or give this one a new "
        "key and cite it by that",
    ]
    doc = page(root / "_site", "posts/p/index.html")
    assert "TeXbook" in doc.find_class("references-list")[0].text_content()  # the first wins


def test_keys_in_files_no_post_reads_together_are_not_duplicates(tmp_path):
    root = make_site(tmp_path, {})
    for name in ("a", "b"):
        bundle = root / f"content/posts/{name}"
        bundle.mkdir()
        (bundle / "index.md").write_text(
            post_text(name, "2026-01-02", "[@k]\n", bibliography="refs.bib"), "utf-8"
        )
        (bundle / "refs.bib").write_text(f"@misc{{k, title={{{name}}}}}\n", "utf-8")
    assert not [w for w in build_site(root).warnings if "defined again" in str(w)]


def test_a_missing_site_bibliography_is_a_config_error_at_its_line(tmp_path):
    root = make_site(tmp_path, {}, "bibliography: [refs.bib, gone.bib]\n")
    shutil.copy(MESSY, root / "refs.bib")
    with pytest.raises(ConfigFailed) as caught:
        build_site(root)
    assert [str(d.location) for d in caught.value.diagnostics] == ["postil.yaml:4:26"]


def test_without_a_bibliography_nothing_changes_but_a_bracketed_key_warns(tmp_path):
    body = "Follow @someone and [@key] here.\n"
    root = make_site(tmp_path, {"p.md": post_text("P", "2026-01-02", body)})
    result = build_site(root)
    doc = page(root / "_site", "posts/p/index.html")
    assert "Follow @someone and [@key] here." in doc.text_content()
    assert [str(w).split(";")[0] for w in result.warnings] == [
        "content/posts/p.md:6:21: warning: [@key] reads as a citation but the post names no "
        "bibliography"
    ]


def test_the_site_wide_switch_removes_cite_this_post(tmp_path):
    out = build_into(cite_site(tmp_path, "bibliography: refs.bib\ncite_this_post: false\n"))
    doc = page(out, "posts/p/index.html")
    assert doc.xpath("//*[@id='bibtex-entry']") == []
    assert doc.xpath("//meta[@name='citation_reference']")  # Scholar's tags stay


def test_an_edited_entry_renders_again_only_the_posts_citing_it(tmp_path):
    posts = {
        "a.md": post_text("A", "2026-01-02", "[@vaswani2017]\n"),
        "b.md": post_text("B", "2026-01-03", "[@muller2019]\n"),
    }
    root = cite_site(tmp_path, posts=posts)
    assert build_site(root).rendered == 2
    assert build_site(root).rendered == 0
    bib = root / "refs.bib"
    bib.write_text(bib.read_text("utf-8").replace("Attention Is All", "Attention Was All"), "utf-8")
    assert build_site(root).rendered == 1
    assert "Attention Was All" in (root / "_site/posts/a/index.html").read_text("utf-8")


def test_a_2000_entry_bib_is_parsed_once_then_read_from_the_cache(tmp_path, monkeypatch):
    entries = "".join(
        f'@article{{k{i}, author={{M{{\\"u}}ller, Hans and Smith, Jo and others}}, '
        f"title={{On {{SGD}} number {i} $\\alpha$}}, journal={{J}}, year={{2000}}}}\n"
        for i in range(2000)
    )
    posts = {"p.md": post_text("P", "2026-01-02", "[@k7]\n")}
    root = make_site(tmp_path, posts, "bibliography: big.bib\n")
    (root / "big.bib").write_text(entries, "utf-8")
    build_site(root)
    parsed = []
    monkeypatch.setattr(load, "read_bib", lambda *args: parsed.append(args))
    cache = BuildCache.open(root)
    try:
        files, _ = load.load_bibliographies(load_config(root), [], cache)
    finally:
        cache.close()
    assert parsed == [] and len(files["big.bib"].works) == 2000
    assert files["big.bib"].works["k7"].authors[0].family == "Müller"


def test_a_rebuild_reads_an_unchanged_bib_file_by_its_stat_and_sees_an_edit(tmp_path, monkeypatch):
    """While a cache lives (the dev server's), a `.bib` file whose stat signature is the
    one it was parsed with is not read again; an edit changes the signature and is seen."""
    from postil.serve.engine import DevBuild
    from postil.serve.watcher import ChangeSet

    monkeypatch.setattr(load, "RACY_NS", 0)  # the file was written a moment ago
    root = cite_site(tmp_path)
    read: list[str] = []
    real = load.fingerprint
    monkeypatch.setattr(load, "fingerprint", lambda data: read.append("bib") or real(data))
    builder = DevBuild(root)
    try:
        assert builder.build().ok and read == ["bib"]
        assert builder.build(ChangeSet(config=True)).ok and read == ["bib"]
        bib = root / "refs.bib"
        bib.write_text(bib.read_text().replace("Attention Is All", "Attention Was All"))
        assert builder.build(ChangeSet(config=True)).ok and read == ["bib", "bib"]
        assert b"Attention Was All You Need" in builder.files["posts/p/index.html"]
    finally:
        builder.close()


def test_a_post_cites_from_a_csl_json_bibliography(tmp_path):
    items = [
        {
            "id": "pearl2009",
            "type": "book",
            "title": "Causality",
            "author": [{"family": "Pearl", "given": "Judea"}],
            "issued": {"date-parts": [[2009]]},
        }
    ]
    text = post_text("Citing", "2026-01-02", "As [@pearl2009] shows.\n", bibliography="refs.json")
    root = make_site(tmp_path, {"p.md": text})
    (root / "content/posts/refs.json").write_text(json.dumps(items), encoding="utf-8")
    doc = page(build_into(root), "posts/p/index.html")
    assert [c.text_content() for c in doc.find_class("citation")] == ["(Pearl, 2009)"]
    [refs] = doc.find_class("references-list")
    assert "Causality" in refs.text_content() and "Pearl" in refs.text_content()


def test_distill_posts_cite_with_d_cite_and_note_with_d_footnote(tmp_path):
    # al-folio's distill layout and the ICLR blog posts: the post's own `bibliography:`
    body = (
        'As in <d-cite key="vaswani2017, muller2019"></d-cite>.'
        "<d-footnote>Also <d-cite key='deepmind2023'></d-cite>.</d-footnote>\n"
    )
    text = post_text("Distill", "2026-01-02", body, bibliography="refs.bib")
    root = make_site(tmp_path, {"plain.md": post_text("P", "2026-01-02", body)})
    (root / "content/posts/d").mkdir()
    (root / "content/posts/d/index.md").write_text(text, "utf-8")
    shutil.copy(MESSY, root / "content/posts/d/refs.bib")
    result = build_site(root)
    doc = page(root / "_site", "posts/d/index.html")
    citations = [c.text_content() for c in doc.find_class("citation")]  # the note's twice
    assert citations == ["(Vaswani et al., 2017; Müller & François, 2019)"] + 2 * [
        "(Google DeepMind, 2023)"
    ]
    assert doc.get_element_by_id("fn-1").text_content().strip() == "Also (Google DeepMind, 2023). ↩︎"
    [refs] = doc.find_class("references-list")  # a work cited only in a note is listed too
    assert [li.get("id") for li in refs] == [
        "ref-deepmind2023",
        "ref-muller2019",
        "ref-vaswani2017",
    ]
    assert not doc.xpath("//d-cite | //d-footnote")
    # without a bibliography: the keys in brackets and a warning at the element
    plain = page(root / "_site", "posts/plain/index.html")
    body = plain.find_class("post-body")[0].text_content().strip()
    assert body.startswith("As in [vaswani2017, muller2019].")
    warned = [str(w).split(" reads")[0] for w in result.warnings if "no bibliography" in str(w)]
    assert warned == [
        'content/posts/plain.md:6:7: warning: `<d-cite key="vaswani2017, muller2019"></d-cite>`',
        "content/posts/plain.md:6:72: warning: `<d-cite key='deepmind2023'></d-cite>`",
    ]


def test_myst_cite_roles_are_citation_clusters(tmp_path):
    # sphinxcontrib-bibtex's and mystmd's roles, as Jupyter Book posts write them
    body = (
        "Known {cite}`vaswani2017,muller2019`; {cite:t}`vaswani2017` showed it, "
        "in {cite:year}`deepmind2023`.\n"
    )
    root = cite_site(tmp_path, posts={"m.md": post_text("M", "2026-01-02", body)})
    doc = page(build_into(root), "posts/m/index.html")
    citations = [c.text_content() for c in doc.find_class("citation")]
    assert citations == [
        "(Vaswani et al., 2017; Müller & François, 2019)",
        "Vaswani et al. (2017)",
        "(2023)",
    ]


def test_distill_elements_that_show_nothing_are_warned(tmp_path):
    body = 'No work <d-cite key=""></d-cite>; a note<d-footnote>cut\n\nhere</d-footnote>.\n'
    root = cite_site(tmp_path, posts={"d.md": post_text("D", "2026-01-02", body)})
    warnings = [str(w).split(",")[0] for w in build_site(root).warnings if "<d-" in str(w)]
    assert warnings == [
        'content/posts/d.md:6:9: warning: `<d-cite key=""></d-cite>` names no work',
        "content/posts/d.md:6:41: warning: `<d-footnote>` is not closed by `</d-footnote>` "
        "in its paragraph",
    ]
