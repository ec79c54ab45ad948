"""Mermaid diagrams through a whole build (`postil.markdown.diagram`, `contexts.mermaid_src`):
every way other generators write one builds without a warning, and only a page with a
diagram loads the script that draws it, from the site's `mermaid:` URL under its base path.
(In Chromium: tests/browser/test_diagrams_browser.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.blog import BASE, build_site, make_site, page, post_text

from postil.model import DEFAULT_MERMAID_URL

FLOW = "flowchart LR\n  A --> B\n"

WRITTEN = {
    "fence.md": f"```mermaid\n{FLOW}```\n",
    "hugo.md": f"{{{{< mermaid >}}}}\n{FLOW}{{{{< /mermaid >}}}}\n",
    "jekyll.md": f"{{% mermaid %}}\n{FLOW}{{% endmermaid %}}\n",
    "myst.md": f"```{{mermaid}}\n:caption: Flow\n{FLOW}```\n",
    "raw.md": f'<div class="mermaid">\n{FLOW}</div>\n',
    "quarto.qmd": (
        f"```{{mermaid}}\n%%| label: fig-flow\n%%| fig-cap: Flow\n{FLOW}```\n\nSee @fig-flow.\n"
    ),
}


def _script(out: Path, rel: str) -> list[str]:
    """Return the `data-mermaid` of the diagram scripts the page at `rel` loads."""
    return page(out, rel).xpath("//script[contains(@src, 'diagrams.js')]/@data-mermaid")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory):
    """Build one post for each way of writing a diagram, a post without one and a page."""
    root = tmp_path_factory.mktemp("diagrams")
    posts = {name: post_text(name, "2026-01-02", body) for name, body in WRITTEN.items()}
    posts["plain.md"] = post_text("Plain", "2026-01-01", '<div class="mermaids">No.</div>\n')
    # Chirpy's switch that loads its Mermaid script is read without a word
    posts["chirpy.md"] = post_text("Chirpy", "2026-01-03", WRITTEN["fence.md"], mermaid=True)
    about = post_text("About", None, WRITTEN["fence.md"])
    make_site(root, posts, pages={"about.md": about})
    result = build_site(root)
    return root / "_site", result


def test_every_way_of_writing_a_diagram_builds_one_without_a_warning(built):
    out, result = built
    assert [str(w) for w in result.warnings] == []
    for name in [*WRITTEN, "chirpy.md"]:
        rel = f"posts/{Path(name).stem}/index.html"
        [box] = page(out, rel).xpath("//*[@class='mermaid']")
        assert box.text_content().strip() == FLOW.rstrip(), name
        assert _script(out, rel) == [DEFAULT_MERMAID_URL], name


def test_a_numbered_diagram_is_referred_to_by_its_figure_number(built):
    out, _ = built
    body = page(out, "posts/quarto/index.html")
    [caption] = body.xpath("//figure[@id='fig-flow']/figcaption")
    assert caption.text_content() == "Figure 1 Flow"
    assert body.xpath("//a[@href='#fig-flow']")[0].text_content() == "Figure 1"


def test_only_pages_with_a_diagram_load_the_script_and_it_is_published(built):
    out, _ = built
    assert _script(out, "posts/plain/index.html") == []
    assert _script(out, "index.html") == []
    assert _script(out, "about/index.html") == [DEFAULT_MERMAID_URL]
    assert (out / "js/diagrams.js").is_file()


@pytest.mark.parametrize(
    "setting, loaded",
    [
        ("mermaid: /vendor/mermaid.esm.min.mjs", ["/blog/vendor/mermaid.esm.min.mjs"]),
        ("mermaid: https://esm.sh/mermaid@12", ["https://esm.sh/mermaid@12"]),
        ("mermaid: false", []),
    ],
)
def test_the_sites_mermaid_setting_names_the_module_under_the_base_path_or_none(
    tmp_path, setting, loaded
):
    assert BASE.endswith("/blog/")
    posts = {"fence.md": post_text("Fence", "2026-01-02", WRITTEN["fence.md"])}
    make_site(tmp_path, posts, config=setting + "\n")
    result = build_site(tmp_path)
    assert result.warnings == ()
    out = tmp_path / "_site"
    assert _script(out, "posts/fence/index.html") == loaded
    # with `mermaid: false` the source is still there, shown as code by the stylesheet
    assert page(out, "posts/fence/index.html").xpath("//pre[@class='mermaid']")
