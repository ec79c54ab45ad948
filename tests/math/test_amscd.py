"""amscd's `CD` diagrams written as arrays (`postil.math.amscd`)."""

from __future__ import annotations

import pytest

from postil.math.amscd import rewrite_cd
from postil.math.errors import MathSyntaxError

PAD = r"\hphantom{\quad}"


def test_a_square_is_objects_and_arrows_in_alternate_columns():
    tex = rewrite_cd(r"\begin{CD} A @>f>> B \\ @VgVV @VVhV \\ C @>>k> D \end{CD}")
    assert tex == (
        r"\begin{array}{ccc}"
        rf"A & \xrightarrow{{{PAD}{{f}}{PAD}}} & B \\ "
        r"\mathllap{\scriptstyle g\,}\Big\downarrow &  & "
        r"\Big\downarrow\mathrlap{\,\scriptstyle h} \\ "
        rf"C & \xrightarrow[{PAD}{{k}}{PAD}]{{}} & D"
        r"\end{array}"
    )


def test_left_arrows_equals_up_arrows_double_lines_and_no_arrow():
    tex = rewrite_cd(r"\begin{CD} A @<<< B @= C \\ @AAA @| @. \end{CD}")
    assert rf"\xleftarrow{{{PAD}{PAD}}}" in tex and r"\xlongequal" in tex
    assert r"\Big\uparrow &  & \Big\Vert &  & \end{array}" in tex


def test_labels_keep_braces_and_commands():
    tex = rewrite_cd(r"\begin{CD} A @>{f>g}>\alpha> B \end{CD}")
    assert rf"\xrightarrow[{PAD}{{\alpha}}{PAD}]{{{PAD}{{{{f>g}}}}{PAD}}}" in tex


def test_a_formula_without_a_diagram_is_unchanged():
    assert rewrite_cd(r"a @ b \{CD\}") == r"a @ b \{CD\}"


@pytest.mark.parametrize(
    ("tex", "offset", "message"),
    [
        (r"\begin{CD} A @x B \end{CD}", 13, "`@x` in a CD diagram"),
        (r"\begin{CD} A @>f> B \end{CD}", 13, "never closed"),
    ],
)
def test_an_unknown_or_unclosed_arrow_is_an_error_at_its_at_sign(tex, offset, message):
    with pytest.raises(MathSyntaxError, match=message) as info:
        rewrite_cd(tex)
    assert info.value.offset == offset
