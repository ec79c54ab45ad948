"""End to end: a site's own values (`params:` in postil.yaml) shown by Jekyll's
`{{ site.name }}`, Hugo's `{{< param >}}` and Quarto's `{{< var >}}`; editing them rebuilds the
posts that show them (the build cache's keys hold the whole configuration)."""

from __future__ import annotations

from support.blog import build_into, build_site, make_site, page, post_text

PARAMS = "params:\n  assets: /files\n  social:\n    github: someone\n"
BODY = (
    "Files in {{ site.assets }}, code by {{ site.social.github }}, "
    "{{< param gpu >}} and {{< var assets >}}.\n"
)


def text_of(out, rel: str) -> str:
    return page(out, rel).xpath('//div[@class="post-body"]')[0].text_content().strip()


def test_values_show_and_an_edit_of_params_rebuilds_the_post(tmp_path):
    post = post_text("Values", "2024-01-01", BODY, gpu="A100")
    root = make_site(tmp_path / "site", {"values.md": post}, config=PARAMS)
    result = build_site(root)
    assert [str(w) for w in result.warnings] == []
    out = build_into(root)
    assert text_of(out, "posts/values/index.html") == (
        "Files in /files, code by someone, A100 and /files."
    )
    config = (root / "postil.yaml").read_text(encoding="utf-8")
    (root / "postil.yaml").write_text(config.replace("/files", "/static"), encoding="utf-8")
    out = build_into(root)  # with the cache of the builds before
    assert text_of(out, "posts/values/index.html") == (
        "Files in /static, code by someone, A100 and /static."
    )
