#!/usr/bin/env python3
"""Build the Kong, Obot and agentgateway log fixtures from a real SDK recording.

Usage: python scripts/make_gateway_fixtures.py   (rewrites tests/fixtures/gateways/{kong,obot,agentgateway})

These gateways cannot be run here (Kong's AI MCP Proxy is an enterprise plugin; Obot and
agentgateway are servers with their own deployment), so their logs are built: the
messages are the exact lines of `tests/fixtures/recorded/ts-sdk-1.20.2.jsonl` (a real
TypeScript SDK 1.20.2 server), and the records around them follow each gateway's own
field names and encodings, as `tests/fixtures/gateways/README.md` cites. The output is
deterministic: running it again gives the same bytes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SOURCE = REPO / "tests" / "fixtures" / "recorded" / "ts-sdk-1.20.2.jsonl"
OUT = REPO / "tests" / "fixtures" / "gateways"
SESSION = "6f1c2a9e-4b7d-4e0a-9c53-2d8e1f7a0b64"
TIME = "2026-01-15T10:00:{:02d}.{:03d}Z"


def exchanges() -> list[tuple[str, str | None]]:
    """(request line, answer line or None) in the recording's order."""
    lines = SOURCE.read_text().splitlines()
    answers = {}
    for line in lines:
        message = json.loads(line)
        if "method" not in message:
            answers[json.dumps(message["id"])] = line
    out = []
    for line in lines:
        message = json.loads(line)
        if "method" in message:
            out.append((line, answers.get(json.dumps(message["id"])) if "id" in message else None))
    return out


def go_json(value: Any) -> str:
    """What Go's encoding/json writes: compact, and <, >, & escaped."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def go_raw(line: str) -> str:
    """A json.RawMessage as Go's encoder writes it: compacted, HTML characters escaped."""
    return go_json(json.loads(line))


def kong() -> str:
    records = []
    for n, (request, answer) in enumerate(exchanges()):
        message = json.loads(request)
        entry: dict[str, Any] = {"method": message["method"]}
        if "id" in message:
            entry["id"] = str(message["id"])
        if message["method"] == "tools/call" and isinstance(message.get("params"), dict):
            name = message["params"].get("name")
            if isinstance(name, str):
                entry["tool_name"] = name
        entry["latency"] = 2 + n % 5
        payload = {"request": request}
        if answer is not None:
            error = json.loads(answer).get("error")
            if isinstance(error, dict):
                entry["error"] = str(error.get("message"))
            # One answer as the SSE stream the server sent it in (Streamable HTTP).
            payload["response"] = f"event: message\ndata: {answer}\n\n" if n == 9 else answer
        entry["payload"] = payload
        status = 200 if answer is not None else 202
        records.append({
            "ai": {"mcp": {"rpc": [entry]}},
            "client_ip": "127.0.0.1",
            "latencies": {"kong": 1, "proxy": 3 + n % 4, "request": 5 + n % 4},
            "request": {
                "headers": {"accept": "application/json, text/event-stream",
                            "content-type": "application/json", "host": "localhost:8000",
                            "mcp-session-id": SESSION},
                "method": "POST", "querystring": {}, "size": 180 + len(request),
                "uri": "/mcp", "url": "http://localhost:8000/mcp",
            },
            "response": {"headers": {"content-type": "application/json"}, "size": 220, "status": status},
            "route": {"id": "0d1b4c55-0f5a-4f0e-9a57-6f7e2e5c2f10", "name": "mcp-route", "paths": ["/mcp"]},
            "service": {"host": "mcp-server", "name": "mcp-service", "port": 3001, "protocol": "http"},
            "started_at": 1768471200000 + 1000 * n,
            "upstream_uri": "/mcp",
        })  # fmt: skip
        if n == 4:  # another route's record, which is not MCP traffic
            records.append({
                "client_ip": "127.0.0.1", "latencies": {"kong": 0, "proxy": 1, "request": 1},
                "request": {"headers": {"host": "localhost:8000"}, "method": "GET", "size": 80,
                            "uri": "/healthz", "url": "http://localhost:8000/healthz"},
                "response": {"headers": {}, "size": 2, "status": 200},
                "route": {"name": "health"}, "started_at": 1768471204500, "upstream_uri": "/healthz",
            })  # fmt: skip
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)


def obot() -> str:
    out = []
    for n, (request, answer) in enumerate(exchanges()):
        message = json.loads(request)
        params = message.get("params")
        name = params.get("name") if isinstance(params, dict) else None
        fields: dict[str, Any] = {
            "mcpID": "ms1fixture", "mcpServerDisplayName": "Fixture Server",
            "mcpServerCatalogEntryName": "fixture-ts-server", "clientName": "fixture-recorder",
            "clientVersion": "1.0.0", "callType": message["method"],
        }  # fmt: skip
        if message["method"] == "tools/call" and isinstance(name, str):
            fields["callIdentifier"] = name
        fields["requestMutated"] = False
        fields["requestBody"] = "__REQUEST__"
        fields["responseMutated"] = False
        if answer is not None:
            fields["responseBody"] = "__RESPONSE__"
        fields["responseStatus"] = 200 if answer is not None else 202
        fields["processingTimeMs"] = 3 + n % 5
        fields["sessionID"] = SESSION
        if "id" in message:
            fields["requestID"] = str(message["id"])
        fields["responseReceived"] = answer is not None
        entry: dict[str, Any] = {"id": 100 + n, "createdAt": TIME.format(n, 120), "sourceType": "mcp",
                                 "userID": "u1", "clientIP": "127.0.0.1"}  # fmt: skip
        nested = n % 7 == 3  # newer exports nest the MCP fields
        if nested:
            entry["mcpFields"] = fields
            entry["encrypted"] = False
        else:
            entry.update(fields)
        text = go_json(entry).replace('"__REQUEST__"', go_raw(request))
        if answer is not None:
            body = go_raw(answer)
            if n == 11:  # an SSE answer: not JSON as a whole, so kept as a JSON string
                body = go_json(f"event: message\ndata: {answer}\n\n")
            text = text.replace('"__RESPONSE__"', body)
        out.append(text + "\n")
        if n == 5:  # a local agent's tool call: another kind of entry
            out.append(go_json({"id": 900, "createdAt": TIME.format(n, 500), "sourceType": "local_agent_tool_call",
                                "userID": "u1", "clientIP": "127.0.0.1",
                                "localAgentToolCallFields": {"actionName": "Bash", "targetType": "local_tool",
                                                             "targetName": "Bash", "outcomeStatus": "succeeded"},
                                "encrypted": False}) + "\n")  # fmt: skip
    return "".join(out)


def agentgateway_records() -> list[dict[str, Any]]:
    records = []
    for n, (request, answer) in enumerate(exchanges()):
        message = json.loads(request)
        record: dict[str, Any] = {
            "level": "info", "time": TIME.format(n, 250), "scope": "request",
            "gateway": "default/default", "listener": "listener0", "route": "default/mcp",
            "endpoint": "127.0.0.1:3001", "src.addr": "127.0.0.1:51234", "http.method": "POST",
            "http.host": "localhost", "http.path": "/mcp", "http.version": "HTTP/1.1",
            "http.status": 200 if answer is not None else 202, "protocol": "mcp",
            "mcp.method.name": message["method"], "mcp.target": "fixture",
        }  # fmt: skip
        params = message.get("params")
        if message["method"] == "tools/call" and isinstance(params, dict):
            if isinstance(params.get("name"), str):
                record["gen_ai.tool.name"] = params["name"]
            record["mcp.resource.type"] = "tool"
        record["mcp.session.id"] = SESSION
        if answer is not None:
            error = json.loads(answer).get("error")
            if isinstance(error, dict):
                record["mcp.error.code"] = error["code"]
                record["mcp.error.message"] = error["message"]
        if message["method"] == "tools/call" and isinstance(params, dict) and "arguments" in params:
            record["mcp.tool.arguments"] = params[
                "arguments"
            ]  # opt-in, added by the logging policy
        if answer is not None and message["method"] == "tools/call":
            result = json.loads(answer).get("result")
            if result is not None:
                record["mcp.tool.result"] = result
        record["duration"] = f"{2 + n % 4}ms"
        records.append(record)
        if n == 2:
            records.append({"level": "info", "time": TIME.format(n, 600), "scope": "request",
                            "gateway": "default/default", "listener": "listener0", "route": "default/ui",
                            "http.method": "GET", "http.path": "/ui", "http.status": 200, "duration": "0ms"})  # fmt: skip
    return records


def agentgateway_json() -> str:
    return "".join(
        json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n"
        for r in agentgateway_records()
    )


def _text_value(key: str, value: Any) -> str:
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if key == "mcp.error.message" or any(c in text for c in ' "\t\n='):
        return json.dumps(text, ensure_ascii=False)  # Rust's Debug quoting, as the JSON escapes
    return text


def agentgateway_text() -> str:
    lines = []
    for record in agentgateway_records():
        head = f"{record['time']}\t{record['level']}\t{record['scope']}\t"
        pairs = " ".join(
            f"{k}={_text_value(k, v)}"
            for k, v in record.items()
            if k not in ("time", "level", "scope")
        )
        lines.append(head + pairs + "\n")
    return "".join(lines)


def _value(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}  # OTLP JSON writes 64-bit integers as strings
    return {"stringValue": value}


def _span(n: int, name: str, kind: str, attributes: dict[str, Any], status: dict[str, Any],
          events: list[dict[str, Any]] | None = None) -> dict[str, Any]:  # fmt: skip
    span = {
        "traceId": f"{0x5B8EFFF798038103D269B633813F0000 + n:032x}",
        "spanId": f"{0xEEE19B7EC3C10000 + n:016x}",
        "name": name, "kind": kind,
        "startTimeUnixNano": str(1768471200000000000 + n * 1_000_000_000),
        "endTimeUnixNano": str(1768471200004000000 + n * 1_000_000_000),
        "attributes": [{"key": k, "value": _value(v)} for k, v in attributes.items()],
        "status": status,
    }  # fmt: skip
    if events:
        span["events"] = events
    return span


def _export(service: str, scope: str, spans: list[dict[str, Any]]) -> str:
    request = {"resourceSpans": [{
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": service}}]},
        "scopeSpans": [{"scope": {"name": scope}, "spans": spans}],
    }]}  # fmt: skip
    return json.dumps(request, separators=(",", ":")) + "\n"


def _tool_calls() -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
    """The recording's tools/call requests with their answers."""
    calls = []
    for n, (request, answer) in enumerate(exchanges()):
        message = json.loads(request)
        if message["method"] == "tools/call" and answer is not None:
            params = message.get("params")
            if isinstance(params, dict) and isinstance(params.get("name"), str):
                calls.append((n, message, json.loads(answer)))
    return calls


def envoy() -> str:
    """Envoy AI Gateway (internal/tracing/mcp_otel.go): error.type, rpc.response.status_code as an int."""
    spans = []
    for n, request, answer in _tool_calls():
        attributes = {
            "mcp.protocol.version": "2025-06-18", "network.transport": "tcp",
            "network.protocol.name": "http", "network.protocol.version": "1.1",
            "jsonrpc.request.id": str(request["id"]), "mcp.method.name": "tools/call",
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": request["params"]["name"],
        }  # fmt: skip
        status: dict[str, Any] = {"code": "STATUS_CODE_OK"}
        events = None
        error = answer.get("error")
        if isinstance(error, dict):
            kind = "invalid_param" if error["code"] == -32602 else "internal_error"
            attributes["error.type"] = kind
            attributes["rpc.response.status_code"] = error["code"]
            status = {"code": "STATUS_CODE_ERROR", "message": error["message"]}
            events = [{"name": "exception", "attributes": [
                {"key": "exception.type", "value": {"stringValue": kind}},
                {"key": "exception.message", "value": {"stringValue": error["message"]}}]}]  # fmt: skip
        spans.append(
            _span(
                n,
                f"tools/call {request['params']['name']}",
                "SPAN_KIND_SERVER",
                attributes,
                status,
                events,
            )
        )
    return _export("envoy-ai-gateway", "envoyproxy/ai-gateway", spans)


def docker() -> str:
    """Docker MCP Gateway (pkg/telemetry/telemetry.go, pkg/gateway/handlers.go): mcp.tool.call spans."""
    spans = []
    for n, request, answer in _tool_calls():
        attributes = {"mcp.tool.name": request["params"]["name"], "mcp.server.name": "fixture",
                      "mcp.server.type": "docker", "mcp.server.image": "mcp/fixture:1.20.2"}  # fmt: skip
        failed = "error" in answer
        status = (
            {"code": "STATUS_CODE_ERROR", "message": "Tool execution failed"}
            if failed
            else {"code": "STATUS_CODE_OK"}
        )
        spans.append(_span(n, "mcp.tool.call", "SPAN_KIND_CLIENT", attributes, status))
    return _export("docker-mcp-gateway", "docker-mcp-gateway", spans)


def contextforge() -> str:
    """IBM ContextForge (mcpgateway/services/tool_service.py, mcpgateway/observability.py): tool.invoke."""
    spans = []
    for n, request, answer in _tool_calls():
        params = request["params"]
        attributes: dict[str, Any] = {
            "tool.name": params["name"], "tool.id": f"tool-{params['name']}",
            "tool.integration_type": "MCP", "tool.gateway_id": "gw-fixture",
            "arguments_count": len(params.get("arguments") or {}), "has_headers": False,
            "user.email": "anonymous", "server_id": "srv-fixture",
            "langfuse.observation.input": json.dumps(params.get("arguments") or {}),
        }  # fmt: skip
        error = answer.get("error")
        if isinstance(error, dict):
            text = f"Tool invocation failed: {error['message']}"
            attributes.update({"error": True, "error.type": "ToolInvocationError", "error.message": text,
                               "langfuse.observation.level": "ERROR",
                               "langfuse.observation.status_message": text, "success": False})  # fmt: skip
            status = {"code": "STATUS_CODE_ERROR", "message": text}
        else:
            attributes["success"] = True
            attributes["langfuse.observation.output"] = json.dumps(answer.get("result"))
            status = {"code": "STATUS_CODE_OK"}
        spans.append(_span(n, "tool.invoke", "SPAN_KIND_INTERNAL", attributes, status))
    return _export("mcpgateway", "mcpgateway", spans)


def main() -> None:
    files = {
        OUT / "kong" / "file-log.jsonl": kong(),
        OUT / "obot" / "mcp-audit-logs" / "2026" / "01" / "15" / "fixture-export.jsonl": obot(),
        OUT / "agentgateway" / "access.jsonl": agentgateway_json(),
        OUT / "agentgateway" / "access.log": agentgateway_text(),
        OUT / "spans" / "envoy-ai-gateway.jsonl": envoy(),
        OUT / "spans" / "docker-mcp-gateway.jsonl": docker(),
        OUT / "spans" / "contextforge.jsonl": contextforge(),
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        print(path.relative_to(REPO))


if __name__ == "__main__":
    main()
