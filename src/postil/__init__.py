"""postil: a static site generator for technical blog posts.

Markdown with LaTeX math, footnotes as sidenotes, highlighted code and small interactive
figures becomes a static site with MathML rendered at build time.
"""

__version__ = "0.1.0"
