#!/usr/bin/env python3
r"""Compare the token KINDS (mi/mo/mn/mtext) of postil's MathML with Temml's, row by row.

`../shared/math/math_check.py` compares token texts only, so `<mo>∞</mo>` for Temml's
`<mi>∞</mi>` scores as right. This script walks both trees the way math_check does
(same normalisation, same skipped elements), pairs the tokens of every row whose token
texts agree, and counts the rows and tokens whose tags differ too; it also counts prefix
operators (`form="prefix"` on a non-fence `<mo>`) on both sides.

    .venv/bin/python benchmarks/math_tags.py            # summary and the commonest kinds
    .venv/bin/python benchmarks/math_tags.py --rows 40  # also list disagreeing rows
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import xml.etree.ElementTree as ET
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "math"
spec = importlib.util.spec_from_file_location("math_check", SHARED / "math_check.py")
assert spec and spec.loader
check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check)

FENCES = set("()[]{}|‖⟨⟩⌈⌉⌊⌋")


def kinds(root: ET.Element) -> list[tuple[str, str, str]]:
    """Return (tag, normalised text, form) for every token leaf with text, in order."""
    out: list[tuple[str, str, str]] = []

    def walk(el: ET.Element) -> None:
        tag = check.tag(el)
        if tag in check.SKIP_TAGS:
            return
        if any(c in d.get("class", "") for d in el.iter() for c in ("tml-eqn", "tml-eqref")):
            if tag in check.TOKEN_TAGS or tag == "a":
                out.append(("mtext", "(#)", ""))
                return
        if tag in check.TOKEN_TAGS:
            text = check.norm("".join(el.itertext()))
            if text:
                out.append((tag, text, el.get("form", "")))
            return
        for child in el:
            walk(child)

    walk(root)
    return out


def main() -> None:
    """Print tag agreement between postil and Temml over the corpus."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=0, help="list this many disagreeing rows")
    args = parser.parse_args()
    convert = check.load_converter("postil.math:latex_to_mathml")
    with open(SHARED / "math_corpus.tsv", encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(header, line.rstrip("\n").split("\t"), strict=True)) for line in f]
    with open(SHARED / "math_reference" / "temml.jsonl", encoding="utf-8") as f:
        refs = {rec["id"]: rec for rec in map(json.loads, f)}
    compared = agreeing = tokens = token_agree = 0
    prefix = collections.Counter[str]()
    diffs = collections.Counter[tuple[str, str, str]]()
    listed = []
    for row in rows:
        ref = refs.get(row["id"])
        try:
            got = kinds(ET.fromstring(convert(row["latex"], row["display"] == "1")))
            want = kinds(ET.fromstring(ref["mathml"]))
        except Exception:  # noqa: BLE001 - unsupported rows and unparsable references
            continue
        if [t for _, t, _ in got] != [t for _, t, _ in want]:
            continue
        compared += 1
        bad = [(g[0], w[0], g[1]) for g, w in zip(got, want, strict=True) if g[0] != w[0]]
        for (gt, text, gf), (_, _, wf) in zip(got, want, strict=True):
            if gt == "mo" and text not in FENCES:
                prefix["ours" if gf == "prefix" else "ours-not"] += wf == "prefix"
                prefix["ours-extra"] += gf == "prefix" and wf != "prefix"
        tokens += len(got)
        token_agree += len(got) - len(bad)
        agreeing += not bad
        diffs.update(bad)
        if bad:
            listed.append(f"{row['id']:22} {row['latex'][:60]:60} {bad[:3]}")
    print(f"rows with equal token texts: {compared}")
    print(f"  ... whose tags agree too:  {agreeing} = {100 * agreeing / compared:.1f}%")
    print(f"tokens: {token_agree}/{tokens} = {100 * token_agree / tokens:.2f}% same tag")
    print(
        f"prefix <mo> where Temml has form=prefix: {prefix['ours']} matched, "
        f"{prefix['ours-not']} missed; {prefix['ours-extra']} extra"
    )
    print("commonest disagreements (ours, Temml's, text):")
    for (ours, theirs, text), n in diffs.most_common(40):
        print(f"  {n:4d}  {ours:6} {theirs:6} {text}")
    for line in listed[: args.rows]:
        print(line)


if __name__ == "__main__":
    main()
