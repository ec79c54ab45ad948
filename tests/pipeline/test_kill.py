"""Output safety: a build killed at any moment leaves the previous `_site/` complete and
unchanged; builds are byte-identical across hash seeds and working directories; nothing is
ever written outside the output directory, whatever the slug, path or symlink.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.build import build_site
from support.killsite import tree_digest, write_kill_site

from postil.build import BuildOptions, build
from postil.errors import BuildFailed

POSTS = 300
KILL_AFTER_MS = (10, 50, 100, 200, 400, 800)
KILL_AT_FRACTION = (0.5, 0.8, 0.9, 0.95, 0.98, 1.0)
"""Kill points late in the build, as fractions of a measured full build (1.0: around the
atomic swap, where the build may just finish)."""


def postil(root: Path, *args: str, **kwargs: object) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "postil", "-C", str(root), *args]
    return subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        **kwargs,  # type: ignore[call-overload]
    )


@pytest.fixture(scope="module")
def big_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_kill_site(tmp_path_factory.mktemp("kill") / "site", POSTS)
    done = build_site(root, root / "_site", "--no-cache", timeout=300)
    assert done.returncode == 0, done.stderr
    return root


@pytest.fixture(scope="module")
def build_ms(big_site: Path) -> float:
    """Return the wall time of a full build of `big_site` in milliseconds."""
    started = time.perf_counter()
    postil(big_site, "build", "--no-cache").wait(timeout=300)
    return (time.perf_counter() - started) * 1000


@pytest.mark.parametrize("fraction", KILL_AT_FRACTION)
@pytest.mark.slow
def test_a_build_killed_late_leaves_the_old_or_the_new_site_never_a_mix(
    big_site, build_ms, fraction
):
    old = tree_digest(big_site / "_site")
    write_kill_site(big_site, POSTS, marker=f"late-{fraction}")
    process = postil(big_site, "build", "--no-cache")
    time.sleep(build_ms * fraction / 1000)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    now = tree_digest(big_site / "_site")
    print(f"killed at {fraction:.0%} of {build_ms:.0f} ms: exit {process.returncode}")
    if now != old:  # the swap happened: every page is from the new build
        pages = [p for p in (big_site / "_site/posts").glob("*/index.html")]
        assert len(pages) == POSTS
        assert all(f"late-{fraction}" in p.read_text() for p in pages)
    assert sorted(p.name for p in big_site.iterdir() if p.name.startswith("_site")) == ["_site"]
    print("left beside _site:", sorted(p.name for p in big_site.iterdir() if p.name != "_site"))


@pytest.mark.parametrize("after_ms", KILL_AFTER_MS)
@pytest.mark.slow
def test_a_build_killed_mid_way_leaves_the_previous_site_complete_and_unchanged(big_site, after_ms):
    before = tree_digest(big_site / "_site")
    write_kill_site(big_site, POSTS, marker=f"changed-{after_ms}")
    process = postil(big_site, "build", "--no-cache")
    time.sleep(after_ms / 1000)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    after = tree_digest(big_site / "_site")
    print(f"killed after {after_ms} ms: exit {process.returncode}, {len(after)} files")
    # No half-built directory is left where a reader would look.
    assert sorted(p.name for p in big_site.iterdir() if p.name.startswith("_site")) == ["_site"]
    # The next build succeeds and replaces the site as a whole.
    rebuilt = build_site(big_site, big_site / "_site", "--no-cache", timeout=300)
    assert rebuilt.returncode == 0, rebuilt.stderr
    page = (big_site / "_site/posts/post-0000/index.html").read_text()
    assert f"changed-{after_ms}" in page
    # Killed before the swap: the previous site, unchanged. Killed after it (the process had
    # not exited yet) or not killed at all: the whole new site. Never anything in between.
    assert after in (before, tree_digest(big_site / "_site"))
    if process.returncode != 0 and after != before:
        print("the kill came after the swap")


@pytest.mark.slow
def test_a_cached_build_killed_mid_way_leaves_the_site_and_a_usable_cache(tmp_path):
    root = write_kill_site(tmp_path / "site", 120)
    assert (
        subprocess.run(
            [sys.executable, "-m", "postil", "-C", str(root), "build"], capture_output=True
        ).returncode
        == 0
    )
    before = tree_digest(root / "_site")
    for after_ms in (30, 120, 300):
        write_kill_site(root, 120, marker=f"m{after_ms}")
        process = postil(root, "build")
        time.sleep(after_ms / 1000)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        if process.returncode != 0:
            assert tree_digest(root / "_site") == before
        before = tree_digest(root / "_site")
    done = subprocess.run(
        [sys.executable, "-m", "postil", "-C", str(root), "build"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "m300" in (root / "_site/posts/post-0000/index.html").read_text()


@pytest.mark.slow
def test_builds_are_byte_identical_across_hash_seeds_and_working_directories(tmp_path):
    root = write_kill_site(tmp_path / "site", 12)
    outputs = []
    for seed, cwd in (("0", root), ("1", tmp_path), ("12345", Path("/"))):
        out = tmp_path / f"out-{seed}"
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run(
            [sys.executable, "-m", "postil", "-C", str(root), "build", "--no-cache"]
            + ["--out", str(out)],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        outputs.append(tree_digest(out))
    assert outputs[0] == outputs[1] == outputs[2]


# --- nothing escapes the output directory ---------------------------------------------------


def escape_site(tmp_path: Path, files: dict[str, str]) -> tuple[Path, set[str]]:
    root = tmp_path / "deep/er/site"
    (root / "content/posts").mkdir(parents=True)
    (root / "postil.yaml").write_text("title: E\nauthor: A\nbase_url: https://x.org/\n")
    for rel, text in files.items():
        (root / "content" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "content" / rel).write_text(text)
    outside = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")}
    return root, outside


@pytest.mark.parametrize(
    "slug",
    ["../../x", "/etc/passwd", "..", "a/../../b", "C:\\\\x", "%2e%2e/x", "~/x", "\\u0000x"],
)
def test_a_crafted_slug_never_writes_outside_the_output_directory(tmp_path, slug):
    text = f'---\ntitle: T\nslug: "{slug}"\n---\nx\n'
    root, before = escape_site(tmp_path, {"posts/p.md": text, "../../../y.md": text})
    try:
        build(BuildOptions(root=root, cache=False))
    except BuildFailed as failed:
        assert all(d.location.path.startswith("content/") for d in failed.diagnostics)
    created = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")} - before
    assert all(c.startswith("deep/er/site/_site") for c in created), sorted(created)
    for page in (root / "_site").rglob("index.html"):
        assert page.resolve().is_relative_to((root / "_site").resolve())


def test_pages_in_nested_and_dotted_directories_stay_inside_the_output(tmp_path):
    root, before = escape_site(
        tmp_path,
        {"../..sneaky.md": "---\ntitle: S\n---\nx\n", "a/../b/c.md": "---\ntitle: C\n---\nx\n"},
    )
    build(BuildOptions(root=root, cache=False))
    created = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")} - before
    assert all(c.startswith("deep/er/site/_site") for c in created), sorted(created)
    assert (root / "_site/b/c/index.html").is_file()


def test_symlinks_in_content_pointing_outside_are_refused_or_not_followed(tmp_path):
    secret = tmp_path / "secret.md"
    secret.write_text("---\ntitle: Secret\n---\nprivate key\n")
    (tmp_path / "outside-dir").mkdir()
    (tmp_path / "outside-dir/leak.md").write_text("---\ntitle: Leak\n---\nleak\n")
    root, _ = escape_site(tmp_path, {"posts/ok.md": "---\ntitle: Ok\n---\nx\n"})
    (root / "content/posts/link.md").symlink_to(secret)
    (root / "content/posts/dir").symlink_to(tmp_path / "outside-dir")
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(root=root, cache=False))
    messages = sorted(str(d) for d in failed.value.diagnostics)
    assert messages == [
        "content/posts/dir: symlink points outside content/; remove it",
        "content/posts/link.md: symlink points outside content/; remove it",
    ]
    assert not (root / "_site").exists()


def test_a_symlink_inside_content_is_followed(tmp_path):
    root, _ = escape_site(tmp_path, {"posts/real.md": "---\ntitle: Real\n---\nx\n"})
    (root / "content/about.md").symlink_to(root / "content/posts/real.md")
    build(BuildOptions(root=root, cache=False))
    assert (root / "_site/about/index.html").is_file()


def test_an_output_directory_that_is_a_symlink_or_a_file_is_refused(tmp_path):
    root, _ = escape_site(tmp_path, {"posts/p.md": "---\ntitle: P\n---\nx\n"})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("keep")
    (root / "_site").symlink_to(elsewhere)
    with pytest.raises(Exception) as error:
        build(BuildOptions(root=root, cache=False))
    assert "not a directory" in str(error.value)
    assert sorted(p.name for p in elsewhere.iterdir()) == ["keep.txt"]


@pytest.mark.slow
def test_the_next_build_removes_what_a_killed_build_left_beside_the_site(tmp_path):
    root = write_kill_site(tmp_path / "site", 150)
    subprocess.run([sys.executable, "-m", "postil", "-C", str(root), "build"], check=True)
    write_kill_site(root, 150, marker="again")
    process = postil(root, "build", "--no-cache")
    deadline = time.monotonic() + 60
    while not list(root.glob("._site.new-*")) and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    subprocess.run([sys.executable, "-m", "postil", "-C", str(root), "build"], check=True)
    assert sorted(p.name for p in root.iterdir()) == [
        ".postil-cache",
        "_site",
        "content",
        "postil.yaml",
    ]


def _children(pid: int) -> set[int]:
    """Return the pids whose parent is `pid` (from /proc, Linux)."""
    found = set()
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(
                line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line
            )
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(pid):
            found.add(int(status.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
@pytest.mark.slow
def test_killing_a_parallel_build_kills_its_worker_processes(tmp_path):
    root = write_kill_site(tmp_path / "site", 300)
    process = postil(root, "build", "--no-cache", "-j", "2")
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while len(workers) < 2 and time.monotonic() < deadline and process.poll() is None:
        workers = _children(process.pid)
        time.sleep(0.02)
    assert len(workers) >= 2, "the build never started its workers"
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in workers), "workers outlived the killed build"
