"""`postil serve`: the dev server (build into memory, watch, rebuild incrementally, reload).

See `postil.serve.app` for how the parts fit: `watcher` (file events to batches of changes),
`engine` (the build's own pipeline, `postil.build.run`, into memory through `memory`'s
writer), `hub` and `server` (HTTP, events, the error overlay), `livereload.js` (the
browser side).
"""

from postil.serve.app import DevServer, ServeOptions, is_loopback, serve

__all__ = ["DevServer", "ServeOptions", "is_loopback", "serve"]
