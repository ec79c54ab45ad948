"""The built reference page as a reader's browser shows it: widths, dark mode, no outside requests.

Builds this repository's site once, serves it over 127.0.0.1, and checks layout facts that
only a real browser can: the body measure in characters, no horizontal overflow from 360 px
to 1600 px, the dark-mode toggle and its memory, and that no request leaves the site.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest
from support.build import build_site
from support.web import serve_dir

REPO = Path(__file__).resolve().parents[2]
REFERENCE = "posts/attention-from-the-softmax-up/"

# Characters per line of the body text: the width of a paragraph divided by the average
# advance of the body font's lowercase alphabet and space (Bringhurst's 45-75 range, tighter).
MEASURE_JS = """
() => {
  const p = document.querySelector('.post-body > p');
  const probe = document.createElement('span');
  probe.textContent = 'abcdefghijklmnopqrstuvwxyz ';
  p.appendChild(probe);
  const perChar = probe.getBoundingClientRect().width / probe.textContent.length;
  probe.remove();
  return p.getBoundingClientRect().width / perChar;
}
"""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    out = tmp_path_factory.mktemp("layout") / "_site"
    result = build_site(REPO, out)
    assert result.returncode == 0, result.stderr
    with serve_dir(out) as url:
        yield url


@pytest.mark.slow
def test_body_measure_is_between_60_and_75_characters_on_a_wide_screen(page, base_url):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(base_url + REFERENCE)
    assert 60 <= page.evaluate(MEASURE_JS) <= 75


@pytest.mark.parametrize(
    "width", [400, *(pytest.param(w, marks=pytest.mark.slow) for w in (360, 768, 1100, 1600))]
)
def test_page_never_scrolls_sideways(page, base_url, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(base_url + REFERENCE)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"page is {overflow}px wider than a {width}px viewport"


@pytest.mark.slow
def test_dark_mode_toggle_switches_colours_and_is_remembered(page, base_url):
    page.emulate_media(color_scheme="light")
    page.goto(base_url + REFERENCE)
    background = "getComputedStyle(document.body).backgroundColor"
    light = page.evaluate(background)
    toggle = page.get_by_role("button", name="Toggle dark mode")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    dark = page.evaluate(background)
    assert dark != light
    assert toggle.get_attribute("aria-pressed") == "true"
    page.reload()
    assert page.evaluate(background) == dark
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"


def test_system_dark_preference_applies_without_a_stored_choice(page, base_url):
    page.emulate_media(color_scheme="dark")
    page.goto(base_url + REFERENCE)
    rgb = page.evaluate("getComputedStyle(document.body).backgroundColor")
    channels = [int(c) for c in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    assert max(channels) < 64, rgb


PRINTED = """() => {
  const colour = sel => getComputedStyle(document.querySelector(sel)).color;
  const scheme = getComputedStyle(document.documentElement).colorScheme;
  return {text: colour('.post-body p'), scheme,
          code: colour('.post-body .highlight .k, .post-body .highlight .kn')};
}"""


@pytest.mark.parametrize(("scheme", "theme"), [("dark", None), ("light", "dark")])
def test_a_page_printed_from_the_dark_scheme_is_dark_ink_on_paper(page, base_url, scheme, theme):
    """Paper is light: the dark scheme's light text would print almost white on white (the
    background is not printed), and its code and math colours were chosen for a dark page."""
    page.goto(base_url + REFERENCE)
    if theme:
        page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
    page.emulate_media(media="print", color_scheme=scheme)
    printed = page.evaluate(PRINTED)
    page.emulate_media(media="print", color_scheme="light")
    page.evaluate("delete document.documentElement.dataset.theme")
    assert printed == page.evaluate(PRINTED)  # as printed from the light scheme
    assert printed["text"] == "rgb(0, 0, 0)" and printed["scheme"] == "light"


@pytest.mark.slow
def test_no_request_leaves_the_site(page, base_url):
    hosts: list[str] = []
    page.on("request", lambda request: hosts.append(urlsplit(request.url).netloc))
    for rel in (REFERENCE, "", "about/", "404.html"):
        page.goto(base_url + rel)
        page.wait_for_load_state("networkidle")
    site_host = urlsplit(base_url).netloc
    assert hosts and set(hosts) == {site_host}


def test_every_formula_is_drawn_in_the_site_math_font_and_nothing_falls_back(page, base_url):
    fonts: list[str] = []
    page.on("response", lambda r: fonts.append(urlsplit(r.url).path) if ".woff2" in r.url else 0)
    page.goto(base_url + REFERENCE)
    page.evaluate("document.fonts.ready")
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    tokens = cdp.send(
        "DOM.querySelectorAll", {"nodeId": root, "selector": "math :is(mi, mo, mn, mtext)"}
    )
    used = {
        (font["familyName"], font["isCustomFont"])
        for node in tokens["nodeIds"]
        for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    }
    assert len(tokens["nodeIds"]) > 100
    assert used == {("STIX Two Math", True)}  # the subset holds every glyph the post draws
    assert fonts == ["/fonts/stix-two-math.woff2"]  # preloaded once, used by @font-face
