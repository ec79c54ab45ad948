"""The build cache: what a rebuild need not redo, behind one row interface.

- `store`: where rows live (`BuildCache`: `SqliteCache` in `.postil-cache/`, `MemoryCache`
  for the dev server, `NullCache` for `--no-cache`), the spare output tree and Jinja2's
  compiled templates;
- `keys`: what each cached value is a function of (`environment_stamp`, `markdown_key`,
  `PageKeys`);
- `rows`: row formats beyond a plain value (`RenderedRows`, `PostRow`);
- `manifest`: what a build wrote into its output directory (`Stamp`) and how an unchanged
  file is recognised.
"""

from postil.cache.keys import fingerprint
from postil.cache.store import CACHE_DIR, BuildCache, CacheError, MemoryCache, clean

__all__ = ["CACHE_DIR", "BuildCache", "CacheError", "MemoryCache", "clean", "fingerprint"]
