"""The migration guide's SDK snippets compile against the real SDKs.

The server and client examples under ``docs/examples/servers/`` and ``docs/examples/clients/``
are what readers copy. Each is checked with its own language's tools against the SDK it
uses, installed on first use into the git-ignored ``.fixtures-work/sdk-snippets/`` (npm and
PyPI are needed once; later runs reuse what is there and take seconds):

* Python: type-checked with mypy against each line of the ``mcp`` SDK (1.x and 2.x, PyPI),
  each in its own venv, then imported there and the server's tools listed;
* TypeScript: ``tsc --noEmit`` in strict mode against ``@modelcontextprotocol/sdk``'s types;
* Go: ``go vet`` against ``github.com/modelcontextprotocol/go-sdk``, where a Go toolchain
  is on PATH (skipped with the reason otherwise).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import installing
from tests.docs.conftest import ROOT

pytestmark = pytest.mark.slow

EXAMPLES = ROOT / "docs" / "examples"
WORK = ROOT / ".fixtures-work" / "sdk-snippets"
NPM_PACKAGES = ["@modelcontextprotocol/sdk", "zod", "typescript", "@types/node"]
GO_SDK = "github.com/modelcontextprotocol/go-sdk"
# typescript-lowlevel.ts imports its tool table from "./tools.js"; this declares its type.
TOOLS_DECLARATION = """\
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ZodType } from "zod";

export declare const tools: Record<
  string,
  { schema: ZodType; run: (args: unknown) => Promise<CallToolResult> }
>;
"""
TSCONFIG = {
    "compilerOptions": {
        "target": "es2022",
        "module": "nodenext",
        "moduleResolution": "nodenext",
        "strict": True,
        "noEmit": True,
        "skipLibCheck": True,
        "types": ["node"],
    },
    "include": ["src/*.ts"],
}


def _run(
    cmd: list[str], cwd: Path, what: str, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"{what}: {exc}")


def _install(cmd: list[str], cwd: Path, what: str) -> None:
    done = _run(cmd, cwd, what)
    if done.returncode != 0:
        pytest.skip(f"cannot {what} (registry unreachable?): {(done.stderr or done.stdout)[-500:]}")


# The Python SDK's two lines: 2.x renamed FastMCP to MCPServer, McpError to MCPError and
# isError to is_error, so each line has its own snippets.
PYTHON_LINES = {
    "mcp1": ("mcp>=1.9,<2", ["servers/python.py", "clients/python.py"]),
    "mcp2": ("mcp>=2,<3", ["servers/python-mcp2.py", "clients/python-mcp2.py"]),
}


def _sdk_python(line: str) -> Path:
    requirement, _ = PYTHON_LINES[line]
    venv = WORK / f"venv-{line}"
    python = venv / "bin" / "python"
    probe = [str(python), "-c", "import mcp.client.session"]
    with installing():
        if not python.exists() or _run(probe, ROOT, "probe").returncode != 0:
            if not python.exists():
                _install([sys.executable, "-m", "venv", str(venv)], ROOT, "create the SDK venv")
            _install(
                [str(python), "-m", "pip", "install", "--quiet", requirement],
                ROOT,
                f"pip install {requirement}",
            )
    return python


@pytest.mark.parametrize("line", PYTHON_LINES)
def test_python_snippets_type_check_and_import_against_the_mcp_sdk(
    line: str, tmp_path: Path
) -> None:
    python = _sdk_python(line)
    server, client = (EXAMPLES / name for name in PYTHON_LINES[line][1])
    # mypy with the SDK's interpreter: every name and attribute the snippet uses must exist
    # in that SDK (its default checks, not this project's strict settings).
    # (copied under distinct names: both are "python.py"; the SDK's analysis is cached)
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n", encoding="utf-8")
    shutil.copyfile(server, tmp_path / "server.py")
    shutil.copyfile(client, tmp_path / "client.py")
    checked = _run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(config),
            "--python-executable",
            str(python),
            "--cache-dir",
            str(WORK / f"mypy-cache-{line}"),
            "--follow-imports=silent",
            "--no-error-summary",
            str(tmp_path / "server.py"),
            str(tmp_path / "client.py"),
        ],
        ROOT,
        "mypy",
        timeout=300,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    script = f"""
import asyncio, runpy
server = runpy.run_path({str(server)!r}, run_name="snippet")
runpy.run_path({str(client)!r}, run_name="snippet")
tools = asyncio.run(server["mcp"].list_tools())
print(",".join(tool.name for tool in tools))
"""
    done = _run([str(python), "-c", script], ROOT, "run python", timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "book_train"


@pytest.fixture(scope="module")
def typescript_project() -> Path:
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("node and npm are not on PATH: the TypeScript snippets cannot be compiled")
    tsc = WORK / "node_modules" / "typescript" / "bin" / "tsc"
    sdk = WORK / "node_modules" / "@modelcontextprotocol" / "sdk" / "package.json"
    with installing():
        if not (tsc.exists() and sdk.exists()):
            WORK.mkdir(parents=True, exist_ok=True)
            _install(
                [
                    "npm",
                    "install",
                    "--prefix",
                    str(WORK),
                    "--no-audit",
                    "--no-fund",
                    "--loglevel=error",
                    *NPM_PACKAGES,
                ],
                ROOT,
                "npm install the TypeScript SDK",
            )
        _install(["npm", "pkg", "set", "type=module"], WORK, "mark the project as ES modules")
    src = WORK / "src"
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir()
    shutil.copyfile(EXAMPLES / "servers" / "typescript.ts", src / "server.ts")
    shutil.copyfile(EXAMPLES / "servers" / "typescript-lowlevel.ts", src / "server-lowlevel.ts")
    shutil.copyfile(EXAMPLES / "clients" / "typescript.ts", src / "client.ts")
    (src / "tools.ts").write_text(TOOLS_DECLARATION, encoding="utf-8")
    (WORK / "tsconfig.json").write_text(json.dumps(TSCONFIG, indent=2), encoding="utf-8")
    return WORK


def test_typescript_snippets_type_check_against_the_sdk(typescript_project: Path) -> None:
    tsc = typescript_project / "node_modules" / "typescript" / "bin" / "tsc"
    done = _run(["node", str(tsc), "-p", "tsconfig.json"], typescript_project, "tsc", timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_go_snippet_vets_against_the_sdk(tmp_path: Path) -> None:
    go = shutil.which("go")
    if go is None:
        pytest.skip("no Go toolchain on PATH: go vet of docs/examples/servers/go.go not run")
    project = WORK / "go"
    project.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(EXAMPLES / "servers" / "go.go", project / "main.go")
    with installing():
        if not (project / "go.mod").exists():
            _install([go, "mod", "init", "snippets"], project, "go mod init")
        _install([go, "get", GO_SDK], project, f"go get {GO_SDK}")
    done = _run([go, "vet", "./..."], project, "go vet", timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
