"""The widget plugin: `{name}` fences become numbered figures, problems are located diagnostics."""

from __future__ import annotations

import sys
import types
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import pytest
from markdown_it import MarkdownIt
from markdown_it.utils import read_fixture_file

from postil.content.frontmatter import parse
from postil.errors import ContentError
from postil.markdown.figure import figure_plugin
from postil.markdown.state import RenderState
from postil.markdown.widget import widget_plugin
from postil.model import SourceFile
from postil.widgets import OptionError, Widget, known_widgets, load_widget

FIXTURES = Path(__file__).parents[1] / "fixtures" / "widget.md"

SEED = """\
Intro paragraph.

```{temperature}
tokens: [The, black, cat, that, chased, the, mouse, was, hungry, .]
query: was
scores: [1.0, 0.5, 3.4, 0.3, 1.2, 0.1, 2.0]
caption: Attention weights for the query “was”.
name: fig-temperature
```
"""
FENCE_LINE = 13  # the fence is body line 3; the body starts on file line 11


def render(body: str, *plugins: Any, templates: Any = None) -> tuple[str, RenderState]:
    md = MarkdownIt("commonmark")
    for plugin in (widget_plugin, *plugins):
        plugin(md)
    state = RenderState(path="content/posts/p.md", body_line=11, templates=templates)
    state.source_lines = body.split("\n")
    return md.render(body, {"postil": state}), state


def messages(state: RenderState) -> list[str]:
    return [str(d) for d in state.diagnostics]


@pytest.mark.parametrize(
    ("line", "title", "source", "expected"),
    read_fixture_file(FIXTURES),
    ids=[f"{case[0]}-{case[1][:40]}" for case in read_fixture_file(FIXTURES)],
)
def test_widget_fixtures(line: int, title: str, source: str, expected: str) -> None:
    md = MarkdownIt("commonmark")
    widget_plugin(md)
    assert md.render(source, {"postil": RenderState()}) == expected


def test_widget_is_numbered_by_the_figure_plugin_and_referenced() -> None:
    body = "![A plot.](plot.png){#fig-plot}\n\n" + SEED + "\nSee [](#fig-temperature).\n"
    html, state = render(body, figure_plugin)
    assert messages(state) == []
    assert '<span class="figure-label">Figure 2</span> Attention weights' in html
    assert '<a href="#fig-temperature">Figure 2</a>' in html
    assert state.figures == {"fig-plot": 1, "fig-temperature": 2}


def test_widget_without_the_figure_plugin_has_no_number() -> None:
    html, state = render(SEED)
    assert "<figcaption>Attention weights for the query “was”.</figcaption>" in html
    assert "Figure" not in html


def test_widget_records_its_name_so_the_page_loads_its_script() -> None:
    _, state = render(SEED)
    assert state.widgets == {"temperature"}
    _, state = render(SEED.replace("query: was", "query: 99"))
    assert state.widgets == set()


def test_two_unnamed_widgets_get_distinct_slider_ids() -> None:
    unnamed = SEED.replace("name: fig-temperature\n", "")
    html, _ = render(unnamed + "\n" + unnamed)
    assert html.count('id="widget-1-tau"') == 1 and html.count('id="widget-2-tau"') == 1


def test_widget_server_html_holds_the_initial_state() -> None:
    html, _ = render(SEED)
    assert 'aria-valuetext="τ = 1.00"' in html
    assert '<label for="fig-temperature-tau">Temperature</label>' in html
    assert "entropy 1.78 bits" in html
    assert 'style="--weight: 63.1%"><span class="temperature-token">cat</span>' in html
    assert html.count('<span class="visually-hidden">masked</span>') == 2


def test_unknown_widget_names_the_known_widgets() -> None:
    html, state = render(SEED.replace("{temperature}", "{temprature}"))
    assert messages(state) == [
        f"content/posts/p.md:{FENCE_LINE}:1: unknown widget `{{temprature}}`; "
        "known widgets: temperature"
    ]
    assert '<pre class="widget-error">' in html


YAML_SLIPS = {
    "a list never closed": ("hungry, .]", "hungry, ."),
    "a quote never closed": ("query: was", 'query: "was'),
    "a tab for indentation": ("query: was", "\tquery: was"),
    "a colon in a plain value": ("query: was", "query: a: b"),
    "a mapping never closed": ("query: was", "query: was\ntau: {min: 0.5, max: 2"),
}


@pytest.mark.parametrize("slip", YAML_SLIPS)
def test_a_yaml_error_in_a_widget_is_worded_and_located_as_in_front_matter(slip: str) -> None:
    """The same YAML slip in front matter and in a widget's options: the same message (after
    the widget's name), at the same line and column of the YAML (session 43: the widget's
    was PyYAML's own text, at the line PyYAML gave up on)."""
    old, new = YAML_SLIPS[slip]
    options = SEED.split("```{temperature}\n")[1].split("```")[0].replace(old, new)
    _, state = render(SEED.replace(old, new))
    (widget,) = state.diagnostics
    front_matter = SourceFile(Path("x.md"), "x.md", f"---\n{options}---\nText.\n", "post")
    with pytest.raises(ContentError) as told:
        parse(front_matter, "UTC")
    assert widget.message == f"widget `temperature`: {told.value.message}"
    # front matter's YAML starts on file line 2, the widget's on the line after its fence
    yaml_line = (widget.location.line - FENCE_LINE, widget.location.col)
    assert yaml_line == (told.value.location.line - 1, told.value.location.col)


@pytest.mark.parametrize(
    ("body", "where", "message"),
    [
        (
            "query: was\nquery: cat\n",
            (2, 1),
            "duplicate key `query`: it is already set above; keep one",
        ),
        ("- a\n- b\n", (1, 1), None),
    ],
)
def test_a_repeated_key_or_a_list_in_a_widget_is_an_error_at_its_line(body, where, message):
    _, state = render(f"Text.\n\n```{{temperature}}\n{body}```\n")
    (diagnostic,) = state.diagnostics
    assert (diagnostic.location.line - 13, diagnostic.location.col) == where
    expected = message or "widget `temperature`'s options must be a mapping of `key: value` lines"
    assert diagnostic.message.endswith(expected)


def test_a_widget_in_a_list_item_is_located_at_its_indented_column() -> None:
    body = '- Item:\n\n  ```{temperature}\n  query: "was\n  ```\n'
    _, state = render(body)
    (diagnostic,) = state.diagnostics
    assert str(diagnostic.location) == "content/posts/p.md:14:10"
    assert diagnostic.source_line == '  query: "was'


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "query: was\n",
            "",
            "option `query` is missing; add the query token's text or index, e.g. `query: sat`",
        ),
        (
            "scores: [1.0, 0.5, 3.4, 0.3, 1.2, 0.1, 2.0]",
            "scores: [1.0, 0.5, 3.4, 0.3, 1.2, 0.1]",
            "`scores` has 6 values but 7 tokens come before the query `was`; "
            "give one score per token before the query",
        ),
        (
            "name:",
            "tau: {min: 20, max: 0.05}\nname:",
            "`tau.min` 20 is not below `tau.max` 0.05; the slider runs from min up to max, "
            "e.g. `tau: {min: 0.05, max: 20, steps: 101, default: 1.0}`",
        ),
        (
            "3.4, 0.3",
            "high, 0.3",
            "`scores[2]` is 'high', not a number; write a number like 1.5",
        ),
        (
            "name:",
            "colour: red\nname:",
            "unknown option `colour`; the options are caption, name, tokens, query, scores, tau",
        ),
        (
            "caption: Attention weights for the query “was”.\n",
            "",
            "option `caption` is missing; add `caption: …` (a widget is a figure)",
        ),
        (
            "name: fig-temperature",
            "name: temperature",
            "`name` is 'temperature'; write a figure label like `fig-attention`",
        ),
    ],
)
def test_bad_options_are_errors_at_the_fence_line(old: str, new: str, message: str) -> None:
    assert old in SEED
    html, state = render(SEED.replace(old, new))
    assert messages(state) == [
        f"content/posts/p.md:{FENCE_LINE}:1: widget `temperature`: {message}"
    ]
    assert state.diagnostics[0].source_line == "```{temperature}"
    assert '<pre class="widget-error">' in html and "<figure" not in html


def test_a_site_template_overrides_the_widget_template() -> None:
    env = jinja2.Environment(
        loader=jinja2.DictLoader({"widgets/temperature.html": "<p>{{ entropy_text }}</p>\n"}),
        autoescape=True,
    )
    html, _ = render(SEED, templates=env)
    assert html == "<p>Intro paragraph.</p>\n<p>1.78</p>\n"


@dataclass(frozen=True)
class _CounterOptions:
    start: int


def _parse_counter(raw: Mapping[str, Any]) -> _CounterOptions:
    if not isinstance(raw.get("start"), int):
        raise OptionError("option `start` is missing; add `start: 0`")
    return _CounterOptions(raw["start"])


def test_a_new_widget_needs_only_its_module_and_template(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("postil.widgets.counter")
    module.WIDGET = Widget(  # type: ignore[attr-defined]
        name="counter",
        options=("start",),
        parse_options=_parse_counter,
        template_context=lambda options: {"start": options.start},
    )
    monkeypatch.setitem(sys.modules, "postil.widgets.counter", module)
    template = (
        '<figure id="{{ widget_id }}">{{ start }}<figcaption>{{ caption }}</figcaption></figure>\n'
    )
    env = jinja2.Environment(loader=jinja2.DictLoader({"widgets/counter.html": template}))
    html, state = render("```{counter}\nstart: 3\ncaption: Count *up*.\n```\n", templates=env)
    assert html == '<figure id="widget-1">3<figcaption>Count <em>up</em>.</figcaption></figure>\n'
    assert state.widgets == {"counter"}
    _, state = render("```{counter}\ncaption: Count.\n```\n", templates=env)
    assert messages(state) == [
        "content/posts/p.md:11:1: widget `counter`: option `start` is missing; add `start: 0`"
    ]


def test_registry_finds_the_temperature_widget_and_rejects_odd_names() -> None:
    assert "temperature" in known_widgets()
    assert load_widget("temperature") is not None
    for name in ("", "Temperature", "../temperature", "os.path", "nonexistent"):
        assert load_widget(name) is None
