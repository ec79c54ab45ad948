"""The dev server's event handling: editor saves become one change, bursts become one build."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from watchdog.events import (
    DirCreatedEvent,
    DirModifiedEvent,
    DirMovedEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
)

from postil.serve.watcher import (
    ChangeBatcher,
    ChangeSet,
    SiteLayout,
    SiteWatcher,
    classify_event,
    is_temp_name,
)


@pytest.fixture
def layout(tmp_path: Path) -> SiteLayout:
    for d in ("content/posts", "templates/widgets", "static/css"):
        (tmp_path / d).mkdir(parents=True)
    (tmp_path / "postil.yaml").write_text("title: T\nauthor: A\nbase_url: https://e.org/\n")
    return SiteLayout(tmp_path, (tmp_path / "templates",), (tmp_path / "static",))


@pytest.fixture
def no_leaked_threads():
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 2
    while set(threading.enumerate()) - before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert set(threading.enumerate()) - before == set()


def changes_of(layout: SiteLayout, *events) -> ChangeSet:
    total = ChangeSet()
    for event in events:
        total.merge(classify_event(layout, event))
    return total


@pytest.mark.parametrize(
    "name",
    [".post.md.swp", ".post.md.swx", "post.md~", "4913", ".#post.md", "#post.md#",
     "post.md.tmp", "post.md___jb_tmp___", ".goutputstream-AB12CD", "sedAb12Cd", "x.md.part"],
)  # fmt: skip
def test_editor_temp_and_swap_names_are_recognised(name: str) -> None:
    assert is_temp_name(name)


@pytest.mark.parametrize("name", ["post.md", "index.md", "base.css", "post.html", "4913.md"])
def test_real_source_names_are_not_temp_names(name: str) -> None:
    assert not is_temp_name(name)


def test_an_atomic_rename_save_is_one_change_of_the_target(layout: SiteLayout) -> None:
    post = layout.root / "content/posts/a.md"
    tmp = layout.root / "content/posts/a.md.tmp"
    changes = changes_of(
        layout,
        FileCreatedEvent(str(tmp)),
        FileModifiedEvent(str(tmp)),
        FileClosedEvent(str(tmp)),
        FileMovedEvent(str(tmp), str(post)),
    )
    assert changes.content == {post} and changes.settled == {post}
    assert not (changes.templates or changes.static or changes.config or changes.rescan)


def test_every_entry_made_removed_or_renamed_under_content_is_an_entry(
    layout: SiteLayout,
) -> None:
    """Temp files, other files and hidden ones too: `walk_content` keeps a directory's
    listing only when these entries are what it lists (issue 20)."""
    posts = layout.root / "content/posts"
    post, tmp, image, hidden = (posts / n for n in ("a.md", "a.md.tmp", "a.png", ".a.md.swp"))
    save = [FileCreatedEvent(str(tmp)), FileModifiedEvent(str(tmp)), FileClosedEvent(str(tmp))]
    changes = changes_of(layout, *save, FileMovedEvent(str(tmp), str(post)))
    assert changes.entries == {tmp, post} and changes.content == {post}
    assert changes_of(layout, FileCreatedEvent(str(image))).entries == {image}
    assert changes_of(layout, FileCreatedEvent(str(image))).content == set()
    assert changes_of(layout, FileDeletedEvent(str(hidden))).entries == {hidden}
    # a write in place, a close, and files outside content/ change no listing of it
    in_place = [FileModifiedEvent(str(post)), FileClosedEvent(str(post))]
    assert changes_of(layout, *in_place).entries == set()
    template = layout.root / "templates/post.html"
    assert changes_of(layout, FileCreatedEvent(str(template))).entries == set()
    # a directory is not an entry: its events ask for a rescan
    moved = changes_of(layout, DirMovedEvent(str(posts / "x"), str(posts / "y")))
    assert moved.rescan and moved.entries == set()


def test_entries_alone_wait_for_the_next_build_and_are_handed_to_it(no_leaked_threads) -> None:
    image, post = Path("/site/content/posts/a.png"), Path("/site/content/posts/a.md")
    batches: list[ChangeSet] = []
    batcher = ChangeBatcher(batches.append, debounce=0.01)
    batcher.start()
    try:
        batcher.add(ChangeSet(entries={image}))
        assert not batcher.busy  # no source changed: no build
        time.sleep(0.05)
        assert batches == []
        batcher.add(ChangeSet(content={post}, entries={post}))
        deadline = time.monotonic() + 5
        while batcher.busy and time.monotonic() < deadline:
            time.sleep(0.005)
    finally:
        batcher.stop()
    assert len(batches) == 1 and batches[0].entries == {image, post}


def test_a_vim_save_with_backup_and_probe_file_is_one_change(layout: SiteLayout) -> None:
    post = layout.root / "content/posts/a.md"
    probe = layout.root / "content/posts/4913"
    backup = layout.root / "content/posts/a.md~"
    changes = changes_of(
        layout,
        FileCreatedEvent(str(probe)),
        FileDeletedEvent(str(probe)),
        FileMovedEvent(str(post), str(backup)),
        FileCreatedEvent(str(post)),
        FileModifiedEvent(str(post)),
        FileClosedEvent(str(post)),
        FileDeletedEvent(str(backup)),
    )
    assert changes.content == {post} and changes.settled == {post}


def test_a_post_moved_away_stays_unsettled_until_rewritten(layout: SiteLayout) -> None:
    post = layout.root / "content/posts/a.md"
    moved_away = changes_of(layout, FileMovedEvent(str(post), str(post) + "~"))
    rewritten = changes_of(layout, FileMovedEvent(str(post), str(post) + "~"),
                           FileModifiedEvent(str(post)), FileClosedEvent(str(post)))  # fmt: skip
    assert moved_away.content == {post} and moved_away.settled == set()
    assert rewritten.settled == {post}


def test_swap_file_churn_alone_changes_nothing(layout: SiteLayout) -> None:
    swap = str(layout.root / "content/posts/.a.md.swp")
    changes = changes_of(layout, FileCreatedEvent(swap), FileModifiedEvent(swap))
    assert not changes


def test_a_deleted_post_and_a_renamed_post_count_both_paths(layout: SiteLayout) -> None:
    posts = layout.root / "content/posts"
    deleted = changes_of(layout, FileDeletedEvent(str(posts / "gone.md")))
    moved = changes_of(layout, FileMovedEvent(str(posts / "old.md"), str(posts / "new.md")))
    assert deleted.content == {posts / "gone.md"}
    assert moved.content == {posts / "old.md", posts / "new.md"}


def test_each_kind_of_source_lands_in_its_own_bucket(layout: SiteLayout) -> None:
    root = layout.root
    changes = changes_of(
        layout,
        FileModifiedEvent(str(root / "templates/post.html")),
        FileModifiedEvent(str(root / "static/css/base.css")),
        FileModifiedEvent(str(root / "postil.yaml")),
        FileModifiedEvent(str(root / "content/posts/notes.txt")),
        FileModifiedEvent(str(root / "_site/index.html")),
    )
    assert changes.templates == {root / "templates/post.html"}
    assert changes.static == {root / "static/css/base.css"}
    assert changes.assets == {root / "content/posts/notes.txt"}  # published as it is
    assert changes.config and not changes.content
    windows = root / "content/posts/Windows.MD"  # a source, as discovery reads it
    assert changes_of(layout, FileModifiedEvent(str(windows))).content == {windows}


def test_a_saved_content_file_calls_for_a_build_and_its_temp_files_do_not(
    layout: SiteLayout,
) -> None:
    bundle = layout.root / "content/posts/bundle"
    saved = changes_of(layout, FileModifiedEvent(str(bundle / "plot.png")))
    assert saved and saved.assets == {bundle / "plot.png"}
    for name in (".plot.png.swp", "plot.png~", "plot.png.tmp", "index.md.aBcDeF"):
        assert not changes_of(layout, FileModifiedEvent(str(bundle / name)))
    qt_save = changes_of(  # QSaveFile: `index.md.XXXXXX` written, then renamed onto it
        layout,
        FileCreatedEvent(str(bundle / "index.md.aBcDeF")),
        FileClosedEvent(str(bundle / "index.md.aBcDeF")),
        FileMovedEvent(str(bundle / "index.md.aBcDeF"), str(bundle / "index.md")),
    )
    assert qt_save.content == {bundle / "index.md"} and not qt_save.assets


@pytest.mark.parametrize("rel", ["refs.bib", "content/posts/bundle/refs.bib"])
def test_a_changed_bibliography_triggers_a_build(layout: SiteLayout, rel: str) -> None:
    assert changes_of(layout, FileModifiedEvent(str(layout.root / rel))).config


def test_directory_moves_under_content_ask_for_a_rescan(layout: SiteLayout) -> None:
    posts = layout.root / "content/posts"
    moved = changes_of(layout, DirMovedEvent(str(posts / "bundle"), str(posts / "renamed")))
    created = changes_of(layout, DirCreatedEvent(str(posts / "fresh")))
    touched = changes_of(layout, DirModifiedEvent(str(posts)))
    assert moved.rescan and created.rescan
    assert not touched


def test_the_batcher_builds_a_burst_once_after_the_quiet_period(no_leaked_threads) -> None:
    builds: list[tuple[float, ChangeSet]] = []
    done = threading.Event()

    def build(batch: ChangeSet) -> None:
        builds.append((time.monotonic(), batch))
        done.set()

    batcher = ChangeBatcher(build, debounce=0.1)
    batcher.start()
    try:
        for name in ("a.md", "b.md", "c.md"):
            last = time.monotonic()  # before `add`, which starts the quiet period
            batcher.add(ChangeSet(content={Path(name)}))
            time.sleep(0.02)
        assert done.wait(2)
        time.sleep(0.15)
    finally:
        batcher.stop()
    assert len(builds) == 1
    started, batch = builds[0]
    assert batch.content == {Path("a.md"), Path("b.md"), Path("c.md")}
    assert started - last >= 0.1


def test_changes_during_a_build_coalesce_into_one_next_build(no_leaked_threads) -> None:
    batches: list[ChangeSet] = []
    first_running, release, second_done = threading.Event(), threading.Event(), threading.Event()

    def build(batch: ChangeSet) -> None:
        batches.append(batch)
        if len(batches) == 1:
            first_running.set()
            release.wait(2)
        else:
            second_done.set()

    batcher = ChangeBatcher(build, debounce=0.01)
    batcher.start()
    try:
        batcher.add(ChangeSet(content={Path("a.md")}))
        assert first_running.wait(2)
        for name in ("b.md", "c.md", "d.md"):
            batcher.add(ChangeSet(content={Path(name)}))
        assert batcher.busy
        release.set()
        assert second_done.wait(2)
        time.sleep(0.05)
    finally:
        batcher.stop()
    assert [b.content for b in batches] == [{Path("a.md")}, {Path(n + ".md") for n in "bcd"}]
    assert not batcher.busy


def test_a_settled_save_is_built_without_the_full_debounce(no_leaked_threads) -> None:
    built: list[float] = []
    done = threading.Event()
    batcher = ChangeBatcher(lambda b: built.append(time.monotonic()), 0.5,
                            after=lambda _: done.set(), settle=0.01)  # fmt: skip
    batcher.start()
    try:
        path = Path("a.md")
        added = time.monotonic()
        batcher.add(ChangeSet(content={path}, settled={path}))
        assert done.wait(2)
    finally:
        batcher.stop()
    assert 0.01 <= built[0] - added < 0.3


def closed_changes(layout: SiteLayout, *events) -> ChangeSet:
    """Merge the changes of `events` as a watcher that reports closes (inotify) sees them."""
    total = ChangeSet()
    for event in events:
        total.merge(classify_event(layout, event, closes=True))
    return total


def test_a_save_closed_or_renamed_into_place_is_closed_where_closes_are_reported(
    layout: SiteLayout,
) -> None:
    post = layout.root / "content/posts/a.md"
    tmp = layout.root / "content/posts/a.md.tmp"
    in_place = (FileModifiedEvent(str(post)), FileClosedEvent(str(post)))
    renamed = (FileCreatedEvent(str(tmp)), FileClosedEvent(str(tmp)),
               FileMovedEvent(str(tmp), str(post)))  # fmt: skip
    assert closed_changes(layout, *in_place).closed == {post}
    assert closed_changes(layout, *renamed).closed == {post}
    # Polling reports no closes: a rename is settled, never closed (its writer is unseen).
    assert changes_of(layout, *renamed).settled == {post}
    assert changes_of(layout, *renamed).closed == set()


def test_a_file_written_again_after_its_close_is_no_longer_closed(layout: SiteLayout) -> None:
    post = layout.root / "content/posts/a.md"
    events = (FileModifiedEvent(str(post)), FileClosedEvent(str(post)))
    changes = closed_changes(layout, *events, FileModifiedEvent(str(post)))
    assert changes.closed == set() and changes.writing == {post}


def test_a_batch_waits_no_quiet_only_when_every_file_is_closed(layout: SiteLayout) -> None:
    a, b = (layout.root / f"content/posts/{n}.md" for n in "ab")
    batcher: ChangeBatcher[None] = ChangeBatcher(lambda batch: None, debounce=0.5, settle=0.1)

    def quiet_needed(*changes: ChangeSet) -> float:
        batcher._pending = ChangeSet()
        for c in changes:
            batcher._pending.merge(c)
        return batcher._quiet_needed()

    assert quiet_needed(closed_changes(layout, FileClosedEvent(str(a)))) == 0.0
    assert quiet_needed(changes_of(layout, FileClosedEvent(str(a)))) == 0.1  # settled only
    assert quiet_needed(closed_changes(layout, FileModifiedEvent(str(a)))) == 0.5
    half = closed_changes(layout, FileClosedEvent(str(a)), FileModifiedEvent(str(b)))
    assert quiet_needed(half) == 0.5  # b is still being written
    closed = closed_changes(layout, FileClosedEvent(str(a)))
    assert quiet_needed(closed, ChangeSet(config=True)) == 0.5


def test_a_half_written_file_is_not_built_until_its_writer_closes_it(
    layout: SiteLayout, no_leaked_threads
) -> None:
    """With closes reported, an open file holds its batch: a build never reads half a save,
    although a closed save is built without waiting for quiet."""
    post = layout.root / "content/posts/a.md"
    read: list[str] = []
    built = threading.Event()
    batcher = ChangeBatcher(lambda b: read.append(post.read_text()), 0.02,
                            after=lambda _: built.set())  # fmt: skip
    batcher.start()
    try:
        with open(post, "w", encoding="utf-8") as f:
            f.write("first half, ")
            f.flush()
            batcher.add(closed_changes(layout, FileCreatedEvent(str(post))))
            batcher.add(closed_changes(layout, FileModifiedEvent(str(post))))
            assert not built.wait(0.3)  # six debounces: only the open file holds it
            f.write("second half")
        batcher.add(closed_changes(layout, FileClosedEvent(str(post))))
        assert built.wait(5)
    finally:
        batcher.stop()
    assert read == ["first half, second half"]


def test_a_closed_file_that_changed_since_its_event_is_looked_at_again(tmp_path) -> None:
    """A write whose event has not arrived yet (the file changed after its close was
    reported) makes a closed batch wait `settle` and look again before it is built."""
    path = tmp_path / "a.md"
    path.write_text("first")
    looks: list[bool] = []
    built = threading.Event()
    batcher: ChangeBatcher[None] = ChangeBatcher(lambda b: None, 0.5, after=lambda _: built.set())
    held_still = batcher._held_still

    def counted() -> bool:
        looks.append(held_still())
        return looks[-1]

    batcher._held_still = counted  # type: ignore[method-assign]
    batcher.add(ChangeSet(content={path}, settled={path}, closed={path}))
    path.write_text("second, longer")  # a write the events did not show (yet)
    batcher.start()
    try:
        assert built.wait(5)
    finally:
        batcher.stop()
    assert looks == [False, True]


def test_the_batcher_is_busy_from_a_change_until_its_build_ends(no_leaked_threads) -> None:
    seen: list[bool] = []
    finished = threading.Event()

    def build(batch: ChangeSet) -> None:
        seen.append(batcher.busy)

    batcher = ChangeBatcher(build, 0.05, after=lambda _: finished.set())
    batcher.start()
    try:
        assert not batcher.busy
        batcher.add(ChangeSet(config=True))
        assert batcher.busy
        assert finished.wait(2)
    finally:
        batcher.stop()
    assert seen == [True]
    assert not batcher.busy


def test_a_real_atomic_save_reaches_the_batcher_as_one_change(
    layout: SiteLayout, no_leaked_threads
) -> None:
    post = layout.root / "content/posts/a.md"
    post.write_text("---\ntitle: A\n---\nold\n")
    batches: list[ChangeSet] = []
    built = threading.Event()
    batcher = ChangeBatcher(lambda b: batches.append(b), 0.05, after=lambda _: built.set())
    watcher = SiteWatcher(layout, batcher)
    batcher.start()
    watcher.start()
    try:
        tmp = post.with_name("a.md.tmp")
        tmp.write_text("---\ntitle: A\n---\nnew\n")
        tmp.replace(post)
        assert built.wait(5)
        time.sleep(0.1)
    finally:
        watcher.stop()
        batcher.stop()
    assert [b.content for b in batches] == [{post}]
    assert batches[0].closed == {post}  # renamed into place: built without a settle wait
    assert batches[0].entries == {tmp, post}  # what content/posts/'s listing may have changed


def test_a_real_in_place_save_reaches_the_batcher_closed(
    layout: SiteLayout, no_leaked_threads
) -> None:
    post = layout.root / "content/posts/a.md"
    post.write_text("---\ntitle: A\n---\nold\n")
    batches: list[ChangeSet] = []
    built = threading.Event()
    batcher = ChangeBatcher(lambda b: batches.append(b), 0.05, after=lambda _: built.set())
    watcher = SiteWatcher(layout, batcher)
    batcher.start()
    watcher.start()
    try:
        post.write_text("---\ntitle: A\n---\nnew\n")
        assert built.wait(5)
        time.sleep(0.1)
    finally:
        watcher.stop()
        batcher.stop()
    assert [(b.content, b.closed, b.writing) for b in batches] == [({post}, {post}, set())]


def test_a_file_still_since_its_change_arrived_is_built_at_the_first_look(tmp_path) -> None:
    """The size and mtime a file must keep are taken when its change arrives, so a settled
    save waits `SETTLE_SECONDS` once (not once to look and once to look again)."""
    path = tmp_path / "a.md"
    path.write_text("first")
    batcher: ChangeBatcher[None] = ChangeBatcher(lambda batch: None)
    batcher.add(ChangeSet(content={path}, settled={path}))
    assert batcher._held_still()
    path.write_text("second, longer")  # a writer the events did not show
    assert not batcher._held_still()
    assert batcher._held_still()


def test_an_inotify_queue_overflow_asks_for_a_rescan(layout: SiteLayout, no_leaked_threads):
    """The kernel dropped events: which sources changed is unknown, so every source must be
    examined again (`DevBuild` trusts the change sets only while the watcher misses none)."""
    import logging

    from postil.serve.watcher import INOTIFY_LOGGER

    batches: list[ChangeSet] = []
    built = threading.Event()
    batcher = ChangeBatcher(lambda b: batches.append(b), 0.05, after=lambda _: built.set())
    watcher = SiteWatcher(layout, batcher)
    batcher.start()
    watcher.start()
    try:
        assert watcher.complete  # inotify on Linux: every write is an event
        logging.getLogger(INOTIFY_LOGGER).warning("Inotify queue overflowed; events were lost")
        assert built.wait(5)
    finally:
        watcher.stop()
        batcher.stop()
    assert [b.rescan for b in batches] == [True]
    logging.getLogger(INOTIFY_LOGGER).warning("Inotify queue overflowed; after the stop")
    assert len(batches) == 1  # the filter left with the watcher


def test_a_polling_watcher_is_not_complete(layout: SiteLayout) -> None:
    batcher: ChangeBatcher[None] = ChangeBatcher(lambda b: None, 0.05)
    assert not SiteWatcher(layout, batcher, poll=True).complete


def test_a_macros_file_postil_yaml_names_is_watched_where_it_is_and_is_a_config_change(tmp_path):
    """`math: macros_from:` may name the old theme's MathJax include outside every watched
    folder: its folder is watched (not deeply), and saving it rebuilds as postil.yaml does."""
    (tmp_path / "content/posts").mkdir(parents=True)
    (tmp_path / "_includes").mkdir()
    (tmp_path / "_includes/mathjax.html").write_text("<div>$\\newcommand{\\R}{x}$</div>\n")
    (tmp_path / "_includes/footer.html").write_text("<footer></footer>\n")
    (tmp_path / "postil.yaml").write_text(
        "title: T\nauthor: A\nbase_url: https://e.org/\n"
        "math:\n  macros_from: _includes/mathjax.html\n"
    )
    layout = SiteLayout.of(tmp_path)
    include = tmp_path.absolute() / "_includes"
    assert layout.config_files == frozenset({include / "mathjax.html"})
    assert (include, False) in layout.watched()
    assert changes_of(layout, FileModifiedEvent(str(include / "mathjax.html"))).config
    assert not changes_of(layout, FileModifiedEvent(str(include / "footer.html"))).config
    # a postil.yaml that cannot be read names no file; the build reports why
    (tmp_path / "postil.yaml").write_text("title: [\n")
    assert SiteLayout.of(tmp_path).config_files == frozenset()


def test_a_macros_file_beside_the_site_is_watched_and_its_change_rebuilds(tmp_path):
    """`macros_from: ../preamble.tex` (a book's preamble shared by its folders) is read by
    the build; the watch kept the `..` in its path, so saving the file rebuilt nothing."""
    site = tmp_path / "book"
    (site / "content/posts").mkdir(parents=True)
    (tmp_path / "preamble.tex").write_text("\\newcommand{\\R}{\\mathbb{R}}\n")
    (tmp_path / "notes.txt").write_text("other\n")
    (site / "postil.yaml").write_text(
        "title: T\nauthor: A\nbase_url: https://e.org/\nmath:\n  macros_from: ../preamble.tex\n"
    )
    layout = SiteLayout.of(site)
    beside = tmp_path.absolute()
    assert layout.config_files == frozenset({beside / "preamble.tex"})
    assert (beside, False) in layout.watched()
    assert changes_of(layout, FileModifiedEvent(str(beside / "preamble.tex"))).config
    assert not changes_of(layout, FileModifiedEvent(str(beside / "notes.txt"))).config
