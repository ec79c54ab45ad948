"""End to end: posts written for kramdown, MathJax and Hugo build with every formula typeset."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from lxml import html as lxml_html
from support.sites import CONFIG, make_site

KRAMDOWN_POST = r"""---
title: Diffusion, briefly
date: 2024-03-01
---

Noise is added in $$T$$ steps, with a schedule $$\{\beta_t \in (0, 1)\}_{t=1}^T$$.

## Choosing $$\beta_t$$

The forward process is

$$
q(x_t \vert x_{t-1}) = \mathcal{N}(x_t; \sqrt{1 - \beta_t} x_{t-1}, \beta_t\mathbf{I})
$$

and the loss is \\( \sum\_i \log p(y\_i \mid x\_i) \\) over examples \\(x\_i\\).
A product such as $W^{\*\top}$ keeps its star.

{{<rawhtml>}}
$$

\boxed{
\sigma^2 = \frac{1}{d-q}\sum_{j=q+1}^{d}\lambda_j
}
$$
{{</rawhtml>}}
"""

BROKEN_POST = """---
title: Broken
date: 2024-03-02
---

Before
$$
a = b

c
$$
"""


def build(root: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """Run `postil build` on `root` into `out`."""
    return subprocess.run(
        [sys.executable, "-m", "postil", "-C", str(root), "build", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def post_body(out: Path, slug: str):
    page = lxml_html.fromstring((out / "posts" / slug / "index.html").read_bytes())
    (body,) = page.xpath("//div[@class='post-body']")
    return body


def prose_text(body) -> str:
    """Return the text of the post body outside formulas and code."""
    for node in body.xpath(".//*[local-name()='math'] | .//code | .//pre"):
        node.drop_tree()
    return body.text_content()


def test_kramdown_and_mathjax_style_math_is_typeset_as_its_author_meant(tmp_path):
    root = make_site(tmp_path / "site", {"diffusion.md": KRAMDOWN_POST})
    result = build(root, tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr + result.stdout
    body = post_body(tmp_path / "out", "diffusion")
    inline = body.xpath(".//*[local-name()='math'][@display='inline']")
    blocks = body.xpath(".//*[local-name()='math'][@display='block']")
    assert len(inline) == 6  # T, the schedule, β_t in the heading, two \\(…\\), W^{*⊤}
    assert len(blocks) == 2  # the forward process and the boxed formula
    assert not body.xpath(".//p//*[local-name()='math'][@display='block']")
    assert body.xpath("string(.//h2)").startswith("Choosing")
    sources = [n.text for n in body.xpath(".//*[local-name()='annotation']")]
    assert " \\sum_i \\log p(y_i \\mid x_i) " in sources and "W^{*\\top}" in sources
    prose = prose_text(body)
    for leftover in ("$$", "\\(", "\\)", "\\boxed", "\\sum"):
        assert leftover not in prose


def test_double_dollar_in_text_display_makes_mid_sentence_dollars_display(tmp_path):
    config = CONFIG + "math:\n  double_dollar_in_text: display\n"
    root = make_site(tmp_path / "site", {"diffusion.md": KRAMDOWN_POST}, config=config)
    result = build(root, tmp_path / "out")
    assert result.returncode == 0, result.stderr
    body = post_body(tmp_path / "out", "diffusion")
    assert len(body.xpath(".//p//*[local-name()='math'][@display='block']")) == 2
    assert not body.xpath(".//h2//*[local-name()='math'][@display='block']")


def test_display_math_cut_by_a_blank_line_is_a_located_warning(tmp_path):
    root = make_site(tmp_path / "site", {"broken.md": BROKEN_POST})
    result = build(root, tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert (
        "content/posts/broken.md:7:1: warning: `$$` opens display math that is not closed "
        "before the blank line on line 9: a formula cannot hold a blank line; delete it "
        "(the `$$` on line 11 closes it)"
    ) in result.stderr
