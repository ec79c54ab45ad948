"""Keyboard keys as MkDocs Material writes them: `++ctrl+alt+del++` (pymdownx.keys).

pymdown-extensions' Keys extension (MkDocs Material's "Keyboard keys"): keys between `++`,
separated by single `+`, each a key's name (`ctrl`, `page-up`, `f5`, `a`) or a label of the
author's in quotes (`++ctrl+"My key"++`). Its default output (not `strict`) is kept:
`<span class="keys"><kbd class="key-control">Ctrl</kbd><span>+</span>…</span>`, each named
key's `<kbd>` classed by its name's canonical form. A name the keymap does not know leaves
the whole run as text, as pymdownx.keys does (`x++y++z` in prose too, unless `y` is a key).
Without this plugin MkDocs posts showed their `++ctrl+n++` as written
(syncpoint/ODINv2#99: "renders as proper keyboard badges instead of raw text").
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

KEY = r'(?:[\w-]+|"[^"\n]+")'
KEYS = re.compile(rf"\+\+({KEY}(?:\+{KEY})*)\+\+")
"""A run of keys: `++ctrl+alt+del++`, `++"Custom"++`."""

LABELS = {
    "alt": "Alt",
    "backspace": "Backspace",
    "caps-lock": "Caps Lock",
    "command": "Cmd",
    "control": "Ctrl",
    "delete": "Del",
    "end": "End",
    "enter": "Enter",
    "escape": "Esc",
    "fn": "Fn",
    "home": "Home",
    "insert": "Ins",
    "meta": "Meta",
    "option": "Option",
    "page-down": "Page Down",
    "page-up": "Page Up",
    "print-screen": "Print Screen",
    "shift": "Shift",
    "space": "Space",
    "super": "Super",
    "tab": "Tab",
    "windows": "Win",
    "arrow-up": "Up",
    "arrow-down": "Down",
    "arrow-left": "Left",
    "arrow-right": "Right",
    "left-alt": "Left Alt",
    "right-alt": "Right Alt",
    "left-control": "Left Ctrl",
    "right-control": "Right Ctrl",
    "left-shift": "Left Shift",
    "right-shift": "Right Shift",
    "left-windows": "Left Win",
    "right-windows": "Right Win",
    "menu": "Menu",
    "num-lock": "Num Lock",
    "scroll-lock": "Scroll Lock",
    "pause": "Pause",
    **{chr(c): chr(c).upper() for c in range(ord("a"), ord("z") + 1)},
    **{str(d): str(d) for d in range(10)},
    **{f"f{n}": f"F{n}" for n in range(1, 25)},
}
"""Each key's canonical name and label, as pymdownx.keys' keymap gives them."""

ALIASES = {
    "ctrl": "control",
    "cmd": "command",
    "del": "delete",
    "esc": "escape",
    "win": "windows",
    "up": "arrow-up",
    "down": "arrow-down",
    "left": "arrow-left",
    "right": "arrow-right",
    "return": "enter",
    "ins": "insert",
    "opt": "option",
    "pgup": "page-up",
    "pgdn": "page-down",
    "caps": "caps-lock",
    "prtsc": "print-screen",
    "bksp": "backspace",
}
"""Other names a key is written by (`ctrl` for `control`)."""


def keys_plugin(md: MarkdownIt) -> None:
    """Read pymdownx.keys' `++ctrl+alt+del++` as keyboard keys.

    Syntax::

        Press ++ctrl+shift+p++, type ++"Hello"++ and press ++enter++.

    Output: `<span class="keys"><kbd class="key-control">Ctrl</kbd><span>+</span>…</span>`,
    the labels and `+` as text tokens (a heading's id and the search index read "Ctrl+S").
    CSS classes: keys, key-<name> (the theme styles `kbd`).
    """
    md.inline.ruler.push("keys", keys_inline)


def keys_inline(state: StateInline, silent: bool) -> bool:
    """Inline rule: `++…++` whose every key is known or quoted (else text)."""
    if not state.src.startswith("++", state.pos):
        return False
    found = KEYS.match(state.src, state.pos, state.posMax)
    if found is None:
        return False
    keys = [_key(part) for part in re.findall(KEY, found[1])]
    if any(key is None for key in keys):
        return False
    if not silent:
        before = '<span class="keys">'
        for name, label in (key for key in keys if key is not None):
            kbd = f'<kbd class="key-{name}">' if name else "<kbd>"
            state.push("html_inline", "", 0).content = before + kbd
            state.push("text", "", 0).content = label
            before = "</span>"
            state.push("html_inline", "", 0).content = "</kbd><span>"
            state.push("text", "", 0).content = "+"
        state.tokens[-2].content = "</kbd></span>"  # no `+` after the last key
        state.tokens.pop()
    state.pos = found.end()
    return True


def _key(written: str) -> tuple[str, str] | None:
    """Return (class name or "", label) of a key as written, or None for an unknown name."""
    if written.startswith('"'):
        return "", written[1:-1].strip()
    name = written.lower().replace("_", "-")
    name = ALIASES.get(name, name)
    return (name, LABELS[name]) if name in LABELS else None
