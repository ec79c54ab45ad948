"""Reading content: discovering source files, parsing front matter, making posts."""

from postil.content.discover import discover

__all__ = ["discover"]
