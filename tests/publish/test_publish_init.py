"""`postil init`: the site it writes builds, it never overwrites, and the GitHub Pages
workflow it writes is valid and its steps, run in order in a fresh virtualenv, deploy."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from lxml import html as lxml_html
from support.package import fresh_venv, run_steps, venv_env

from postil import __version__
from postil.build import BuildOptions, build
from postil.scaffold import STARTER_FILES, SiteSettings, init_site

SETTINGS = SiteSettings("Ada's notes", "Ada Lovelace", "https://ada.github.io/notes/", "2026-01-02")
PAGES_URL = "https://ada.github.io/notes"  # actions/configure-pages' base_url: no final "/"


def init(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "postil", "-C", str(root), "init", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def read_workflow(root: Path) -> dict:
    # BaseLoader: PyYAML would read the key `on` as True (YAML 1.1).
    text = (root / ".github/workflows/pages.yml").read_text(encoding="utf-8")
    return yaml.load(text, Loader=yaml.BaseLoader)


def test_init_writes_every_starter_file_with_the_settings(tmp_path):
    written = init_site(tmp_path / "site", SETTINGS)
    assert [p.relative_to(tmp_path / "site").as_posix() for p in written] == [
        rel for rel, _ in STARTER_FILES
    ]
    config = yaml.safe_load((tmp_path / "site/postil.yaml").read_text())
    assert (config["title"], config["author"]) == ("Ada's notes", "Ada Lovelace")
    assert config["base_url"] == "https://ada.github.io/notes/"
    requirements = (tmp_path / "site/requirements.txt").read_text().splitlines()
    assert f"postil[search]=={__version__}" in requirements
    ignored = (tmp_path / "site/.gitignore").read_text().splitlines()
    assert {"_site/", ".postil-cache/"} <= set(ignored)


def test_the_new_site_builds_strict_with_math_notes_code_and_a_figure(tmp_path):
    root = tmp_path / "site"
    init_site(root, SETTINGS)
    result = build(BuildOptions(root=root, strict=True, cache=False))
    assert result.posts == 1 and result.warnings == ()
    doc = lxml_html.fromstring((root / "_site/posts/welcome/index.html").read_bytes())
    assert doc.xpath("//math[@display='block']//annotation[contains(., 'softmax')]")
    assert len(doc.xpath("//*[contains(@class, 'sidenote')]")) >= 2
    assert doc.xpath("//figure//img[@src='/notes/posts/welcome/softmax.svg']")
    assert doc.xpath("//*[contains(., 'softmax.py')]/following::pre")
    assert (root / "_site/posts/welcome/softmax.svg").is_file()
    assert (root / "_site/about/index.html").is_file()


def test_the_placeholder_base_url_is_a_warning_at_its_line(tmp_path):
    done = init(tmp_path / "blog", "--author", "Ada")
    assert done.returncode == 0, done.stderr
    assert "title: Blog" in (tmp_path / "blog/postil.yaml").read_text()
    result = build(BuildOptions(root=tmp_path / "blog", cache=False))
    (warning,) = result.warnings
    assert (warning.location.path, warning.location.line) == ("postil.yaml", 6)
    assert "placeholder" in warning.message
    overridden = BuildOptions(root=tmp_path / "blog", cache=False, base_url="https://a.org/")
    assert build(overridden).warnings == ()


def test_init_refuses_existing_files_and_writes_nothing(tmp_path):
    (tmp_path / "content").mkdir()
    (tmp_path / "content/about.md").write_text("mine")
    done = init(tmp_path)
    assert done.returncode == 1
    assert "content/about.md" in done.stderr and "--force" in done.stderr
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["about.md", "content"]


def test_init_force_adds_only_the_missing_files(tmp_path):
    (tmp_path / "content").mkdir()
    (tmp_path / "content/about.md").write_text("mine")
    done = init(tmp_path, "--force", "--base-url", "https://a.org/")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "content/about.md").read_text() == "mine"
    assert "wrote content/about.md" not in done.stdout
    assert (tmp_path / ".github/workflows/pages.yml").is_file()


def test_init_rejects_a_base_url_that_is_not_absolute(tmp_path):
    done = init(tmp_path, "--base-url", "ada.github.io")
    assert done.returncode == 2 and "absolute http(s) URL" in done.stderr
    assert not (tmp_path / "postil.yaml").exists()


def test_the_workflow_passes_the_github_workflow_schema(tmp_path):
    init_site(tmp_path, SETTINGS)
    workflow = tmp_path / ".github/workflows/pages.yml"
    broken = tmp_path / "broken.yml"
    broken.write_text(workflow.read_text().replace("runs-on:", "run-on:", 1))
    schema = [sys.executable, "-m", "check_jsonschema", "--builtin-schema"]
    for path, valid in ((workflow, True), (broken, False)):
        cmd = [*schema, "vendor.github-workflows", str(path)]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert (done.returncode == 0) is valid, done.stdout + done.stderr


def test_the_workflow_installs_from_requirements_and_caches_postil_cache(tmp_path):
    init_site(tmp_path, SETTINGS)
    steps = read_workflow(tmp_path)["jobs"]["build"]["steps"]
    runs = [s["run"] for s in steps if "run" in s]
    assert "python -m pip install -r requirements.txt" in runs
    assert not any("pip install ." in run for run in runs)  # a site is no Python project
    (cache,) = [s for s in steps if s.get("uses", "").startswith("actions/cache@")]
    assert cache["with"]["path"] == ".postil-cache"
    key = cache["with"]["key"]
    assert "steps.postil.outputs.version" in key and "hashFiles('requirements.txt')" in key
    assert key.startswith(cache["with"]["restore-keys"].strip())
    order = [s.get("id") or s.get("uses") or s["run"] for s in steps]
    build_step = next(s["run"] for s in steps if "postil build" in s.get("run", ""))
    assert order.index("postil") < order.index(cache["uses"]) < order.index(build_step)


@pytest.mark.slow
def test_the_workflow_steps_deploy_from_a_fresh_virtualenv_and_reuse_the_cache(
    tmp_path, postil_wheel
):
    """Each run is a new runner: a fresh clone (every file a new mtime) and a fresh virtualenv
    at the same path (as setup-python gives); the second restores the first's cache."""
    origin = tmp_path / "origin"
    init_site(origin, SETTINGS)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", "-b", "main", str(origin)], check=True)
    subprocess.run([*git, "-C", str(origin), "add", "."], check=True)
    subprocess.run([*git, "-C", str(origin), "commit", "-qm", "site"], check=True)
    steps = read_workflow(origin)["jobs"]["build"]["steps"]
    pages = {"pages": {"base_url": PAGES_URL}}
    saved = tmp_path / "actions-cache"
    stamps = []
    for _ in range(2):
        checkout = tmp_path / "runner/work"
        shutil.rmtree(tmp_path / "runner", ignore_errors=True)
        subprocess.run(["git", "clone", "-q", str(origin), str(checkout)], check=True)
        if saved.exists():  # actions/cache restores the directory it saved
            shutil.copytree(saved, checkout / ".postil-cache")
        bin_dir = fresh_venv(tmp_path / "runner/venv")
        # The wheel stands in for PyPI's postil, which the requirements file pins.
        env = venv_env(bin_dir, PIP_FIND_LINKS=str(postil_wheel.parent))
        outputs = run_steps(steps, checkout, env, pages)
        assert outputs["postil"]["version"] == __version__
        doc = lxml_html.fromstring((checkout / "_site/posts/welcome/index.html").read_bytes())
        assert doc.xpath("//link[@rel='canonical']/@href") == [f"{PAGES_URL}/posts/welcome/"]
        probe = "from postil.cache.keys import environment_stamp as s; print(s())"
        stamp = subprocess.run([bin_dir / "python", "-c", probe], capture_output=True, text=True)
        stamps.append(stamp.stdout)
        shutil.rmtree(saved, ignore_errors=True)
        shutil.copytree(checkout / ".postil-cache", saved)  # the post-job save
    assert stamps[0] == stamps[1]  # a fresh install of the same wheel keeps the cache
    clone = tmp_path / "runner/work"  # the build step once more, in-process to count
    shutil.rmtree(clone)
    subprocess.run(["git", "clone", "-q", str(origin), str(clone)], check=True)
    shutil.copytree(saved, clone / ".postil-cache")
    warm = subprocess.run(
        [bin_dir / "python", "-c", WARM_PROBE], cwd=clone, capture_output=True, text=True
    )
    assert warm.stdout.split() == ["rendered", "0"], warm.stderr


WARM_PROBE = f"""
from pathlib import Path
from postil.build import BuildOptions, build
result = build(BuildOptions(root=Path.cwd(), base_url="{PAGES_URL}/"))
print("rendered", result.rendered)
"""


def test_without_pagefind_init_turns_search_off_and_the_site_builds(tmp_path, monkeypatch):
    monkeypatch.setattr("postil.search.pagefind_installed", lambda: None)
    root = tmp_path / "site"
    init_site(root, SETTINGS)
    assert yaml.safe_load((root / "postil.yaml").read_text())["search"] is False
    assert f"postil[search]=={__version__}" in (root / "requirements.txt").read_text()
    assert build(BuildOptions(root=root, strict=True, cache=False)).posts == 1


def test_with_pagefind_init_turns_search_on(tmp_path, monkeypatch):
    monkeypatch.setattr("postil.search.pagefind_installed", lambda: Path("/bin/pagefind"))
    init_site(tmp_path / "site", SETTINGS)
    assert yaml.safe_load((tmp_path / "site/postil.yaml").read_text())["search"] is True


def test_the_next_step_names_postil_as_the_user_can_run_it(tmp_path, monkeypatch):
    # `.venv/bin/postil init notes` printed "next: cd notes && postil serve", a command the
    # shell does not find while the virtualenv is not activated (README's "Starting a site")
    from postil.cli import postil_command

    venv = tmp_path / ".venv/bin"
    venv.mkdir(parents=True)
    program = venv / "postil"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    site = tmp_path / "notes"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert postil_command(site, ".venv/bin/postil") == "../.venv/bin/postil"
    assert postil_command(site, str(program)) == str(program)  # typed absolute: kept so
    monkeypatch.setenv("PATH", f"{venv}:/usr/bin:/bin")  # activated: the name finds it
    assert postil_command(site, ".venv/bin/postil") == "postil"
    assert postil_command(site, "/x/postil/__main__.py") == f"{sys.executable} -m postil"


def test_init_prints_a_next_step_that_runs(tmp_path):
    done = init(tmp_path / "site", "--base-url", "https://ada.github.io/notes/")
    [step] = [line for line in done.stdout.splitlines() if line.startswith("next: ")]
    assert step.endswith(
        f" && {sys.executable} -m postil serve   (then push to GitHub: README, 'Publishing')"
    )
