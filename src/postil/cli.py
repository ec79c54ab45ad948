"""The `postil` command: parse flags, call one library function, map errors to exit codes.

Exit codes: 0 success, 1 content errors (every one listed as `path:line:col: message`),
2 usage or configuration errors. Imports of the build machinery are lazy so that
`postil --version` starts fast.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from postil import __version__

if TYPE_CHECKING:
    from postil.parallel import Standby


def _positive(text: str) -> int:
    """Parse a whole number ≥ 1 for argparse (`--jobs 0` is a usage error, exit 2)."""
    from postil.yamlnodes import whole_number

    number = whole_number(text)
    if number is None or number < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number ≥ 1, not {text[:40]!r}")
    return number


def _port(text: str) -> int:
    """Parse a TCP port for argparse, 0 (any free port) to 65535: `--port 99999` is a usage
    error (exit 2), not the socket's OverflowError."""
    from postil.yamlnodes import whole_number

    number = whole_number(text)
    if number is None or not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port from 0 to 65535, not {text[:40]!r}")
    return number


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="postil", description="Build a technical blog from Markdown."
    )
    parser.add_argument("--version", action="version", version=f"postil {__version__}")
    parser.add_argument(
        "-C",
        "--root",
        type=Path,
        default=Path("."),
        help="run as if started in this site directory; relative paths are relative to it",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    init = sub.add_parser("init", help="start a new site in DIR (default: here)")
    init.add_argument("dir", nargs="?", type=Path, default=Path("."), help="the new site's folder")
    init.add_argument("--title", help="the site's title (default: from the folder's name)")
    init.add_argument("--author", help="the default author (default: git's user.name)")
    init.add_argument(
        "--base-url", help="where it will be published, e.g. https://user.github.io/repo/"
    )
    init.add_argument("--force", action="store_true", help="add only the files that are missing")
    build = sub.add_parser("build", help="render content/ into _site/")
    build.add_argument("--drafts", action="store_true", help="include draft posts")
    build.add_argument("--future", action="store_true", help="include posts dated in the future")
    build.add_argument("--base-url", help="override base_url from postil.yaml")
    build.add_argument("--out", type=Path, help="output directory (default: _site)")
    build.add_argument("--strict", action="store_true", help="treat warnings as errors")
    build.add_argument(
        "--no-cache", action="store_true", help="ignore and do not update .postil-cache/"
    )
    build.add_argument(
        "-j", "--jobs", type=_positive, help="processes for rendering (default: one per CPU)"
    )
    sub.add_parser("clean", help="delete the build cache (.postil-cache/) and _site/")
    check = sub.add_parser(
        "check", help="build without writing; list every error and warning (for CI)"
    )
    check.add_argument("--drafts", action="store_true", help="check draft posts too")
    check.add_argument("--future", action="store_true", help="check future posts too")
    check.add_argument("--base-url", help="override base_url from postil.yaml")
    check.add_argument("--strict", action="store_true", help="fail on warnings too")
    new = sub.add_parser("new", help="start a draft post: content/posts/<slug>.md")
    new.add_argument("title", help="the post's title, e.g. 'Attention, from the softmax up'")
    serve = sub.add_parser("serve", help="preview with live reload (never writes _site/)")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    serve.add_argument("--port", type=_port, default=8000, help="port (default: 8000; 0: any free)")
    serve.add_argument("--open", action="store_true", help="open the site in a web browser")
    serve.add_argument("--no-drafts", action="store_true", help="leave draft posts out")
    serve.add_argument("--future", action="store_true", help="include posts dated in the future")
    serve.add_argument("--poll", action="store_true", help="poll for changes (network drives)")
    return parser


def entry() -> None:
    """The `postil` command: run `main`, then exit at once with its code.

    `os._exit` skips the interpreter's teardown, which frees every object one by one: ≈ 50 ms
    after a build of 1,000 posts (warm build 0.47 s → 0.42 s wall, measured), memory the
    operating system takes back anyway. Nothing is lost: the build cache is closed and every
    output file written before `main` returns, and the standard streams are flushed here.
    Under a profiler, tracer or coverage tool (`python -m cProfile -m postil build`) it exits
    normally, so they can write their results.
    """
    code = main()
    if sys.getprofile() is not None or sys.gettrace() is not None:
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (`postil build | head`) or stream
            pass
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code (0, 1 content errors, 2 usage/config)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    import logging  # here, not at the top: `postil --version` never needs it

    handler = logging.StreamHandler(sys.stderr)  # warnings as `path:line:col: warning: …`
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger = logging.getLogger("postil")
    logger.addHandler(handler)
    logger.propagate = False
    from postil.errors import BuildFailed, PostilError, as_diagnostic, located

    try:
        return _run(args)
    except BuildFailed as e:
        for d in e.diagnostics:
            print(d.report(), file=sys.stderr)
        written = "" if args.command == "check" else "; nothing was written"
        print(f"error: {args.command} {e.message}{written}", file=sys.stderr)
        return e.exit_code
    except PostilError as e:
        shown = located(as_diagnostic(e), args.root.absolute()).report() if e.location else e
        print(f"error: {shown}", file=sys.stderr)
        return e.exit_code
    except OSError as e:  # the disk or the file system, not postil: say what, no traceback
        where = f": {e.filename}" if e.filename else ""
        print(f"error: {e.strerror or e}{where}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _say(line: str) -> None:
    """Print a result line; a reader that went away (`postil build | true`, a full disk)
    loses it, but the work it reports is done, so that is not an error."""
    try:
        print(line, flush=True)
    except OSError:
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _run(args: argparse.Namespace) -> int:
    from postil.errors import plural

    if args.command == "build":
        font_process = _font_process(args.root, not args.no_cache)
        from postil.build import BuildOptions, build

        out = None if args.out is None else (args.root / args.out).absolute()
        result = build(
            BuildOptions(
                root=args.root.absolute(),
                out_dir=out,
                drafts=args.drafts,
                future=args.future,
                base_url=args.base_url,
                strict=args.strict,
                cache=not args.no_cache,
                workers=args.jobs,
            ),
            font_process=font_process,
        )
        target = out or args.root / "_site"
        warned = f", {plural(len(result.warnings), 'warning')}" if result.warnings else ""
        for note in result.notes:  # before the summary, which stays the last line
            _say(note)
        _say(
            f"built {plural(result.posts, 'post')}, {plural(result.files, 'file')}"
            f" in {result.seconds:.2f} s → {target}{warned}"
        )
    elif args.command == "check":
        return _check(args)
    elif args.command == "init":
        return _init(args)
    elif args.command == "new":
        from postil.scaffold import new_post

        path = new_post(args.root.absolute(), args.title)
        print(f"wrote {path} (a draft: build with --drafts to see it)")
    elif args.command == "serve":
        return _serve(args)
    elif args.command == "clean":
        return _clean(args.root.absolute())
    return 0


def _font_process(root: Path, cache: bool) -> Standby[None] | None:
    """Start the math font's process (`postil.build._font_standby`'s) for a cold build,
    before the build's modules are imported; return it, or None for a build with a cache.

    A cold build (`--no-cache`, or no `.postil-cache/` yet) of a site with math must make
    the font, and fontTools takes 70-90 ms of CPU to import: the process started here
    imports it while this one imports postil (0.14 s more on one CPU, the other idle), not
    while the workers render posts. `postil.build.build` stops it if the site turns out to
    need no font. A build with a cache most likely has its font there: the build decides
    (`postil.build._font_standby`)."""
    from postil.cache.store import CACHE_DIR

    if cache and (root / CACHE_DIR).exists():
        return None
    from postil import mathfont, parallel

    return parallel.Standby(mathfont.import_font_tools)


def postil_command(root: Path, argv0: str | None = None) -> str:
    """Return how to run this postil from the folder `root`: `postil` when that name finds
    this very program on PATH, else the path it was started by, as it was typed (relative
    to `root` when typed relative: `../.venv/bin/postil`, as README's "Starting a new site"
    runs it from a virtualenv that is not activated), or this interpreter with `-m postil`.

    `argv0`: the program as started (default: `sys.argv[0]`)."""
    typed = Path(argv0 if argv0 is not None else sys.argv[0])
    if typed.name == "__main__.py":  # `python -m postil`
        return f"{sys.executable} -m postil"
    found = shutil.which("postil")
    if found and Path(found).resolve() == typed.absolute().resolve():
        return "postil"
    return str(typed) if typed.is_absolute() else os.path.relpath(typed.absolute(), root)


def _init(args: argparse.Namespace) -> int:
    from postil.scaffold import PLACEHOLDER_BASE_URL, SiteSettings, default_author, init_site

    root = (args.root / args.dir).absolute()
    title = args.title or root.name.replace("-", " ").replace("_", " ").strip().capitalize()
    settings = SiteSettings(
        title=title or "Notes",
        author=args.author or default_author(root),
        base_url=args.base_url or PLACEHOLDER_BASE_URL,
    )
    written = init_site(root, settings, force=args.force)
    for path in written:
        print(f"wrote {path.relative_to(root).as_posix()}")
    if not written:
        print(f"{root} has every starter file already; nothing written")
    here = "" if root == Path.cwd() else f"cd {args.root / args.dir} && "
    command = postil_command(root)
    print(f"next: {here}{command} serve   (then push to GitHub: README, 'Publishing')")
    if settings.base_url == PLACEHOLDER_BASE_URL:
        print("set base_url in postil.yaml before publishing anywhere but GitHub Pages")
    return 0


def _clean(root: Path) -> int:
    import shutil

    from postil.cache import CACHE_DIR, clean

    removed = [CACHE_DIR] if clean(root) else []
    if (root / "_site").is_dir():
        shutil.rmtree(root / "_site")
        removed.append("_site")
    print(f"removed {', '.join(removed)}" if removed else "nothing to clean")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from postil.config import load_config
    from postil.serve import DevServer, ServeOptions, is_loopback, serve

    load_config(args.root.absolute())  # a missing or broken postil.yaml stops here (exit 2)
    if not is_loopback(args.host):
        print(
            f"warning: {args.host} is not a loopback address: other machines can read your"
            " drafts, and the dev server is not built to face a network",
            file=sys.stderr,
        )
    import logging

    logging.getLogger("postil.serve").setLevel(logging.INFO)
    options = ServeOptions(
        args.root.absolute(),
        args.host,
        args.port,
        drafts=not args.no_drafts,
        future=args.future,
        poll=args.poll,
    )

    def ready(server: DevServer) -> None:
        print(f"serving {server.url} (Ctrl-C to stop)", flush=True)
        if args.open:
            import webbrowser

            webbrowser.open(server.url)

    try:
        serve(options, ready)
    except OSError as e:
        print(f"error: cannot serve on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    return 0


def _check(args: argparse.Namespace) -> int:
    """Build in memory (nothing written, not even the cache); warnings print as found, errors
    via BuildFailed."""
    from postil.build import BuildOptions, build
    from postil.errors import plural

    options = BuildOptions(
        root=args.root.absolute(),
        drafts=args.drafts,
        future=args.future,
        base_url=args.base_url,
        strict=args.strict,
        write=False,
        cache=False,
    )
    result = build(options)
    warnings = plural(len(result.warnings), "warning")
    print(f"checked {plural(result.posts, 'post')}: no errors, {warnings}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
