#!/usr/bin/env python3
"""Record real OpenTelemetry traces of MCP traffic, as test fixtures for the MCP4xx rules.

Usage (paths are relative to the repository root):

    python scripts/record_traces.py                # install, record and write everything
    python scripts/record_traces.py --no-install   # reuse the installs in .fixtures-work/traces/

What it does:

1. Installs, in the git-ignored `.fixtures-work/traces/`, with the install steps of
   `scripts/record_fixtures.py`: the TypeScript SDK `@modelcontextprotocol/sdk` 1.20.2 (answers
   invalid arguments with JSON-RPC -32602) and 1.32.2 (answers with an `isError` result), each
   in its own npm prefix with the fixture server `scripts/fixture_servers/ts_server.mjs`; and a
   venv with the Python SDK `mcp` 2.3.0, `opentelemetry-sdk` and
   `opentelemetry-exporter-otlp-proto-common`.
2. For each server, runs a client (this file, re-run inside that venv with `--client`): the
   Python SDK's own `ClientSession` over stdio, traced by the real OpenTelemetry SDK. The Python
   SDK 2.x emits the spans itself (`mcp.shared._otel`: one CLIENT span per request, named
   `MCP send <method> [<tool>]`, with `mcp.method.name`, `jsonrpc.request.id`, and for a JSON-RPC
   error `error.type` / `rpc.response.status_code` = the code and the status description = the
   error message); no instrumentation package is needed.
3. Exports the finished spans with the official encoder (`encode_spans` from
   `opentelemetry-exporter-otlp-proto-common`, then protobuf `MessageToJson`), one
   `ExportTraceServiceRequest` per line, as the Collector's `file` exporter writes. Trace and span
   ids are written in hex, as OTLP/JSON requires and the Collector writes (protobuf's generic
   mapping would write base64; the reader takes both).
4. Writes `tests/fixtures/traces/<name>.otlp.jsonl`, one span batch per request of the plan
   (initialize, tools/list, valid calls, each kind of invalid argument, a tool error, an unknown
   tool), and `manifest.json`: for each span, the call it records and what the server answered.

Exit status: 0 when every trace was recorded, 1 when an install or a run failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parent
REPO = SCRIPTS.parent
WORK = REPO / ".fixtures-work" / "traces"
OUT = REPO / "tests" / "fixtures" / "traces"
MANIFEST = OUT / "manifest.json"
VENV = WORK / "venv"
PY_REQUIREMENTS = [
    "mcp==2.3.0",
    "opentelemetry-sdk",
    "opentelemetry-exporter-otlp-proto-common",
    "protobuf",
]
SERVERS = {
    # name: (SDK version, what it does with invalid arguments)
    "ts-sdk-1.20.2": ("1.20.2", "JSON-RPC error -32602"),
    "ts-sdk-1.32.2": ("1.32.2", "isError result"),
    "py-sdk-2.3.0": ("2.3.0", "isError result; the server traces itself too"),
}
TS_SERVERS = ("ts-sdk-1.20.2", "ts-sdk-1.32.2")

FLIGHT = {"from": "SFO", "to": "JFK", "date": "2025-12-01"}
# (tool, arguments, what it exercises); arguments None means omitted.
CALLS: list[tuple[str, dict[str, Any] | None, str]] = [
    ("book_flight", {**FLIGHT, "passengers": 2}, "valid call"),
    ("add", {"a": 2, "b": 3}, "valid call, structured output"),
    ("add", {"a": "two", "b": 3}, "invalid: wrong type (a is a string)"),
    ("book_flight", {"from": "SFO", "to": "JFK"}, "invalid: missing required property (date)"),
    ("book_flight", {**FLIGHT, "date": "01/12/2025"}, "invalid: pattern mismatch (date)"),
    ("book_flight", {**FLIGHT, "passengers": 0}, "invalid: below minimum (passengers 0)"),
    ("book_flight", {**FLIGHT, "from": "LONDON"}, "invalid: string too long (from)"),
    ("add", None, "invalid: arguments omitted entirely"),
    ("book_flight", {**FLIGHT, "passengers": 2.5}, "invalid: not an integer (passengers 2.5)"),
    ("divide", {"a": 1, "b": 0}, "tool execution error (divide by zero)"),
    ("no_such_tool", {"x": 1}, "unknown tool"),
]


def log(message: str) -> None:
    print(message, flush=True)


def run(cmd: list[str]) -> str:
    log(f"  $ {' '.join(cmd)}")
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(
            f"error: {cmd[0]} failed (exit {done.returncode}):\n{(done.stderr or done.stdout)[-2000:]}"
        )
    return done.stdout


def install() -> None:
    """The install steps of record_fixtures.py, for these targets."""
    sys.path.insert(0, str(SCRIPTS))
    import record_fixtures

    for name in TS_SERVERS:
        version = SERVERS[name][0]
        prefix = WORK / name
        if record_fixtures.npm_version(prefix, record_fixtures.TS_SDK) != version:
            record_fixtures.npm_install(prefix, f"{record_fixtures.TS_SDK}@{version}")
    record_fixtures.pip_install(VENV, PY_REQUIREMENTS, upgrade=False)


def server_command(name: str, server_spans: Path) -> list[str]:
    if name not in TS_SERVERS:  # the Python SDK server, traced by this script's --server mode
        server = SCRIPTS / "fixture_servers" / "py_server.py"
        return [
            sys.executable,
            str(Path(__file__).resolve()),
            "--server",
            str(server_spans),
            str(server),
            SERVERS[name][0],
        ]
    prefix = WORK / name
    server = prefix / "ts_server.mjs"  # beside node_modules, so imports resolve there
    server.write_bytes((SCRIPTS / "fixture_servers" / "ts_server.mjs").read_bytes())
    return ["node", str(server), SERVERS[name][0]]


# --------------------------------------------------------------------------------------------
# The client, run inside the venv (`--client NAME`): imports mcp and opentelemetry from there.


async def drive(command: list[str]) -> list[dict[str, Any]]:
    from mcp import ClientSession, StdioServerParameters, stdio_client
    from mcp.shared.exceptions import MCPError
    from opentelemetry import trace

    answers: list[dict[str, Any]] = []
    params = StdioServerParameters(command=command[0], args=command[1:])
    tracer = trace.get_tracer("fixture-agent")
    # One root span around the session, as an agent run would have: every MCP span is in its trace.
    with tracer.start_as_current_span("agent run"):
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await _plan(session, answers, MCPError)
    return answers


async def _plan(session: Any, answers: list[dict[str, Any]], mcp_error: type[Exception]) -> None:
    init = await session.initialize()
    answers.append({"method": "initialize", "answer": f"protocolVersion {init.protocol_version}"})
    tools = await session.list_tools()
    answers.append({"method": "tools/list", "answer": f"{len(tools.tools)} tools"})
    for tool, arguments, exercises in CALLS:
        entry: dict[str, Any] = {"method": "tools/call", "tool": tool, "exercises": exercises}
        try:
            result = await session.call_tool(tool, arguments)
        except mcp_error as exc:
            entry["answer"] = f"JSON-RPC error {exc.error.code}"  # type: ignore[attr-defined]
        else:
            entry["answer"] = "isError result" if result.is_error else "result"
        answers.append(entry)


def trace_to(path: Path, service: str) -> Any:
    """Trace this process with the OpenTelemetry SDK; each finished span is one export request line in ``path``."""
    from google.protobuf.json_format import MessageToDict
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult

    class LineExporter(SpanExporter):  # what the Collector's file exporter writes, span by span
        def export(self, spans: Any) -> SpanExportResult:
            request = MessageToDict(encode_spans(spans))
            with path.open("a", encoding="utf-8") as out:
                out.write(json.dumps(hex_ids(request), separators=(",", ":")) + "\n")
            return SpanExportResult.SUCCESS

    resource = Resource.create({"service.name": service, "service.version": "1.0.0"})
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(SimpleSpanProcessor(LineExporter()))
    trace.set_tracer_provider(provider)
    return provider


def client_main(name: str) -> int:
    client_spans = WORK / f"{name}.client.jsonl"
    server_spans = WORK / f"{name}.server.jsonl"
    for stale in (client_spans, server_spans):
        stale.unlink(missing_ok=True)
    provider = trace_to(client_spans, "fixture-client")
    answers = asyncio.run(drive(server_command(name, server_spans)))
    provider.force_flush()
    lines = client_spans.read_text(encoding="utf-8").splitlines()
    if server_spans.exists():  # both services export to one Collector: one file, in time order
        lines += server_spans.read_text(encoding="utf-8").splitlines()
        lines.sort(key=_end_time)
    (OUT / f"{name}.otlp.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(json.dumps(answers))
    return 0


def server_main(spans: str, server: str, version: str) -> int:
    """Run the Python fixture server over stdio, traced (the SDK's server spans)."""
    import runpy

    provider = trace_to(Path(spans), "fixture-py-server")
    sys.argv = [server, version]
    try:
        runpy.run_path(server, run_name="__main__")
    finally:
        provider.force_flush()
    return 0


def _end_time(line: str) -> int:
    request = json.loads(line)
    return int(request["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["endTimeUnixNano"])


def hex_ids(request: dict[str, Any]) -> dict[str, Any]:
    """Trace and span ids in hex, as OTLP/JSON requires (MessageToDict writes bytes as base64)."""
    import base64

    for resource_spans in request.get("resourceSpans", []):
        for scope_spans in resource_spans.get("scopeSpans", []):
            for span in scope_spans.get("spans", []):
                for key in ("traceId", "spanId", "parentSpanId"):
                    if span.get(key):
                        span[key] = base64.b64decode(span[key]).hex()
    return request


# --------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--no-install", action="store_true", help="reuse the installs in .fixtures-work/traces/"
    )
    parser.add_argument("--client", metavar="NAME", help=argparse.SUPPRESS)  # inside the venv
    parser.add_argument(
        "--server", nargs=3, metavar=("SPANS", "SERVER", "VERSION"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    if args.client:
        return client_main(args.client)
    if args.server:
        return server_main(*args.server)
    if not args.no_install:
        install()
    OUT.mkdir(parents=True, exist_ok=True)
    python = str(VENV / "bin" / "python")
    manifest: dict[str, Any] = {
        "client": run(
            [
                python,
                "-c",
                "import importlib.metadata as m; print('mcp ' + m.version('mcp') + ', opentelemetry-sdk ' + m.version('opentelemetry-sdk'))",
            ]
        ).strip(),
        "traces": {},
    }
    for name, (version, answers_invalid) in SERVERS.items():
        log(f"{name}: recording")
        answers = json.loads(
            run([python, str(Path(__file__).resolve()), "--client", name]).strip().splitlines()[-1]
        )
        manifest["traces"][f"{name}.otlp.jsonl"] = {
            "server": f"@modelcontextprotocol/sdk {version} (scripts/fixture_servers/ts_server.mjs)",
            "invalid_arguments": answers_invalid,
            "calls": answers,
        }
    MANIFEST.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    log(f"wrote {len(SERVERS)} traces and {MANIFEST.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
