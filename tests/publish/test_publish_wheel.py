"""postil as a package: the wheel `python -m build` makes carries the theme and the starter
site, and from an empty virtualenv `postil init` then `postil build` make a site."""

from __future__ import annotations

import subprocess
import zipfile

import pytest
from support.package import fresh_venv, venv_env


@pytest.mark.slow
def test_the_wheel_carries_the_theme_and_the_starter_site(postil_wheel):
    names = set(zipfile.ZipFile(postil_wheel).namelist())
    for name in (
        "postil/theme/templates/base.html",
        "postil/theme/static/css/base.css",
        "postil/starter/pages.yml",
        "postil/starter/welcome.md",
        "postil/licenses/OFL-1.1.txt",
    ):
        assert name in names


@pytest.mark.slow
def test_init_and_build_from_the_wheel_in_an_empty_virtualenv(tmp_path, postil_wheel):
    bin_dir = fresh_venv(tmp_path / "venv")
    env = venv_env(bin_dir)
    # As README says: with the `search` extra, which the site `postil init` writes uses.
    install = [bin_dir / "python", "-m", "pip", "install", "-q", f"{postil_wheel}[search]"]
    done = subprocess.run(install, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    work = tmp_path / "elsewhere"  # no checkout of postil anywhere near
    work.mkdir()

    def postil(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [bin_dir / "postil", *args], cwd=work, env=env, capture_output=True, text=True
        )

    made = postil("init", "blog", "--base-url", "https://ada.github.io/blog/")
    assert made.returncode == 0, made.stderr
    built = postil("-C", "blog", "build", "--strict")
    assert built.returncode == 0, built.stderr
    site = work / "blog/_site"
    assert (site / "css/base.css").is_file() and (site / "posts/welcome/index.html").is_file()
    where = subprocess.run(
        [bin_dir / "python", "-c", "import postil.theme as t; print(t.default_theme_dir())"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
    )
    assert where.stdout.strip().startswith(str(tmp_path / "venv"))
