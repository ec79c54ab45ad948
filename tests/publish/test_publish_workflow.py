"""The GitHub Pages workflow: its steps, permissions and base-URL wiring, and its build command."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from lxml import html as lxml_html

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = REPO / ".github/workflows/pages.yml"
PAGES_BASE_URL = "${{ steps.pages.outputs.base_url }}"


@pytest.fixture(scope="module")
def workflow() -> dict:
    # PyYAML reads the key `on` as True (YAML 1.1); BaseLoader keeps every scalar as text.
    return yaml.load(WORKFLOW.read_text(encoding="utf-8"), Loader=yaml.BaseLoader)


def steps(workflow: dict, job: str) -> list[dict]:
    return workflow["jobs"][job]["steps"]


def uses(workflow: dict, job: str) -> list[str]:
    return [step["uses"] for step in steps(workflow, job) if "uses" in step]


def build_command(workflow: dict) -> str:
    (command,) = [s["run"] for s in steps(workflow, "build") if "postil build" in s.get("run", "")]
    return command


def test_workflow_runs_on_push_to_main_and_by_hand(workflow):
    assert workflow["on"]["push"]["branches"] == ["main"]
    assert "workflow_dispatch" in workflow["on"]


def test_workflow_has_the_permissions_and_concurrency_pages_needs(workflow):
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    assert workflow["concurrency"]["group"] == "pages"


def test_build_job_steps_in_order_with_pinned_major_versions(workflow):
    assert uses(workflow, "build") == [
        "actions/checkout@v4",
        "actions/configure-pages@v5",
        "actions/setup-python@v5",
        "actions/upload-pages-artifact@v3",
    ]
    runs = [s["run"] for s in steps(workflow, "build") if "run" in s]
    assert runs == ["pip install .", f'postil build --base-url "{PAGES_BASE_URL}/"']
    order = [s.get("uses", s.get("run")) for s in steps(workflow, "build")]
    assert order.index("pip install .") < order.index(build_command(workflow))
    assert order.index("actions/configure-pages@v5") < order.index(build_command(workflow))
    upload = [s for s in steps(workflow, "build") if "upload-pages-artifact" in s.get("uses", "")]
    assert upload[0]["with"]["path"] == "_site"


def test_base_url_comes_from_the_configure_pages_step(workflow):
    (configure,) = [s for s in steps(workflow, "build") if "configure-pages" in s.get("uses", "")]
    assert configure["id"] == "pages"
    assert PAGES_BASE_URL + "/" in build_command(workflow)


def test_deploy_job_deploys_the_artifact_to_the_pages_environment(workflow):
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["environment"]["name"] == "github-pages"
    assert uses(workflow, "deploy") == ["actions/deploy-pages@v4"]
    (step,) = steps(workflow, "deploy")
    assert deploy["environment"]["url"] == f"${{{{ steps.{step['id']}.outputs.page_url }}}}"


@pytest.mark.parametrize(
    "pages_base_url, base_path",
    [("https://example.github.io/blog", "/blog/"), ("https://example.github.io", "/")],
    ids=["project-site", "user-site"],
)
@pytest.mark.slow
def test_the_workflow_build_command_builds_the_site_for_that_base_url(
    tmp_path, workflow, pages_base_url, base_path
):
    site = tmp_path / "checkout"
    for name in ("content", "templates", "static"):
        shutil.copytree(REPO / name, site / name)
    shutil.copy(REPO / "postil.yaml", site / "postil.yaml")
    command = build_command(workflow).replace(PAGES_BASE_URL, pages_base_url)
    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "postil").is_file(), "the venv has no `postil` console script"
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    done = subprocess.run(
        ["bash", "-c", command], cwd=site, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    doc = lxml_html.fromstring(
        (site / "_site/posts/attention-from-the-softmax-up/index.html").read_bytes()
    )
    canonical = f"{pages_base_url}/posts/attention-from-the-softmax-up/"
    assert doc.xpath("//link[@rel='canonical']/@href") == [canonical]
    assert doc.xpath("//link[@rel='stylesheet']/@href")[0] == f"{base_path}css/base.css"
    assert (site / "_site/.nojekyll").is_file()
