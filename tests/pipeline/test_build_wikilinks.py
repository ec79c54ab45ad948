"""Obsidian's wikilinks and embeds in a built site (`postil.markdown.wikilink`)."""

from __future__ import annotations

import shutil

from support.blog import BASE, build_into, build_site, make_site, page

from postil.markdown.wikilink import _INDEX

REPO_STATIC = __import__("pathlib").Path(__file__).resolve().parents[2] / "static"

NOTE = """---
title: Softmax notes
date: 2024-01-01
---

See [[Attention]], [[attention|the attention post]], [[Attention#Scaled dot product]],
[[#Temperature]], ![[plot.svg|120]] and [[Nowhere]], but not `[[code]]`.

## Temperature

$T$ sharpens it.
"""

ATTENTION = """---
title: Attention
date: 2024-01-02
---

## Scaled dot product

$QK^T$.
"""


def vault(tmp_path):
    root = make_site(tmp_path / "site", {"softmax.md": NOTE})
    (root / "content/posts/ml").mkdir()
    (root / "content/posts/ml/Attention.md").write_text(ATTENTION, encoding="utf-8")
    (root / "content/attachments").mkdir()
    shutil.copy(REPO_STATIC / "favicon.svg", root / "content/attachments/plot.svg")
    return root


def test_wikilinks_find_notes_headings_and_images_by_name_anywhere(tmp_path):
    root = vault(tmp_path)
    doc = page(build_into(root), "posts/softmax/index.html")
    links = [(a.get("href"), a.text_content()) for a in doc.xpath('//div[@class="post-body"]//a')]
    prefix = BASE.removeprefix("https://example.github.io")
    assert links[:4] == [
        (f"{prefix}posts/attention/", "Attention"),
        (f"{prefix}posts/attention/", "the attention post"),
        (f"{prefix}posts/attention/#scaled-dot-product", "Attention > Scaled dot product"),
        ("#temperature", "Temperature"),
    ]
    [image] = doc.xpath('//div[@class="post-body"]//img')
    assert (image.get("src"), image.get("alt"), image.get("width")) == (
        f"{prefix}attachments/plot.svg",
        "plot.svg",
        "120",
    )
    body = doc.xpath('//div[@class="post-body"]')[0].text_content()
    assert "and Nowhere, but" in body and "[[Nowhere]]" not in body and "[[code]]" in body


def test_a_wikilink_naming_nothing_is_one_warning_at_its_place(tmp_path):
    root = vault(tmp_path)
    assert [str(w) for w in build_site(root).warnings] == [
        "content/posts/softmax.md:7:41: warning: wikilink `[[Nowhere]]` is shown as its text, "
        "not a link: "
        "no published post, page or file is named `Nowhere` (wikilinks name a file, "
        "`[[other-note]]` for other-note.md); fix the name, or link to the file, e.g. "
        "`[text](other.md)`"
    ]


def test_a_wikilink_to_a_heading_the_note_lacks_is_reported_like_any_link(tmp_path):
    """At the wikilink's own column (it was the line's first: the check looked for the
    link's href, which the `[[…]]` as written is not)."""
    root = vault(tmp_path)
    note = NOTE.replace("[[Attention#Scaled dot product]]", "[[Attention#Softmax]]")
    (root / "content/posts/softmax.md").write_text(note, encoding="utf-8")
    warnings = [str(w) for w in build_site(root).warnings]
    assert (
        "content/posts/softmax.md:6:54: warning: link to `#softmax`: content/posts/ml/"
        "Attention.md has no such anchor; its one heading's id is `#scaled-dot-product`: link "
        "to it or remove the fragment"
    ) in warnings


def test_two_notes_of_one_name_make_the_wikilink_ambiguous(tmp_path):
    root = vault(tmp_path)
    (root / "content/posts/other").mkdir()
    again = ATTENTION.replace("title: Attention", "title: Attention again\nslug: again")
    (root / "content/posts/other/attention.md").write_text(again, encoding="utf-8")
    _INDEX.clear()
    warnings = [str(w) for w in build_site(root).warnings]
    assert (
        "content/posts/softmax.md:6:5: warning: wikilink `[[Attention]]` is shown as its text, "
        "not a link: "
        "2 files are named `Attention` (content/posts/ml/Attention.md, "
        "content/posts/other/attention.md); write its folder too, e.g. `[[ml/Attention]]`"
    ) in warnings
    assert any("wikilink `[[attention|the attention post]]`" in w for w in warnings)


def test_a_wikilink_by_a_notes_words_finds_its_slugged_file_and_its_text_may_hold_brackets(
    tmp_path,
):
    root = vault(tmp_path)
    (root / "content/posts/ml/Attention.md").rename(root / "content/posts/ml/scaled-attention.md")
    note = NOTE.replace("[[Attention]]", "[[Scaled Attention|[the]{.smallcaps} post]]")
    (root / "content/posts/softmax.md").write_text(note, encoding="utf-8")
    _INDEX.clear()
    doc = page(build_into(root), "posts/softmax/index.html")
    [first, *_] = doc.xpath('//div[@class="post-body"]//a')
    assert first.get("href").endswith("/posts/scaled-attention/")
    assert first.xpath('./span[@class="smallcaps"]/text()') == ["the"]


def test_a_block_id_already_taken_is_a_warning_and_a_heading_gives_way(tmp_path):
    body = "## Intro\n\nFirst ^intro\n\nSame ^twice\n\nAgain ^twice\n\nA note ^notes\n"
    text = "---\ntitle: T\ndate: 2024-01-01\n---\n\n" + body
    root = make_site(tmp_path / "site", {"p.md": text})
    warnings = [str(w).split(",")[0] for w in build_site(root).warnings]
    assert warnings == [
        "content/posts/p.md:12:1: warning: block id `^twice` is already an id of this page",
        "content/posts/p.md:14:1: warning: block id `^notes` is already an id of this page",
    ]
    doc = page(build_into(root), "posts/p/index.html")
    ids = doc.xpath("//div[@class='post-body']//*/@id")
    assert "intro-1" in ids and ids.count("intro") == 1 and ids.count("twice") == 1


def test_an_obsidian_alias_that_is_the_notes_own_name_is_no_redirect(tmp_path):
    text = "---\ntitle: T\ndate: 2024-01-01\naliases: [product rule, Leibniz rule]\n---\n\nX.\n"
    root = make_site(tmp_path / "site", {"product-rule.md": text})
    assert list(build_site(root).warnings) == []
    out = build_into(root)
    assert "X." in (out / "posts/product-rule/index.html").read_text()  # not a redirect
    assert "posts/product-rule/" in (out / "posts/leibniz-rule/index.html").read_text()


def test_dendron_s_text_first_wikilink_finds_the_note_after_the_bar(tmp_path):
    """Dendron writes `[[the text|note.name#heading]]` (its `[[alias|link]]`): the part
    after `|` is the note. It was shown as the note's name with a "names no file" warning.
    Obsidian's order still wins when the part before `|` names a file."""
    root = vault(tmp_path)
    note = NOTE.replace(
        "[[Nowhere]]", "[[the dot product|Attention#Scaled dot product]], [[Attention|Nowhere]]"
    )
    (root / "content/posts/softmax.md").write_text(note, encoding="utf-8")
    warnings = [str(w) for w in build_site(root).warnings]
    doc = page(build_into(root), "posts/softmax/index.html")
    links = [(a.get("href"), a.text_content()) for a in doc.xpath('//div[@class="post-body"]//a')]
    prefix = BASE.removeprefix("https://example.github.io")
    assert (f"{prefix}posts/attention/#scaled-dot-product", "the dot product") in links
    assert (f"{prefix}posts/attention/", "Nowhere") in links
    assert warnings == []
