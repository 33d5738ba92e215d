"""The integrations, each run for real: pre-commit hooks, the GitHub Action, the CI workflow.

These build virtual environments and install packages from the package index, so
they are marked ``slow``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.ci.conftest import REPO, sarif_schema
from tests.ci.transcripts import clean_session, session, write

TIMEOUT = 900


def load_yaml(path: Path) -> Any:
    from ruamel.yaml import YAML

    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The test process's environment, with pre-commit's cache in ``tmp_path``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRE_COMMIT", "GIT_"))}
    env.update(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"), PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.update(extra)
    return env


def git(*argv: str, cwd: Path) -> None:
    subprocess.run(["git", *argv], cwd=cwd, check=True, capture_output=True)


def needs_git_checkout() -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    if not (REPO / ".git").exists():
        pytest.skip("the repository root is not a git checkout")


def run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )


# -- the hooks other repositories use --------------------------------------------------


def test_hook_definitions() -> None:
    hooks = {hook["id"]: hook for hook in load_yaml(REPO / ".pre-commit-hooks.yaml")}
    assert set(hooks) == {"mcp-transcripts-check", "mcp-transcripts-fix"}
    for hook_id, hook in hooks.items():
        assert hook["language"] == "python"
        assert hook["entry"] == f"mcp-transcripts {hook_id.removeprefix('mcp-transcripts-')}"
        files = re.compile(hook["files"])
        assert (
            files.search("traces/a.jsonl")
            and files.search("b.ndjson")
            and not files.search("c.json")
        )


@pytest.mark.slow
def test_pre_commit_try_repo(tmp_path: Path) -> None:
    """``pre-commit try-repo`` installs this repository as a hook and runs it on a transcript.

    It installs the committed HEAD (``--ref HEAD``): without it try-repo would add the
    working tree's uncommitted changes to tracked files, and break on work in progress.
    """
    pytest.importorskip("pre_commit", reason="pre-commit is in the 'test' extra")
    needs_git_checkout()
    project = tmp_path / "project"
    project.mkdir()
    git("init", "-q", cwd=project)
    bad = write(project, "traces/session.jsonl", session())
    write(project, "traces/clean.ndjson", clean_session())
    write(project, "notes.json", "{}\n")
    git("add", ".", cwd=project)
    env = environment(tmp_path)
    pre_commit = [sys.executable, "-m", "pre_commit", "try-repo", str(REPO)]

    checked = run(
        [*pre_commit, "mcp-transcripts-check", "--ref", "HEAD", "--all-files", "--color", "never"],
        project,
        env,
    )
    output = checked.stdout + checked.stderr
    assert checked.returncode == 1, output
    assert re.search(r"mcp-transcripts check\.+Failed", output), output
    assert "traces/session.jsonl:9:1: MCP101 " in output
    assert "clean.ndjson:" not in output

    fixed = run(
        [
            *pre_commit,
            "mcp-transcripts-fix",
            "--ref",
            "HEAD",
            "--files",
            "traces/session.jsonl",
            "--color",
            "never",
        ],
        project,
        env,
    )
    output = fixed.stdout + fixed.stderr
    assert fixed.returncode == 1, output  # pre-commit fails a hook that changed files
    assert "files were modified by this hook" in output
    assert '"id":4,"result":{"content":[{"type":"text"' in bad.read_text()


def test_our_pre_commit_hook_installs_the_runtime_dependencies() -> None:
    # The local hook runs the checkout without installing it, so it lists the
    # runtime dependencies itself; they must not drift from pyproject.toml.
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    (local,) = load_yaml(REPO / ".pre-commit-config.yaml")["repos"]
    assert sorted(local["hooks"][0]["additional_dependencies"]) == sorted(project["dependencies"])


@pytest.mark.slow
def test_our_pre_commit_config_runs_on_our_examples(tmp_path: Path) -> None:
    """The repository's own .pre-commit-config.yaml, on a clean clone of it."""
    pytest.importorskip("pre_commit", reason="pre-commit is in the 'test' extra")
    needs_git_checkout()
    config = load_yaml(REPO / ".pre-commit-config.yaml")
    (local,) = config["repos"]
    assert local["repo"] == "local"
    hook = local["hooks"][0]
    assert re.search(hook["files"], "examples/typescript-sdk-1.20.2.jsonl")
    assert re.search(hook["files"], "docs/examples/tutorial/before.jsonl")
    assert not re.search(hook["files"], "tests/golden/x/input.jsonl")
    clone = tmp_path / "clone"
    git("clone", "-q", str(REPO), str(clone), cwd=tmp_path)
    env = environment(tmp_path)
    argv = [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"]
    result = run(
        [*argv, "--config", str(REPO / ".pre-commit-config.yaml"), "--verbose"], clone, env
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert re.search(r"mcp-transcripts check \(our examples\)\.+Passed", output), output
    assert "examples/typescript-sdk-1.20.2.jsonl:15:1: MCP101" in output  # it did read them


# -- the GitHub Action ------------------------------------------------------------------

EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def _evaluate(text: str, inputs: dict[str, str], action_path: Path) -> str:
    """The few expressions action.yml uses, as the runner evaluates them."""

    def value(match: re.Match[str]) -> str:
        expression = match.group(1)
        if expression.startswith("inputs."):
            return inputs[expression.removeprefix("inputs.")]
        if expression == "github.action_path":
            return str(action_path)
        raise AssertionError(f"action.yml uses an expression this test does not know: {expression}")

    return EXPRESSION.sub(value, text)


def _read_env_file(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)


def action_checkout(job: Path) -> Path:
    """The action as a workflow gets it: a clean checkout (HEAD, with this tree's action.yml)."""
    needs_git_checkout()
    folder = job / "action"
    if not folder.exists():
        git("clone", "-q", str(REPO), str(folder), cwd=job)
        shutil.copyfile(REPO / "action.yml", folder / "action.yml")
    return folder


def run_action(
    job: Path, tmp_path: Path, workspace: Path, **given: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    """Run action.yml's composite steps as the runner does (bash -eo pipefail, env files).

    ``job`` is the job's folder (the ``action_job`` fixture): the action's checkout and
    ``RUNNER_TEMP`` stay there from one use to the next, as within one job. Each use's
    env files and job summary are in ``tmp_path``, and every step's output is appended
    to ``tmp_path / "action.log"``, the runner's log.
    """
    action_path = action_checkout(job)
    action = load_yaml(action_path / "action.yml")
    assert action["runs"]["using"] == "composite"
    inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    assert set(given) <= set(inputs)
    inputs.update(given)
    files = {name: tmp_path / name for name in ("github_env", "github_output")}
    files["runner_temp"] = job / "runner_temp"
    files["runner_temp"].mkdir(exist_ok=True)
    base = environment(
        tmp_path,
        GITHUB_ACTIONS="true",
        GITHUB_ACTION_PATH=str(action_path),
        GITHUB_ENV=str(files["github_env"]),
        GITHUB_OUTPUT=str(files["github_output"]),
        RUNNER_TEMP=str(files["runner_temp"]),
        GITHUB_STEP_SUMMARY=str(tmp_path / "step_summary.md"),
    )
    result: subprocess.CompletedProcess[str] | None = None
    for number, step in enumerate(action["runs"]["steps"]):
        assert step["shell"] == "bash"
        assert "${{" not in step["run"], "inputs reach scripts through env, never pasted into them"
        script = tmp_path / f"step{number}.sh"
        script.write_text(step["run"])
        env = {**base, **_read_env_file(files["github_env"])}
        env.update(
            {
                key: _evaluate(str(value), inputs, action_path)
                for key, value in step.get("env", {}).items()
            }
        )
        result = run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], workspace, env
        )
        with (tmp_path / "action.log").open("a", encoding="utf-8") as log:
            log.write(f"## {step.get('name', number)}\n{result.stdout}{result.stderr}")
        if result.returncode != 0:
            break
    assert result is not None
    return result, _read_env_file(files["github_output"])


@pytest.mark.slow
def test_a_job_that_uses_the_action_twice_installs_it_once(
    action_job: Path, tmp_path: Path
) -> None:
    workspace = tmp_path / "workspace"
    write(workspace, "traces/clean.jsonl", clean_session())

    def use(name: str) -> str:
        folder = tmp_path / name
        folder.mkdir()
        result, outputs = run_action(
            action_job, folder, workspace, paths="traces", python=sys.executable
        )
        assert result.returncode == 0 and outputs["exit-code"] == "0", result.stderr
        return (folder / "action.log").read_text(encoding="utf-8")

    use("first")
    assert "already installed in this job" in use("second")
    # an environment made from anything else (another ref, Python or extra) is made again
    stamp = action_job / "runner_temp" / "mcp-transcripts-venv" / "mcp-transcripts-installed-from"
    assert stamp.read_text(encoding="utf-8") == f"{sys.executable} {action_job / 'action'}"
    stamp.write_text(f"{sys.executable} {action_job / 'elsewhere'}", encoding="utf-8")
    assert "already installed" not in use("third")
    assert stamp.read_text(encoding="utf-8") == f"{sys.executable} {action_job / 'action'}"


@pytest.mark.slow
def test_github_action(action_job: Path, tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    write(workspace, "traces/old.jsonl", session("2025-06-18", broken=False))
    write(workspace, "traces/clean.jsonl", clean_session())
    result, outputs = run_action(
        action_job,
        tmp_path,
        workspace,
        paths="traces",
        args="--select MCP101",
        **{"sarif-file": "mcp.sarif", "python": sys.executable},
    )
    assert result.returncode == 1, result.stdout + result.stderr  # a warning, and --fail-on warning
    assert outputs["exit-code"] == "1"
    assert result.stdout.splitlines() == [
        '::warning file=traces/old.jsonl,line=8,col=1,title=MCP101 validation-error-as-protocol-error::tools/call "create_issue" (id 4): input validation failure answered with JSON-RPC error -32602; from protocol 2025-11-25 it must be a tool result with isError: true'
    ]
    sarif = json.loads((workspace / "mcp.sarif").read_text())
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["MCP101"]
    schema = sarif_schema()
    jsonschema.validators.validator_for(schema)(schema).validate(sarif)

    passing, outputs = run_action(
        action_job,
        tmp_path,
        workspace,
        paths="traces",
        args="--fail-on error",
        python=sys.executable,
    )
    assert passing.returncode == 0 and outputs["exit-code"] == "0"


def test_github_action_report_writes_the_job_summary(action_job: Path, tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    write(workspace, "traces/old.jsonl", session("2025-06-18", broken=False))
    write(workspace, "traces/clean.jsonl", clean_session())
    result, outputs = run_action(
        action_job, tmp_path, workspace, paths="traces", report="true", python=sys.executable
    )
    assert result.returncode == 1 and outputs["exit-code"] == "1"  # check still decides
    summary = (tmp_path / "step_summary.md").read_text()
    assert summary.startswith("## MCP migration report\n")
    assert "not migrated" in summary and "MCP101" in summary
    run_action(action_job, tmp_path, workspace, paths="traces", python=sys.executable)
    assert (tmp_path / "step_summary.md").read_text() == summary  # report: false adds nothing


# -- the project's CI workflow ------------------------------------------------------------


def _steps(job: dict[str, Any]) -> list[str]:
    return [str(step.get("run", "")) for step in job["steps"]]


def test_ci_workflow_covers_lint_types_tests_docs_and_examples() -> None:
    workflow = load_yaml(REPO / ".github" / "workflows" / "ci.yml")
    jobs = workflow["jobs"]
    runs = [command for job in jobs.values() for command in _steps(job)]
    assert any(c.startswith("ruff check migrator tests") for c in runs)
    assert "mypy" in runs
    assert jobs["test"]["strategy"]["matrix"]["python-version"] == ["3.10", "3.11", "3.12", "3.13"]
    assert any("pytest" in c for c in _steps(jobs["test"]))
    assert "mkdocs build --strict" in runs
    assert any(re.match(r"mcp-transcripts check .*docs/examples/", c) for c in runs)
    action = load_yaml(REPO / "action.yml")
    for job in jobs.values():
        for step in job["steps"]:
            if step.get("uses") == "./":
                assert set(step.get("with", {})) <= set(action["inputs"])


@pytest.mark.slow
def test_ci_workflow_examples_step_runs(tmp_path: Path) -> None:
    """The workflow's `mcp-transcripts check docs/examples/ ...` step, run here as CI runs it."""
    if not (REPO / "docs" / "examples").is_dir():
        pytest.skip("docs/examples/ is not in this checkout")
    workflow = load_yaml(REPO / ".github" / "workflows" / "ci.yml")
    (command,) = [
        c
        for job in workflow["jobs"].values()
        for c in _steps(job)
        if c.startswith("mcp-transcripts check")
    ]
    bin_dir = Path(sys.executable).parent
    if not (bin_dir / "mcp-transcripts").exists():
        pytest.skip("the mcp-transcripts script is not installed next to this Python")
    env = environment(tmp_path, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    result = run(["bash", "-eo", "pipefail", "-c", command], REPO, env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert any(line.startswith("docs/examples/") for line in result.stdout.splitlines())
