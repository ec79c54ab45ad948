r"""mhchem's `\ce` and `\pu` (`postil.math.mhchem`): the TeX each construct becomes, as the
mhchem manual (https://mhchem.github.io/MathJax-mhchem/) shows it and mhchem 3.3 emits it
(scripts on the element here, isotopes as `\prescript`, arrows as `\x…arrow`), and the
warnings for what is not read."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from postil.markdown.math import math_plugin
from postil.markdown.state import RenderState
from postil.math import MathUnsupportedError, latex_to_mathml
from postil.math.mhchem import rewrite_mhchem, translate_ce, translate_pu

ARROW = r"\xrightarrow{\hspace{2em}}"


@pytest.mark.parametrize(
    ("source", "tex"),
    [
        # chemical equations: coefficients, operators, arrows
        (
            r"2H2 + O2 -> 2H2O",
            rf"2\,\mathrm{{H}}_{{2}} {{}}+{{}} \mathrm{{O}}_{{2}}{ARROW}"
            r"2\,\mathrm{H}_{2}\mathrm{O}",
        ),
        (r"2 CO", r"2\,\mathrm{CO}"),
        (r"1/2 H2O", r"\tfrac{1}{2}\,\mathrm{H}_{2}\mathrm{O}"),
        (r"1/2H2O", r"\tfrac{1}{2}\,\mathrm{H}_{2}\mathrm{O}"),
        (r"0.5 H2O", r"0.5\,\mathrm{H}_{2}\mathrm{O}"),
        (r"A + B = C", r"\mathrm{A} {}+{} \mathrm{B} {}={} \mathrm{C}"),
        (r"A->B", rf"\mathrm{{A}}{ARROW}\mathrm{{B}}"),
        (r"A <- B", r"\mathrm{A}\xleftarrow{\hspace{2em}}\mathrm{B}"),
        (r"A <-> B", r"\mathrm{A}\xleftrightarrow{\hspace{2em}}\mathrm{B}"),
        (r"A <--> B", r"\mathrm{A}\xtofrom{\hspace{2em}}\mathrm{B}"),
        (r"A <=> B", r"\mathrm{A}\xrightleftharpoons{\hspace{2em}}\mathrm{B}"),
        (
            r"A <=>> B",
            r"\mathrm{A}\mathrel{\raise0.12em{\xrightharpoonup{\hspace{2em}}}"
            r"\mathllap{\raise-0.15em{\mathord{\leftharpoondown}}\hspace{0.9em}}}\mathrm{B}",
        ),
        (
            r"A <<=> B",
            r"\mathrm{A}\mathrel{\raise-0.15em{\xleftharpoondown{\hspace{2em}}}"
            r"\mathllap{\raise0.12em{\mathord{\rightharpoonup}}\hspace{0.9em}}}\mathrm{B}",
        ),
        (
            r"A ->[{text above}][{text below}] B",
            r"\mathrm{A}\xrightarrow[\text{text below}]{\text{text above}}\mathrm{B}",
        ),
        (
            r"A ->[H2O] B",
            r"\mathrm{A}\xrightarrow{\hspace{1em}\mathclap{\mathrm{H}_{2}\mathrm{O}}\hspace{1em}}\mathrm{B}",
        ),
        (r"A ->[catalyst] B", r"\mathrm{A}\xrightarrow{\mathrm{catalyst}}\mathrm{B}"),
        (
            r"A ->[$x$] B",
            r"\mathrm{A}\xrightarrow{\hspace{1em}\mathclap{\mathrm{x}}\hspace{1em}}\mathrm{B}",
        ),
        (
            r"A <=>[k_1][k_2] B",
            r"\mathrm{A}\xrightleftharpoons[\hspace{1em}\mathclap{\mathrm{k}_{2}}\hspace{1em}]{\hspace{1em}\mathclap{\mathrm{k}_{1}}\hspace{1em}}\mathrm{B}",
        ),
        (
            r"A <=>[carbonic anhydrase] B",
            r"\mathrm{A}\xrightleftharpoons{\mathrm{carbonic}~\mathrm{anhydrase}}\mathrm{B}",
        ),
        # formulas, charges, oxidation states
        (r"H2O", r"\mathrm{H}_{2}\mathrm{O}"),
        (r"Ca(OH)2", r"\mathrm{Ca}(\mathrm{OH})_{2}"),
        (r"K4[Fe(CN)6]", r"\mathrm{K}_{4}[\mathrm{Fe}(\mathrm{CN})_{6}]"),
        (r"H+", r"\mathrm{H}^{+}"),
        (r"SO4^2-", r"\mathrm{SO}_{4}{}^{2-}"),
        (r"NH4+", r"\mathrm{NH}_{4}{}^{+}"),
        (r"[AgCl2]-", r"[\mathrm{AgCl}_{2}]^{-}"),
        (r"Y^99+", r"\mathrm{Y}^{99+}"),
        (r"Y^{99+}", r"\mathrm{Y}^{99+}"),
        (r"Fe^{n+}", r"\mathrm{Fe}^{n+}"),
        (r"e-", r"\mathrm{e}^{-}"),
        (
            r"Fe^{II}Fe^{III}2O4",
            r"\mathrm{Fe}^{\mathrm{II}}\mathrm{Fe}^{\mathrm{III}}{}_{2}\mathrm{O}_{4}",
        ),
        (r"NO_x", r"\mathrm{NO}_{x}"),
        (r"1s^2", r"1\mathrm{s}^{2}"),
        # isotopes
        (r"^{227}_{90}Th+", r"\prescript{227}{90}{\mathrm{Th}}{}^{+}"),
        (r"^227_90Th+", r"\prescript{227}{90}{\mathrm{Th}}{}^{+}"),
        (r"^{0}_{-1}n^{-}", r"\prescript{0}{-1}{\mathrm{n}}{}^{-}"),
        (r"^{14}C", r"\prescript{14}{}{\mathrm{C}}"),
        # stoichiometric variables, Greek letters, math
        (r"n H2O", r"n\,\mathrm{H}_{2}\mathrm{O}"),
        (r"2n H2O", r"2n\,\mathrm{H}_{2}\mathrm{O}"),
        (r"$x$ Na", r"x \,\mathrm{Na}"),
        (r"\alpha-Fe", r"\mathrm{\alpha}\text{-}\mathrm{Fe}"),
        (r"$\alpha$-Fe", r"\alpha \text{-}\mathrm{Fe}"),
        (r"{Gluconic Acid} + H2O2", r"{\text{Gluconic Acid}} {}+{} \mathrm{H}_{2}\mathrm{O}_{2}"),
        # states, precipitate and gas, addition compounds
        (r"H2O(l)", r"\mathrm{H}_{2}\mathrm{O}\mskip2mu (\mathrm{l})"),
        (r"NaCl(aq)", r"\mathrm{NaCl}\mskip2mu (\mathrm{aq})"),
        (r"NaOH(aq,$\infty$)", r"\mathrm{NaOH}\mskip2mu (\mathrm{aq},\infty)"),
        (r"Fe(OH)3 v", r"\mathrm{Fe}(\mathrm{OH})_{3} \downarrow{} "),
        (r"CO2 ^", r"\mathrm{CO}_{2} \uparrow{} "),
        (r"CuSO4.5H2O", r"\mathrm{CuSO}_{4}\,{\cdot}\,5\,\mathrm{H}_{2}\mathrm{O}"),
        (r"CuSO4*5H2O", r"\mathrm{CuSO}_{4}\,{\cdot}\,5\,\mathrm{H}_{2}\mathrm{O}"),
        # bonds
        (r"C6H5-CHO", r"\mathrm{C}_{6}\mathrm{H}_{5}{-}\mathrm{CHO}"),
        (r"A-B=C#D", r"\mathrm{A}{-}\mathrm{B}{=}\mathrm{C}{\equiv}\mathrm{D}"),
        (r"A\bond{#}B", r"\mathrm{A}{\equiv}\mathrm{B}"),
        (r"A\bond{->}B", r"\mathrm{A}{\rightarrow}\mathrm{B}"),
        (r"A\bond{...}B", r"\mathrm{A}{{\cdot}{\cdot}{\cdot}}\mathrm{B}"),
        # the manual's rarer corners
        (r"(1/2) H2O", r"(1/2)\,\mathrm{H}_{2}\mathrm{O}"),
        (r"^0_-1n-", r"\prescript{0}{-1}{\mathrm{n}}{}^{-}"),
        (r"H^3HO", r"\mathrm{H}\prescript{3}{}{\mathrm{H}}\mathrm{O}"),
        (r"H{}^3HO", r"\mathrm{H}\prescript{3}{}{\mathrm{H}}\mathrm{O}"),
        (r"[\{(X2)3\}2]^3+", r"[\{(\mathrm{X}_{2})_{3}\}_{2}]^{3+}"),
        (r"CO3^2-_{(aq)}", r"\mathrm{CO}_{3}{}^{2-}{}_{\mskip1mu (\mathrm{aq})}"),
        (r"ZnS($c$)", r"\mathrm{ZnS}\mskip2mu (c)"),
        (r"ZnS(\ca$c$)", r"\mathrm{ZnS}\mskip2mu ({\sim}c)"),
        (r"Co(en)3", r"\mathrm{Co}(\mathrm{en})_{3}"),
        (
            r"[Pt(\eta^2-C2H4)Cl3]-",
            r"[\mathrm{Pt}(\mathrm{\eta}^{2}\text{-}\mathrm{C}_{2}\mathrm{H}_{4})\mathrm{Cl}_{3}]^{-}",
        ),
        (r"\beta +", r"\mathrm{\beta}{}^{+}"),
        (r"\nu_e", r"\mathrm{\nu}_{e}"),
        (r"Fe(CN)_{$\frac{6}{2}$}", r"\mathrm{Fe}(\mathrm{CN})_{\frac{6}{2}}"),
        (r"X_{{red}}", r"\mathrm{X}_{\text{red}}"),
        (
            r"{(+)}_589{-}[Co(en)3]Cl3",
            r"{\text{(+)}}{}_{589}{\text{-}}[\mathrm{Co}(\mathrm{en})_{3}]\mathrm{Cl}_{3}",
        ),
        (
            r"KCr(SO4)2 * 12 H2O",
            r"\mathrm{KCr}(\mathrm{SO}_{4})_{2}\,{\cdot}\,12\,\mathrm{H}_{2}\mathrm{O}",
        ),
        (r"OCO^{.-}", r"\mathrm{OCO}^{\mkern1mu{\bullet}\mkern1mu -}"),
        (r"NO^*", r"\mathrm{NO}^{*}"),
        (r"A \pm B", r"\mathrm{A} {}\pm{} \mathrm{B}"),
        (r"B (v)", r"\mathrm{B} \downarrow{} "),
        (r"n-Pr", r"n\text{-}\mathrm{Pr}"),
        (r"\ca Fe", r"{\sim}\mathrm{Fe}"),
        (r"A, B; C", r"\mathrm{A}{,}\mkern6mu \mathrm{B}{;}\mkern6mu \mathrm{C}"),
        (r"A ->[+ 2OH-] B", r"\mathrm{A}\xrightarrow{ {}+{} 2\,\mathrm{OH}^{-}}\mathrm{B}"),
        (r"$K = [\ce{H+}]$", r"K = [{\mathrm{H}^{+}}] "),
        # Kröger–Vink notation: ×, bullets and primes stacked over the site
        (r"Li^x_{Li,1-2x}", r"\mathrm{Li}^{{\times}}_{\mathrm{Li}{,}\mkern1mu 1-2x}"),
        (
            r"M^{..}_i",
            r"\mathrm{M}^{\mkern1mu{\bullet}\mkern1mu \mkern1mu{\bullet}\mkern1mu}_{\mathrm{i}}",
        ),
        (r"O''_{i,x}", r"\mathrm{O}^{\prime \prime }_{\mathrm{i}{,}\mkern1mu x}"),
        (r"$V$^{4'}_{Ti}", r"V ^{4\prime }_{\mathrm{Ti}}"),
        (
            r"V_{V,1}C_{C,0.8}",
            r"\mathrm{V}_{\mathrm{V}{,}\mkern1mu 1}\mathrm{C}_{\mathrm{C}{,}\mkern1mu 0.8}",
        ),
        # other TeX commands, passed on as mhchem passes them
        (r"\color{red}{H2O}", r"{\color{red}{\mathrm{H}_{2}\mathrm{O}}}"),
        (r"\frac{1}{2}H2O", r"\frac{1}{2}\mathrm{H}_{2}\mathrm{O}"),
        (r"\overset{a}{H}", r"\overset{\mathrm{a}}{\mathrm{H}}"),
        (
            r"A ->[\text{Fe}] B",
            r"\mathrm{A}\xrightarrow{\hspace{1em}\mathclap{\text{Fe}}\hspace{1em}}\mathrm{B}",
        ),
        (r"A \cdot B", r"\mathrm{A}~\cdot \mathrm{B}"),
    ],
)
def test_mhchem_ce_becomes_the_tex_mhchem_documents(source: str, tex: str) -> None:
    assert translate_ce(source) == "{" + tex + "}"


@pytest.mark.parametrize(
    ("source", "tex"),
    [
        (r"123 kJ", r"123~\mathrm{kJ}"),
        (r"123 mm2", r"123~\mathrm{mm}^{2}"),
        (r"123 J s", r"123~\mathrm{J}\mkern3mu \mathrm{s}"),
        (r"123 J*s", r"123~\mathrm{J}\mkern1mu{\cdot}\mkern1mu \mathrm{s}"),
        (r"123 kJ/mol", r"123~\mathrm{kJ}/\mathrm{mol}"),
        (r"123 kJ//mol", r"123~\tfrac{\mathrm{kJ}}{\mathrm{mol}}"),
        (r"123 kJ mol-1", r"123~\mathrm{kJ}\mkern3mu \mathrm{mol}^{-1}"),
        (r"1.2e3 kJ", r"1.2\cdot 10^{3}~\mathrm{kJ}"),
        (r"1.2E3 kJ", r"1.2\times 10^{3}~\mathrm{kJ}"),
        (r"1.2x10^3 kJ", r"1.2\times 10^{3}~\mathrm{kJ}"),
        (r"1.2*10^3 kJ", r"1.2\cdot 10^{3}~\mathrm{kJ}"),
        (r"1.5e-3 m", r"1.5\cdot 10^{-3}~\mathrm{m}"),
        (r"25 °C", r"25~{}^{\circ}\mathrm{C}"),
        (r"9.81 m/s^2", r"9.81~\mathrm{m}/\mathrm{s}^{2}"),
        (r"12345 kJ", r"12\mkern2mu 345~\mathrm{kJ}"),
        (r"0.123456 m", r"0.123\mkern2mu 456~\mathrm{m}"),
        (r"1,5 kJ", r"1{,}5~\mathrm{kJ}"),
        (r"-273.15 °C", r"-273.15~{}^{\circ}\mathrm{C}"),
        (r"kJ/mol", r"\mathrm{kJ}/\mathrm{mol}"),
        (r"5 \%", r"5~\%"),
        (r"1,2e3 kJ", r"1{,}2\cdot 10^{3}~\mathrm{kJ}"),
        (r"75.3 J // mol K", r"75.3~\tfrac{\mathrm{J}}{\mathrm{mol}\mkern3mu \mathrm{K}}"),
    ],
)
def test_mhchem_pu_becomes_the_tex_mhchem_documents(source: str, tex: str) -> None:
    assert translate_pu(source) == "{" + tex + "}"


def test_mhchem_aliases_cee_and_cf_are_ce() -> None:
    assert rewrite_mhchem(r"\cee{H2O} \cf{H2O}") == rewrite_mhchem(r"\ce{H2O} \ce{H2O}")


def test_mhchem_ce_inside_text_is_set_as_math() -> None:
    assert rewrite_mhchem(r"\text{water \ce{H2O}}") == r"\text{water ${\mathrm{H}_{2}\mathrm{O}}$}"
    assert rewrite_mhchem(r"\text{$\ce{H2O}$}") == r"\text{${\mathrm{H}_{2}\mathrm{O}}$}"


def test_mhchem_ce_in_an_aligned_keeps_its_ampersands_ungrouped() -> None:
    assert translate_ce(r"A &-> B") == r"\mathrm{A}& \xrightarrow{\hspace{2em}}\mathrm{B}"


def test_mhchem_nested_pu_in_ce_is_translated() -> None:
    assert translate_ce(r"NaOH (\pu{0.1 M})") == r"{\mathrm{NaOH}~({0.1~\mathrm{M}})}"


def test_mhchem_formula_without_ce_is_returned_as_is() -> None:
    latex = r"\frac{a}{b} + \cos x"
    assert rewrite_mhchem(latex) is latex


@pytest.mark.parametrize(
    ("latex", "offset", "message"),
    [
        (r"\ce{X^{1/2}}", 5, "mhchem's superscript `^{1/2}` in \\ce{…} is not supported"),
        (r"\ce{^{a}X}", 4, "mhchem's scripts before a formula that are no isotope"),
        (r"\ce{A\bond{?}B}", 5, "mhchem's bond `\\bond{?}` in \\ce{…} is not supported"),
        (r"x + \ce{NaCl |}", 13, "mhchem's `|` in \\ce{…} is not supported"),
        (r"\pu{1-2 kJ}", 4, "mhchem's unit `1-2 kJ` in \\pu{…} is not supported"),
        (r"\pu{1.2 +- 0.1 m}", 8, "mhchem's unit `+- 0.1 m` in \\pu{…} is not supported"),
        (r"\ce{A ->[x B}", 8, "\\ce{…}: an arrow's `[` is never closed; add its `]`"),
        (r"\ce H2O", 0, "\\ce{…}: its argument is not in braces; write \\ce{H2O}"),
    ],
)
def test_mhchem_unread_construct_warns_at_its_place(latex: str, offset: int, message: str) -> None:
    with pytest.raises(MathUnsupportedError) as caught:
        latex_to_mathml(latex)
    assert caught.value.offset == offset
    assert caught.value.message.startswith(message)


def test_mhchem_a_posts_own_ce_macro_wins() -> None:
    own = latex_to_mathml(r"\newcommand{\ce}[1]{\mathbf{#1}}\ce{H2O}")
    assert "<mi>𝐇</mi><mn>𝟐</mn>" in own


def test_mhchem_ce_in_a_macro_body_is_translated() -> None:
    assert latex_to_mathml(r"\newcommand{\water}{\ce{H2O}}\water").count("<mn>2</mn>") == 1


def _render(source: str) -> tuple[str, RenderState]:
    """Render a post's Markdown with the math plugin, as `tests/markdown` does."""
    md = MarkdownIt("commonmark")
    math_plugin(md)
    state = RenderState(path="post.md")
    state.source_lines = source.split("\n")
    return md.render(source, {"postil": state}), state


def test_mhchem_in_a_post_is_typeset_without_warnings() -> None:
    html, state = _render("Water: $\\ce{2H2 + O2 -> 2H2O}$, $\\pu{-285.8 kJ/mol}$.\n")
    assert not state.diagnostics
    assert html.count("<math") == 2 and "<mi>kJ</mi>" in html and "→" in html


def test_mhchem_unread_construct_in_a_post_warns_at_path_line_column() -> None:
    _, state = _render("intro\n\nthe ion $x + \\ce{X^{1/2}}$ here\n")
    (diag,) = state.diagnostics
    assert (diag.location.line, diag.location.col) == (3, 19)
    assert diag.message.startswith("mhchem's superscript `^{1/2}` in \\ce{…} is not supported")
