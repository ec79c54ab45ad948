"""Bibliographies: `.bib` files read into citable works, and how a citation reads.

- `entries.py`: the values (`Person`, `Work`, `BibFile`);
- `latex.py`: LaTeX in field values → Unicode text, math kept as TeX;
- `read.py`: one `.bib` file (BibTeX or BibLaTeX) → `BibFile` with its warnings;
- `load.py`: the stage: every `.bib` the site and its posts name, read once per build
  and kept in the build cache by the file's bytes;
- `style.py`: the built-in citation styles (author–year, numeric).

The Markdown side (`[@key]`, the reference list) is `postil.markdown.cite`; the "Cite this
post" block is `postil.citation`.
"""
