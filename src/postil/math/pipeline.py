r"""The math pipeline: every pass from TeX to MathML, in order, in one list.

Like markdown-it's rule chains, a pass is a named function of the formula's state
(`Formula`); `PASSES` runs them in order: the TeX passes (`TEX_PASSES`: checks, then
rewrites of the TeX string), `parse` (latex2mathml), the tree passes (`TREE_PASSES`:
changes to the MathML tree in place). `to_mathml` runs the list and serialises the result;
`python -m postil.math --trace 'TeX'` shows the formula after each pass.

Passes talk to later ones only through `Formula`'s fields and the markers of `markers.py`.
To add a pass: write it in the module of its concept as a function of TeX (`str -> str`) or
of the tree (`Element -> None`), add it here with `_tex`/`_rewrite`/`_tree` (or a small
adapter when it needs more of the state), and pin what it does in `tests/fixtures/math/`.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from postil.math import (
    amscd,
    colors,
    enclosures,
    engine,
    environments,
    fonts,
    intertext,
    limits,
    listends,
    markers,
    mhchem,
    middle,
    numbering,
    parcolumns,
    physics,
    proofs,
    rewrite,
    spacing,
    styles,
    tables,
    textmode,
    tokens,
)
from postil.math.arity import check_arguments
from postil.math.errors import MathSyntaxError, MathUnsupportedError
from postil.math.macros import (
    BUILTIN_MACROS,
    expand_macros,
    extract_definitions,
    rewrite_braket_bars,
)
from postil.math.safety import check_safety
from postil.math.serialise import math_html
from postil.math.symbols import glyph_macros
from postil.math.syntax import locate_syntax_error
from postil.math.texreader import macro_spec

GLYPH_MACROS = glyph_macros()
STATIC_MACROS = GLYPH_MACROS | BUILTIN_MACROS
STATIC_ARITIES = {name: macro_spec(body) for name, body in STATIC_MACROS.items()}


@dataclass
class Formula:
    r"""One formula on its way through the passes: the state they share and change.

    Attributes:
        source: the TeX as the caller gave it; error offsets refer to it.
        display: True for display math.
        macros: the caller's macros, name without backslash -> body (`#1` for arguments).
        equations: label -> number text of the document, or None (see `latex_to_mathml`).
        numbers: the number text of each numbered row, or None to count from 1.
        latex: the TeX as the passes have left it so far (starts as `source`).
        definitions: the macros the formula defines itself (`\newcommand`, `\def`, …).
        arities: macro name -> its arguments (`macro_spec`: `m` required, `o` optional),
            for the argument checks.
        rows: the equation rows found by the `numbering` pass (none for inline math).
        tree: the content `<mrow>` once `parse` has run; the tree passes change it in place.
        marked: False once `parse` has found that the tree can hold no marker
            (`markers.may_hold_markers`): the passes that only act on markers skip it.
    """

    source: str
    display: bool = False
    macros: Mapping[str, str] = field(default_factory=dict)
    equations: Mapping[str, str] | None = None
    numbers: Sequence[str | None] | None = None
    latex: str = ""
    definitions: dict[str, str] = field(default_factory=dict)
    arities: dict[str, str] = field(default_factory=dict)
    rows: tuple[numbering.EquationRow, ...] = ()
    tree: ET.Element | None = None
    marked: bool = True

    def __post_init__(self) -> None:
        self.latex = self.source

    @property
    def macro_table(self) -> Mapping[str, str]:
        """Return every macro in force: glyphs, KaTeX's aliases, the caller's, the formula's
        (read only: without macros of the caller's or the formula's, one shared table)."""
        if not self.macros and not self.definitions:
            return STATIC_MACROS
        return {**STATIC_MACROS, **self.macros, **self.definitions}

    @property
    def root(self) -> ET.Element:
        """Return the MathML tree (the tree passes run after `parse`, which sets it)."""
        if self.tree is None:
            raise RuntimeError("a tree pass ran before `parse`")
        return self.tree


Pass = Callable[[Formula], None]
Trace = Callable[[str, Formula], None]


def _tex(check: Callable[[str], None]) -> Pass:
    """Make a pass of a check on the current TeX (it raises on a problem)."""

    def run(formula: Formula) -> None:
        check(formula.latex)

    return run


def _rewrite(step: Callable[[str], str]) -> Pass:
    """Make a pass of a TeX rewrite; an unsupported command it finds points at the source."""

    def run(formula: Formula) -> None:
        try:
            formula.latex = step(formula.latex)
        except MathUnsupportedError as exc:
            source, table = formula.source, formula.macro_table
            raise engine.unsupported(exc.message, exc.command, source, table) from None

    return run


def _if_in(signs: tuple[str, ...], step: Callable[[str], str]) -> Callable[[str], str]:
    """Make a TeX rewrite that returns at once when none of `signs` is in the TeX (its cheap
    test)."""
    return lambda latex: step(latex) if any(sign in latex for sign in signs) else latex


def _tree(step: Callable[[ET.Element], None]) -> Pass:
    """Make a pass of a change to the MathML tree."""
    return lambda formula: step(formula.root)


def _marked(step: Callable[[ET.Element], None]) -> Pass:
    """Make a pass of a tree change that only markers call for (skipped without any)."""

    def run(formula: Formula) -> None:
        if formula.marked:
            step(formula.root)

    return run


def _marked_located(step: Callable[[ET.Element], None]) -> Pass:
    """Make a `_marked` pass whose unsupported command is located in the source, as
    `_rewrite` locates a TeX rewrite's (the tree step does not see the source)."""

    def run(formula: Formula) -> None:
        if formula.marked:
            try:
                step(formula.root)
            except MathUnsupportedError as exc:
                source, table = formula.source, formula.macro_table
                raise engine.unsupported(exc.message, exc.command, source, table) from None

    return run


def _definitions(formula: Formula) -> None:
    """Take `\\newcommand`, `\\def`, … out of the TeX (blanked, so offsets still match)."""
    formula.definitions, formula.latex = extract_definitions(formula.latex)


def _syntax(formula: Formula) -> None:
    """Raise at the first unbalanced brace, `\\left`/`\\right` or `\\begin`/`\\end`."""
    offset, problem = locate_syntax_error(formula.latex)
    if problem:
        raise MathSyntaxError(f"cannot parse the formula: {problem}", offset)


def _arguments(formula: Formula) -> None:
    """Raise at the first command with too few arguments (macros count with their arity)."""
    defined = {**formula.macros, **formula.definitions}
    arities = {name: macro_spec(body) for name, body in defined.items()}
    formula.arities = STATIC_ARITIES | arities if arities else STATIC_ARITIES
    check_arguments(formula.latex, formula.arities)


def _macros(formula: Formula) -> None:
    """Expand glyph macros, KaTeX's aliases, the caller's macros and the formula's own."""
    formula.latex = expand_macros(formula.latex, formula.macro_table)


def _physics(formula: Formula) -> None:
    """Rewrite the physics package's commands the macros left (a post's own names won)."""
    before = formula.latex
    try:
        formula.latex = physics.rewrite_physics(before)
    except MathSyntaxError as exc:
        offset = exc.offset
        if (
            offset < 0
            or not formula.source.startswith(exc.command, offset)
            or (formula.source[:offset] != before[:offset])
        ):
            offset, _ = engine.locate_command(exc.command, formula.source, formula.macro_table)
        raise MathSyntaxError(exc.message, offset, exc.command) from None


def _mhchem(formula: Formula) -> None:
    """Translate mhchem's `\\ce{…}` and `\\pu{…}` into TeX, before the argument checks: its
    argument is no TeX (`\\ce{CO2 ^}` is a gas). A `\\ce` the post or site defines as a
    macro is its own: `macros` expands it, and `expanded-mhchem` reads what is left."""
    if any(sign in formula.latex for sign in mhchem.SIGNS) and not _defines_mhchem(formula):
        _expanded_mhchem(formula)


def _expanded_mhchem(formula: Formula) -> None:
    """Translate the `\\ce{…}` and `\\pu{…}` left after `macros` (a macro's body held them).

    The error points into the source when the TeX before it is the source's (no macro
    changed it), else at the command's first place in the source.
    """
    before = formula.latex
    if not any(sign in before for sign in mhchem.SIGNS):
        return
    try:
        formula.latex = mhchem.rewrite_mhchem(before)
    except MathUnsupportedError as exc:
        offset = exc.offset
        if formula.source[:offset] != before[:offset]:
            offset, _ = engine.locate_command(exc.command, formula.source, formula.macro_table)
        raise MathUnsupportedError(exc.message, offset, exc.command) from None


def _defines_mhchem(formula: Formula) -> bool:
    """Tell whether the post or site defines a command of mhchem's as a macro of its own."""
    names = ("ce", "cee", "cf", "pu")
    return any(name in formula.macros or name in formula.definitions for name in names)


def _modular(formula: Formula) -> None:
    """Give `\\pmod`, `\\pod` and `\\mod` amsmath's spaces for the formula's style."""
    if "mod" in formula.latex or "\\pod" in formula.latex:
        formula.latex = rewrite.rewrite_modular(formula.latex, formula.display)


def _colors(formula: Formula) -> None:
    """Write colour arguments as CSS colours: models, dvips names, `\\definecolor`s."""
    if "color" in formula.latex:
        try:
            formula.latex = colors.rewrite_colors(formula.latex, formula.macro_table)
        except MathUnsupportedError as exc:  # a colour, not the command: no macro to define
            offset, _ = engine.locate_command(exc.command, formula.source, formula.macro_table)
            raise MathUnsupportedError(exc.message, offset, exc.command) from None
        except MathSyntaxError as exc:
            offset, _ = engine.locate_command(exc.command, formula.source, formula.macro_table)
            raise MathSyntaxError(exc.message, offset, exc.command) from None


def _color_schemes(formula: Formula) -> None:
    """Make each colour readable in the light and the dark scheme (`colors.scheme_colors`);
    only a formula that names a colour (`\\color`, `\\colorbox`, `\\bbox[yellow]`) has one."""
    if "color" in formula.latex or "bbox" in formula.latex:
        colors.scheme_colors(formula.root)


def _expanded_arguments(formula: Formula) -> None:
    """Check argument counts in what macros produced (`\\half` -> `\\frac{1}`), at the source.

    The error points at the command in the source when it is there, else at 0 (a macro's
    body); the macros themselves are expanded already, so only engine commands count.
    """
    if formula.latex == formula.source:
        return
    try:
        check_arguments(formula.latex, {})
    except MathSyntaxError as exc:
        offset, _ = engine.locate_command(exc.command, formula.source, formula.macro_table)
        raise MathSyntaxError(exc.message, offset, exc.command) from None


def _numbering(formula: Formula) -> None:
    """Read the equation rows (`\\label`, `\\tag`, `\\nonumber`) out of the TeX."""
    formula.latex, formula.rows = environments.split_numbering(formula.latex, formula.display)


def _rows(formula: Formula) -> None:
    """Set display math with several top-level rows as `gathered`."""
    formula.latex = environments.wrap_rows(formula.latex, formula.display)


def _parse(formula: Formula) -> None:
    """Run latex2mathml; keep the content `<mrow>` (the `<math>`'s only child)."""
    formula.tree = engine.parse(formula.latex, formula.source, formula.display)[0]
    formula.marked = markers.may_hold_markers(formula.latex)


def _class_commands(formula: Formula) -> None:
    """Take `\\mathbin{…}`'s and the other class commands' arguments out of their tokens."""
    if "\\math" in formula.latex and tokens.CLASS_COMMAND.search(formula.latex):
        tokens.flatten_class_tokens(formula.root)


def _limits(formula: Formula) -> None:
    """Stack limits under/over where the style is display style."""
    limits.apply_limits(formula.root, formula.display, unwrap=formula.marked)


def _atom_spacing(formula: Formula) -> None:
    """Remove TeX's spaces between adjacent relations, around operators in scripts and at
    the ends of lists (`listends`: only a formula with a spaced operator has work there)."""
    classes = spacing.fix_atom_spacing(formula.root, formula.display)
    if not spacing.SPACED_CLASSES.isdisjoint(classes):
        listends.space_list_ends(formula.root)
    if "mathop" in classes:  # a large operator (`\sum`): found before, without a new walk
        listends.space_large_operators(formula.root)


def _environment_styles(formula: Formula) -> None:
    """Give environments TeX's cell padding, row struts (with `\\arraystretch`) and style."""
    if not formula.marked:
        return  # the environments are marked by `env` markers
    stretch = environments.array_stretch({**formula.macros, **formula.definitions})
    environments.style_environments(formula.root, stretch)


def _fraction_delimiters(formula: Formula) -> None:
    """Give `\\binom`'s parentheses text size outside display style."""
    styles.fix_fraction_delimiters(formula.root, formula.display)


def _script_delimiters(formula: Formula) -> None:
    """Draw `\\big` delimiters in scripts at full size (plain.tex's `\\hbox`)."""
    if "ig" in formula.latex:  # no `\\big` form, no sized delimiter (most formulas)
        styles.size_delimiters_in_scripts(formula.root, formula.display)


def _fence_sizes(formula: Formula) -> None:
    """Leave `\\left…\\right` delimiters around one line of symbols unstretched."""
    if "\\left" in formula.latex:  # no `\\left`, no group (issue 20: most formulas)
        styles.fix_fence_sizes(formula.root)


def _numbers(formula: Formula) -> None:
    """Put the rows' equation numbers at the right margin."""
    numbering.attach_numbers(formula.root, formula.rows, formula.numbers, tag_tree)


def tag_tree(text: str) -> list[ET.Element]:
    r"""Return the MathML of a tag's text holding TeX, read as `\text{…}` (amsmath sets
    `\tag` in text mode): `(\$1'$)` -> `<mtext>(</mtext><mrow>…1′…</mrow><mtext>)</mtext>`."""
    formula = Formula(rf"\text{{{text}}}")
    run(formula)
    return list(formula.root)


def _prime_scripts(formula: Formula) -> None:
    """Merge a superscript after primes into theirs (only a formula with a prime walks)."""
    if "'" in formula.source or "prime" in formula.source:
        tokens.merge_prime_scripts(formula.root)


def _refs(formula: Formula) -> None:
    """Turn `\\eqref`/`\\ref` markers into links to the numbered rows."""
    if formula.marked:
        numbering.resolve_refs(
            formula.root, formula.rows, formula.numbers, formula.equations, tag_tree
        )


def _leftovers(formula: Formula) -> None:
    """Raise if a `\\command` survived as text (latex2mathml did not know it)."""
    command = engine.find_leftover(formula.root)
    if command is not None:  # the macro table is only needed to say where it came from
        message = f"unsupported command {command}"
        raise engine.unsupported(message, command, formula.source, formula.macro_table)


TEX_PASSES: list[tuple[str, Pass]] = [
    ("safety", _tex(check_safety)),
    ("definitions", _definitions),
    ("escaped-percent", _rewrite(rewrite.rewrite_escaped_percent)),
    ("syntax", _syntax),
    ("mhchem", _mhchem),
    ("arguments", _arguments),
    ("braket-bars", _rewrite(rewrite_braket_bars)),
    ("macros", _macros),
    ("expanded-mhchem", _expanded_mhchem),
    ("physics", _physics),
    ("colors", _colors),
    ("expanded-safety", _tex(check_safety)),
    ("expanded-arguments", _expanded_arguments),
    (
        "plain-matrices",
        _rewrite(_if_in(("matrix", "\\cases"), environments.rewrite_plain_matrices)),
    ),
    ("intertext", _rewrite(intertext.rewrite_intertext)),
    ("prooftrees", _rewrite(proofs.rewrite_prooftrees)),
    ("diagrams", _rewrite(amscd.rewrite_cd)),
    ("row-gaps", _rewrite(environments.rewrite_row_gaps)),
    ("switches", _rewrite(environments.scope_switches)),
    ("numbering", _numbering),
    ("ref-markers", _rewrite(rewrite.rewrite_refs)),
    ("verb", _rewrite(textmode.rewrite_verb)),
    ("cfrac", _rewrite(_if_in(("\\cfrac",), styles.rewrite_cfrac))),
    ("middle-fractions", _rewrite(_if_in(("\\middle",), middle.brace_middle_segments))),
    ("specials", _rewrite(rewrite.rewrite_specials)),
    ("prime-superscripts", _rewrite(rewrite.rewrite_prime_superscripts)),
    ("modular", _modular),
    ("operatornames", _rewrite(rewrite.rewrite_operatornames)),
    ("enclosures", _rewrite(enclosures.rewrite_enclosures)),
    ("paragraph-columns", _rewrite(parcolumns.rewrite_paragraph_columns)),
    ("text", _rewrite(textmode.rewrite_text)),
    ("digit-fonts", _rewrite(fonts.mark_digit_fonts)),
    ("logos", _rewrite(textmode.rewrite_logos)),
    ("dots", _rewrite(rewrite.rewrite_dots)),
    ("sidesets", _rewrite(_if_in(("\\sideset", "\\prescript"), limits.rewrite_sidesets))),
    ("limits-markers", _rewrite(limits.rewrite_limits)),
    ("rows", _rows),
    ("urls", _rewrite(rewrite.rewrite_urls)),
    ("array-preambles", _rewrite(tables.rewrite_array_preambles)),
    ("matrix-edges", _rewrite(tables.rewrite_matrix_edges)),
    ("spans", _rewrite(tables.rewrite_spans)),
    ("environments", _rewrite(environments.rewrite_environments)),
]
TREE_PASSES: list[tuple[str, Pass]] = [
    ("entities", _tree(engine.decode_entities)),
    ("markers", _marked(markers.expand_markers)),
    ("symbols", _tree(tokens.resolve_symbols)),
    ("prime-scripts", _prime_scripts),
    ("class-commands", _class_commands),
    ("classes", _tree(tokens.classify_tokens)),
    ("letters", _tree(fonts.merge_letters)),
    ("greek-capitals", _tree(fonts.upright_greek_capitals)),
    ("mathvariant", _tree(fonts.apply_mathvariant)),
    ("lengths", _tree(spacing.fix_lengths)),
    ("sideset-scripts", _marked(limits.fix_sidesets)),
    ("limits", _limits),
    ("functions", _tree(spacing.apply_functions)),
    ("span-cells", _marked(tables.fix_spans)),
    ("tables", _tree(tables.style_tables)),
    ("environment-styles", _environment_styles),
    ("row-gap-padding", _marked(environments.apply_row_gaps)),
    ("enclosures", _tree(enclosures.fix_enclosures)),
    ("prefix", _tree(tokens.mark_prefix_operators)),
    ("ordinary-groups", _tree(tokens.mark_ordinary_groups)),
    ("atom-spacing", _atom_spacing),
    ("fraction-delimiters", _fraction_delimiters),
    ("delimiter-sizes", _tree(styles.fix_delimiter_sizes)),
    ("script-delimiters", _script_delimiters),
    ("fence-sizes", _fence_sizes),
    ("numbers", _numbers),
    ("intertext-rows", _marked_located(intertext.fix_intertext)),
    ("refs", _refs),
    ("leftovers", _leftovers),
    ("color-schemes", _color_schemes),
    ("clean", _tree(markers.clean_markers)),
]
PASSES: list[tuple[str, Pass]] = [*TEX_PASSES, ("parse", _parse), *TREE_PASSES]


def run(formula: Formula, trace: Trace | None = None) -> None:
    """Run every pass of `PASSES` on `formula`, in order; call `trace(name, formula)` after each.

    Raises:
        MathSyntaxError, MathUnsupportedError: from the pass that found the problem.
    """
    for name, step in PASSES:
        step(formula)
        if trace is not None:
            trace(name, formula)


def to_mathml(formula: Formula, trace: Trace | None = None) -> str:
    """Run the passes on `formula` and return its `<math>` element as HTML text."""
    run(formula, trace)
    return math_html(formula.root, formula.source, formula.display)
