"""Hand-written instances for the conformance test.

Each entry is (definition, instance). Instances are not labelled valid or invalid:
the test only asks that our schema and the official one give the same answer, in
every version that has the definition. Many entries are valid in some versions and
invalid in others (audio content before 2025-03-26, a missing resultType in
2026-07-28, ...), which is the point.
"""

from __future__ import annotations

from typing import Any

TEXT = {"type": "text", "text": "hello"}
IMAGE = {"type": "image", "data": "aGk=", "mimeType": "image/png"}
AUDIO = {"type": "audio", "data": "aGk=", "mimeType": "audio/wav"}
LINK = {"type": "resource_link", "uri": "file:///notes.txt", "name": "notes.txt"}
EMBEDDED_TEXT = {"type": "resource", "resource": {"uri": "file:///a.txt", "text": "x"}}
EMBEDDED_BLOB = {
    "type": "resource",
    "resource": {"uri": "file:///a.bin", "blob": "AA==", "mimeType": "application/octet-stream"},
}
SERVER = {"name": "server", "version": "1.0.0"}
META_2026 = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
TOOL = {
    "name": "add",
    "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}}, "required": ["a"]},
}
ELICIT_FORM = {
    "method": "elicitation/create",
    "params": {
        "mode": "form",
        "message": "Who are you?",
        "requestedSchema": {
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
        },
    },
}


def call(params: Any, **extra: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params, **extra}


def result(value: Any, **extra: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 7, "result": value, **extra}


JUNK: list[Any] = [
    None,
    True,
    0,
    1.5,
    "",
    "text",
    [],
    {},
    [{}],
    {"type": "text"},
    {"content": None},
]
"""Values every definition is checked against."""

_CALL_TOOL_RESULTS: list[Any] = [
    {"content": []},
    {"content": [TEXT], "isError": True},
    {"content": [TEXT], "isError": "true"},
    {"content": [TEXT, IMAGE, EMBEDDED_TEXT, EMBEDDED_BLOB]},
    {"content": [AUDIO]},
    {"content": [LINK]},
    {
        "content": [
            {**LINK, "title": "Notes", "description": "d", "mimeType": "text/plain", "size": 12}
        ]
    },
    {"content": [{**LINK, "size": 1.5}]},
    {
        "content": [
            {
                **LINK,
                "icons": [
                    {"src": "https://example.com/i.png", "sizes": ["48x48"], "theme": "dark"}
                ],
            }
        ]
    },
    {"content": [{**LINK, "icons": [{"sizes": ["48x48"]}]}]},
    {"content": [{**LINK, "icons": "icon.png"}]},
    {"content": [{"type": "resource_link", "uri": "file:///x"}]},
    {"content": [{"type": "resource", "resource": {"uri": "file:///a"}}]},
    {"content": [{"type": "resource", "resource": {"uri": "file:///a", "text": "t", "_meta": []}}]},
    {"content": [TEXT], "structuredContent": {"sum": 3}},
    {"content": [TEXT], "structuredContent": [1, 2]},
    {"content": [TEXT], "structuredContent": "three"},
    {"content": [TEXT], "structuredContent": None},
    {"content": [TEXT], "resultType": "complete"},
    {"content": [], "resultType": 5},
    {
        "content": [TEXT],
        "resultType": "complete",
        "isError": True,
        "structuredContent": {"error": "bad date"},
    },
    {"resultType": "complete"},
    {"isError": True},
    {"content": "hello"},
    {"content": [{"type": "text"}]},
    {"content": [{"type": "text", "text": 1}]},
    {"content": [{"type": "bogus", "text": "x"}]},
    {"content": [{"type": "image", "data": "aGk="}]},
    {"content": [{"type": "tool_use", "id": "u1", "name": "t", "input": {}}]},
    {"content": [{**TEXT, "annotations": {"audience": ["user"], "priority": 0.5}}]},
    {"content": [{**TEXT, "annotations": {"audience": ["robot"]}}]},
    {"content": [{**TEXT, "annotations": {"priority": 2}}]},
    {"content": [{**TEXT, "annotations": {"lastModified": "2025-01-12T15:00:58Z"}}]},
    {"content": [{**TEXT, "annotations": {"lastModified": 5}}]},
    {"content": [{**TEXT, "annotations": []}]},
    {"content": [{**TEXT, "_meta": {"trace": "abc"}}]},
    {"content": [{**TEXT, "_meta": "abc"}]},
    {"content": [], "_meta": {"io.modelcontextprotocol/serverInfo": SERVER}},
    {
        "content": [],
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "server"}},
        "resultType": "complete",
    },
    {"content": [], "_meta": "x"},
    {"content": [TEXT], "extra": True},
    {"content": [TEXT], "resultType": "input_required", "inputRequests": {"q": ELICIT_FORM}},
]

_CALL_TOOL_REQUESTS: list[Any] = [
    call({"name": "add", "arguments": {"a": 1}}),
    call({"name": "add"}),
    call({"name": "add", "arguments": []}),
    call({"arguments": {}}),
    call({"name": 5}),
    call({"name": "add", "_meta": {"progressToken": "p1"}}),
    call({"name": "add", "_meta": {"progressToken": 1.5}}),
    call({"name": "add", "_meta": "meta"}),
    call({"name": "add", "_meta": META_2026}),
    call(
        {
            "name": "add",
            "_meta": {
                **META_2026,
                "io.modelcontextprotocol/logLevel": "info",
                "io.modelcontextprotocol/clientInfo": SERVER,
            },
        }
    ),
    call({"name": "add", "_meta": {**META_2026, "io.modelcontextprotocol/logLevel": "verbose"}}),
    call(
        {"name": "add", "_meta": {**META_2026, "io.modelcontextprotocol/protocolVersion": 20260728}}
    ),
    call({"name": "add", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
    call(
        {
            "name": "add",
            "_meta": {
                **META_2026,
                "io.modelcontextprotocol/clientCapabilities": {"experimental": {"x": {"y": None}}},
            },
        }
    ),
    call(
        {
            "name": "add",
            "_meta": {
                **META_2026,
                "io.modelcontextprotocol/clientCapabilities": {
                    "experimental": {"x": {"y": [1, "two", True]}}
                },
            },
        }
    ),
    call(
        {
            "name": "add",
            "_meta": {
                **META_2026,
                "io.modelcontextprotocol/clientCapabilities": {
                    "sampling": {"tools": {"ratio": 0.5}}
                },
            },
        }
    ),
    call({"name": "add", "task": {"ttl": 60000}}),
    call({"name": "add", "task": {"ttl": "long"}}),
    call({"name": "add", "_meta": META_2026, "requestState": "opaque"}),
    call({"name": "add", "_meta": META_2026, "requestState": 3}),
    call(
        {
            "name": "add",
            "_meta": META_2026,
            "inputResponses": {"q": {"action": "accept", "content": {"name": "Ada", "age": 36}}},
        }
    ),
    call(
        {
            "name": "add",
            "_meta": META_2026,
            "inputResponses": {"q": {"action": "accept", "content": {"height": 1.7}}},
        }
    ),
    call(
        {
            "name": "add",
            "_meta": META_2026,
            "inputResponses": {
                "q": {"action": "accept", "content": {"tags": ["a", "b"], "ok": True}}
            },
        }
    ),
    call({"name": "add", "_meta": META_2026, "inputResponses": {"q": {"action": "maybe"}}}),
    call(
        {
            "name": "add",
            "_meta": META_2026,
            "inputResponses": {"r": {"roots": [{"uri": "file:///home"}]}},
        }
    ),
    call(
        {"name": "add", "_meta": META_2026, "inputResponses": {"r": {"roots": [{"name": "home"}]}}}
    ),
    call(
        {
            "name": "add",
            "_meta": META_2026,
            "inputResponses": {"s": {"role": "assistant", "content": TEXT, "model": "m"}},
        }
    ),
    call(
        {
            "name": "add",
            "_meta": META_2026,
            "inputResponses": {
                "s": {
                    "role": "assistant",
                    "content": [TEXT, {"type": "tool_use", "id": "u", "name": "t", "input": {}}],
                    "model": "m",
                }
            },
        }
    ),
    call(
        {
            "name": "add",
            "_meta": META_2026,
            "inputResponses": {"s": {"role": "assistant", "content": LINK, "model": "m"}},
        }
    ),
    call(
        {
            "name": "add",
            "_meta": META_2026,
            "inputResponses": {
                "s": {
                    "role": "user",
                    "content": {"type": "tool_result", "toolUseId": "u", "content": [LINK]},
                    "model": "m",
                }
            },
        }
    ),
    call({"name": "add", "_meta": META_2026, "inputResponses": {"x": {"unrelated": 1}}}),
    call({"name": "add", "_meta": META_2026, "inputResponses": []}),
    {"method": "tools/call", "params": {"name": "add"}},
    {"jsonrpc": "2.0", "id": 7, "method": "tools/call"},
    {"jsonrpc": "2.0", "id": None, "method": "tools/call", "params": {"name": "add"}},
    {"jsonrpc": "2.0", "id": 1.5, "method": "tools/call", "params": {"name": "add"}},
    {"jsonrpc": "2.0", "id": "abc", "method": "tools/call", "params": {"name": "add"}},
    {"jsonrpc": "1.0", "id": 7, "method": "tools/call", "params": {"name": "add"}},
    {"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {"name": "add"}},
    call("add"),
]

_TOOLS: list[Any] = [
    TOOL,
    {"name": "t", "inputSchema": {"type": "object"}},
    {"name": "t", "inputSchema": {"type": "object", "properties": {"a": True}}},
    {"name": "t", "inputSchema": {"type": "object", "properties": []}},
    {"name": "t", "inputSchema": {"type": "object", "required": "a"}},
    {"name": "t", "inputSchema": {"type": "object", "required": [1]}},
    {"name": "t", "inputSchema": {"type": "array"}},
    {"name": "t", "inputSchema": {"properties": {}}},
    {
        "name": "t",
        "inputSchema": {
            "type": "object",
            "$schema": "https://json-schema.org/draft/2020-12/schema",
        },
    },
    {"name": "t", "inputSchema": {"type": "object", "$schema": 7}},
    {
        "name": "t",
        "inputSchema": {"type": "object", "additionalProperties": False, "anything": [1]},
    },
    {"name": "t", "inputSchema": True},
    {"name": "t"},
    {"inputSchema": {"type": "object"}},
    {"name": 1, "inputSchema": {"type": "object"}},
    {**TOOL, "description": "Adds.", "title": "Add"},
    {**TOOL, "description": 1},
    {**TOOL, "title": 1},
    {**TOOL, "outputSchema": {"type": "object", "properties": {"sum": {"type": "number"}}}},
    {**TOOL, "outputSchema": {}},
    {**TOOL, "outputSchema": {"type": "string"}},
    {**TOOL, "outputSchema": {"type": "object", "properties": {"sum": False}}},
    {**TOOL, "outputSchema": "none"},
    {
        **TOOL,
        "annotations": {
            "title": "Add",
            "readOnlyHint": True,
            "destructiveHint": False,
            "idempotentHint": True,
            "openWorldHint": False,
        },
    },
    {**TOOL, "annotations": {"readOnlyHint": "yes"}},
    {**TOOL, "annotations": []},
    {**TOOL, "icons": [{"src": "https://example.com/add.png", "mimeType": "image/png"}]},
    {**TOOL, "icons": [{"src": "https://example.com/add.png", "theme": "sepia"}]},
    {**TOOL, "icons": {"src": "x"}},
    {**TOOL, "execution": {"taskSupport": "optional"}},
    {**TOOL, "execution": {"taskSupport": "sometimes"}},
    {**TOOL, "_meta": {"k": "v"}},
    {**TOOL, "_meta": []},
]

_LIST_TOOLS_RESULTS: list[Any] = [
    {"tools": []},
    {"tools": [TOOL], "nextCursor": "n2"},
    {"tools": [TOOL], "nextCursor": 2},
    {"tools": [{"name": "t"}]},
    {"tools": {}},
    {"nextCursor": "x"},
    {"tools": [], "_meta": {"k": 1}},
    {"tools": [TOOL], "resultType": "complete", "cacheScope": "private", "ttlMs": 0},
    {
        "tools": [],
        "resultType": "complete",
        "cacheScope": "public",
        "ttlMs": 60000,
        "nextCursor": "c",
    },
    {"tools": [], "resultType": "complete", "cacheScope": "shared", "ttlMs": 0},
    {"tools": [], "resultType": "complete", "cacheScope": "private", "ttlMs": -1},
    {"tools": [], "resultType": "complete", "cacheScope": "private"},
    {"tools": [], "cacheScope": "private", "ttlMs": 0},
]

_LIST_TOOLS_REQUESTS: list[Any] = [
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"cursor": "c"}},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"cursor": 3}},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": META_2026}},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {"progressToken": []}}},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": []},
    {"method": "tools/list"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {}},
]

_INITIALIZE_REQUESTS: list[Any] = [
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "c", "version": "1"},
        },
    },
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {"roots": {"listChanged": True}, "sampling": {}, "elicitation": {}},
            "clientInfo": {"name": "c", "title": "C", "version": "1"},
        },
    },
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {
                "elicitation": {"form": {}, "url": {}},
                "sampling": {"context": {}, "tools": {}},
                "tasks": {
                    "list": {},
                    "cancel": {},
                    "requests": {"sampling": {"createMessage": {}}, "elicitation": {"create": {}}},
                },
            },
            "clientInfo": {
                "name": "c",
                "version": "1",
                "websiteUrl": "https://example.com",
                "icons": [{"src": "https://example.com/c.png"}],
            },
        },
    },
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"elicitation": {"form": 1}},
            "clientInfo": {"name": "c", "version": "1"},
        },
    },
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"elicitation": []},
            "clientInfo": {"name": "c", "version": "1"},
        },
    },
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tasks": {"requests": {"sampling": 1}}},
            "clientInfo": {"name": "c", "version": "1"},
        },
    },
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"experimental": {"x": 1}},
            "clientInfo": {"name": "c", "version": "1"},
        },
    },
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "c"},
        },
    },
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "c", "version": "1", "title": 3},
        },
    },
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"capabilities": {}, "clientInfo": {"name": "c", "version": "1"}},
    },
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": 20251125,
            "capabilities": {},
            "clientInfo": {"name": "c", "version": "1"},
        },
    },
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "c", "version": "1"},
            "_meta": {"progressToken": None},
        },
    },
    {"jsonrpc": "2.0", "id": 1, "method": "initialize"},
    {
        "method": "initialize",
        "params": {
            "protocolVersion": "2024-11-05",
            "capabilities": {},
            "clientInfo": {"name": "c", "version": "1"},
        },
    },
]

_INITIALIZE_RESULTS: list[Any] = [
    {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": SERVER},
    {
        "protocolVersion": "2024-11-05",
        "capabilities": {
            "tools": {"listChanged": True},
            "logging": {},
            "prompts": {},
            "resources": {"subscribe": True},
            "experimental": {},
        },
        "serverInfo": SERVER,
        "instructions": "Be nice.",
    },
    {"protocolVersion": "2025-03-26", "capabilities": {"completions": {}}, "serverInfo": SERVER},
    {"protocolVersion": "2025-03-26", "capabilities": {"completions": []}, "serverInfo": SERVER},
    {
        "protocolVersion": "2025-11-25",
        "capabilities": {"tasks": {"list": {}, "requests": {"tools": {"call": {}}}}},
        "serverInfo": SERVER,
    },
    {
        "protocolVersion": "2025-11-25",
        "capabilities": {"tasks": {"requests": {"tools": {"call": True}}}},
        "serverInfo": SERVER,
    },
    {
        "protocolVersion": "2025-11-25",
        "capabilities": {"tools": {"listChanged": "yes"}},
        "serverInfo": SERVER,
    },
    {
        "protocolVersion": "2025-11-25",
        "capabilities": {"resources": {"subscribe": 1}},
        "serverInfo": SERVER,
    },
    {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "serverInfo": {**SERVER, "websiteUrl": 5},
    },
    {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "serverInfo": {**SERVER, "description": "d", "title": "S"},
    },
    {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": SERVER, "instructions": 1},
    {"protocolVersion": "2025-11-25", "capabilities": {}},
    {"capabilities": {}, "serverInfo": SERVER},
    {"protocolVersion": "2025-11-25", "capabilities": [], "serverInfo": SERVER},
    {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": SERVER, "_meta": 1},
]

_ENVELOPES: list[Any] = [
    {"jsonrpc": "2.0", "id": 1, "method": "ping"},
    {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"_meta": {"progressToken": 3}}},
    {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"_meta": {"progressToken": 3.5}}},
    {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"_meta": 4}},
    {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": [1]},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"_meta": "x"}},
    {"jsonrpc": "2.0", "method": 5},
    {"jsonrpc": "2.0", "id": 1, "result": {}},
    {"jsonrpc": "2.0", "id": 1, "result": {"_meta": []}},
    {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete"}},
    {"jsonrpc": "2.0", "id": 1, "result": []},
    {"jsonrpc": "2.0", "result": {}},
    {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Invalid params"}},
    {
        "jsonrpc": "2.0",
        "id": "a",
        "error": {"code": -32602, "message": "Invalid arguments", "data": {"field": "date"}},
    },
    {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}},
    {"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}},
    {"jsonrpc": "2.0", "id": 1.5, "error": {"code": -32600, "message": "Invalid Request"}},
    {"jsonrpc": "2.0", "id": 1, "error": {"code": "bad", "message": "x"}},
    {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602}},
    {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602.5, "message": "x"}},
    {"jsonrpc": "2.0", "id": 1, "error": "oops"},
    {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {
            "code": -32022,
            "message": "Unsupported protocol version",
            "data": {"requested": "2099-01-01", "supported": ["2026-07-28"]},
        },
    },
    {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {"code": -32022, "message": "Unsupported protocol version"},
    },
    {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {"code": -32022, "message": "x", "data": {"requested": "2099-01-01"}},
    },
    {"id": 1, "result": {}},
    {"jsonrpc": 2.0, "id": 1, "result": {}},
    [],
    [
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ],
    [
        {"jsonrpc": "2.0", "id": 1, "result": {}},
        {"jsonrpc": "2.0", "id": 2, "error": {"code": -1, "message": "m"}},
    ],
    [{"jsonrpc": "2.0", "id": 1, "result": {}}, {"jsonrpc": "2.0", "id": 2, "method": "ping"}],
    [1, 2],
]

_ENVELOPE_DEFINITIONS = (
    "JSONRPCMessage",
    "JSONRPCRequest",
    "JSONRPCNotification",
    "JSONRPCResponse",
    "JSONRPCResultResponse",
    "JSONRPCError",
    "JSONRPCErrorResponse",
    "JSONRPCBatchRequest",
    "JSONRPCBatchResponse",
    "UnsupportedProtocolVersionError",
)

_ERROR_OBJECTS: list[Any] = [
    {"code": -32602, "message": "Invalid params"},
    {"code": -32602, "message": "Invalid params", "data": None},
    {"code": -32602},
    {"message": "x"},
    {"code": -32601, "message": "Method not found"},
    {"code": -32700, "message": "Parse error"},
    {"code": -32600, "message": "Invalid Request"},
    {"code": -32603, "message": "Internal error"},
    {"code": 1.5, "message": "x"},
    {"code": -32602, "message": 5},
]
_ERROR_DEFINITIONS = (
    "Error",
    "ParseError",
    "InvalidRequestError",
    "MethodNotFoundError",
    "InvalidParamsError",
    "InternalError",
)

_SAMPLING_AND_ELICITATION: list[tuple[str, Any]] = [
    ("InputRequiredResult", {"resultType": "input_required", "inputRequests": {"q": ELICIT_FORM}}),
    ("InputRequiredResult", {"resultType": "input_required", "requestState": "abc"}),
    ("InputRequiredResult", {"resultType": "input_required"}),
    ("InputRequiredResult", {"inputRequests": {}}),
    (
        "InputRequiredResult",
        {"resultType": "input_required", "inputRequests": {"q": {"method": "roots/list"}}},
    ),
    (
        "InputRequiredResult",
        {
            "resultType": "input_required",
            "inputRequests": {"q": {"method": "roots/list", "params": {"_meta": 1}}},
        },
    ),
    (
        "InputRequiredResult",
        {"resultType": "input_required", "inputRequests": {"q": {"method": "ping"}}},
    ),
    (
        "InputRequiredResult",
        {
            "resultType": "input_required",
            "inputRequests": {
                "q": {
                    "method": "sampling/createMessage",
                    "params": {"messages": [{"role": "user", "content": TEXT}], "maxTokens": 100},
                }
            },
        },
    ),
    (
        "InputRequiredResult",
        {
            "resultType": "input_required",
            "inputRequests": {
                "q": {
                    "method": "sampling/createMessage",
                    "params": {
                        "messages": [{"role": "user", "content": TEXT}],
                        "maxTokens": 100,
                        "tools": [TOOL],
                        "toolChoice": {"mode": "auto"},
                        "modelPreferences": {"hints": [{"name": "claude"}], "costPriority": 0.2},
                        "includeContext": "none",
                        "temperature": 0.3,
                        "stopSequences": ["\n"],
                        "metadata": {"k": "v"},
                        "systemPrompt": "s",
                    },
                }
            },
        },
    ),
    (
        "InputRequiredResult",
        {
            "resultType": "input_required",
            "inputRequests": {
                "q": {
                    "method": "sampling/createMessage",
                    "params": {"messages": [], "maxTokens": 1, "toolChoice": {"mode": "always"}},
                }
            },
        },
    ),
    (
        "InputRequiredResult",
        {
            "resultType": "input_required",
            "inputRequests": {
                "q": {
                    "method": "sampling/createMessage",
                    "params": {"messages": [], "maxTokens": 1, "metadata": {"ratio": 0.5}},
                }
            },
        },
    ),
    (
        "InputRequiredResult",
        {
            "resultType": "input_required",
            "inputRequests": {
                "q": {
                    "method": "sampling/createMessage",
                    "params": {
                        "messages": [],
                        "maxTokens": 1,
                        "modelPreferences": {"speedPriority": 3},
                    },
                }
            },
        },
    ),
    (
        "InputRequiredResult",
        {
            "resultType": "input_required",
            "inputRequests": {
                "q": {
                    "method": "sampling/createMessage",
                    "params": {"messages": [{"role": "user", "content": [LINK]}], "maxTokens": 1},
                }
            },
        },
    ),
    (
        "InputRequiredResult",
        {
            "resultType": "input_required",
            "inputRequests": {
                "q": {"method": "sampling/createMessage", "params": {"maxTokens": 1}}
            },
        },
    ),
    ("ElicitRequest", ELICIT_FORM),
    (
        "ElicitRequest",
        {
            "method": "elicitation/create",
            "params": {"mode": "url", "message": "Log in", "url": "https://example.com/login"},
        },
    ),
    (
        "ElicitRequest",
        {
            "method": "elicitation/create",
            "params": {"message": "Log in", "url": "https://example.com/login"},
        },
    ),
    (
        "ElicitRequest",
        {
            "method": "elicitation/create",
            "params": {"message": "m", "requestedSchema": {"type": "object", "properties": {}}},
        },
    ),
    (
        "ElicitRequest",
        {
            "method": "elicitation/create",
            "params": {"message": "m", "requestedSchema": {"type": "object"}},
        },
    ),
    (
        "ElicitRequest",
        {
            "method": "elicitation/create",
            "params": {
                "message": "m",
                "requestedSchema": {"type": "object", "properties": {"x": {"type": "object"}}},
            },
        },
    ),
    (
        "ElicitRequest",
        {
            "method": "elicitation/create",
            "params": {
                "message": "m",
                "requestedSchema": {
                    "type": "object",
                    "properties": {"x": {"type": "string", "format": "uuid"}},
                },
            },
        },
    ),
    (
        "PrimitiveSchemaDefinition",
        {
            "type": "string",
            "title": "Name",
            "minLength": 1,
            "maxLength": 10,
            "format": "email",
            "default": "a@b.c",
        },
    ),
    (
        "PrimitiveSchemaDefinition",
        {"type": "number", "minimum": 0.5, "maximum": 9.5, "default": 1.5},
    ),
    ("PrimitiveSchemaDefinition", {"type": "integer", "minimum": "0"}),
    ("PrimitiveSchemaDefinition", {"type": "boolean", "default": False}),
    ("PrimitiveSchemaDefinition", {"type": "boolean", "default": "no"}),
    ("PrimitiveSchemaDefinition", {"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"]}),
    ("PrimitiveSchemaDefinition", {"type": "string", "oneOf": [{"const": "a", "title": "A"}]}),
    ("PrimitiveSchemaDefinition", {"type": "string", "oneOf": [{"const": "a"}]}),
    (
        "PrimitiveSchemaDefinition",
        {
            "type": "array",
            "items": {"type": "string", "enum": ["a"]},
            "minItems": 1,
            "default": ["a"],
        },
    ),
    (
        "PrimitiveSchemaDefinition",
        {"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}, "maxItems": 2},
    ),
    ("PrimitiveSchemaDefinition", {"type": "array", "items": {"type": "string"}}),
    ("PrimitiveSchemaDefinition", {"type": "null"}),
    (
        "ElicitResult",
        {"action": "accept", "content": {"name": "Ada", "n": 3, "ok": True, "tags": ["x"]}},
    ),
    ("ElicitResult", {"action": "accept", "content": {"n": 3.5}}),
    ("ElicitResult", {"action": "accept", "content": {"tags": [1]}}),
    ("ElicitResult", {"action": "decline"}),
    ("ElicitResult", {"action": "ignore"}),
    ("ListRootsResult", {"roots": [{"uri": "file:///home", "name": "home", "_meta": {}}]}),
    ("ListRootsResult", {"roots": [{"uri": 5}]}),
    (
        "CreateMessageResult",
        {"role": "assistant", "content": TEXT, "model": "m", "stopReason": "endTurn"},
    ),
    ("CreateMessageResult", {"role": "assistant", "content": [TEXT, AUDIO], "model": "m"}),
    ("CreateMessageResult", {"role": "assistant", "content": EMBEDDED_TEXT, "model": "m"}),
    ("CreateMessageResult", {"role": "system", "content": TEXT, "model": "m"}),
    (
        "CreateMessageResult",
        {
            "role": "assistant",
            "content": {"type": "tool_use", "id": "u", "name": "t"},
            "model": "m",
        },
    ),
    (
        "DiscoverRequest",
        {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": META_2026}},
    ),
    ("DiscoverRequest", {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}}),
    ("DiscoverRequest", {"jsonrpc": "2.0", "id": 1, "method": "server/discover"}),
    (
        "DiscoverResult",
        {
            "resultType": "complete",
            "cacheScope": "public",
            "ttlMs": 1000,
            "supportedVersions": ["2025-11-25", "2026-07-28"],
            "capabilities": {"tools": {}},
        },
    ),
    (
        "DiscoverResult",
        {
            "resultType": "complete",
            "cacheScope": "public",
            "ttlMs": 1000,
            "supportedVersions": "2026-07-28",
            "capabilities": {},
        },
    ),
    (
        "DiscoverResult",
        {
            "resultType": "complete",
            "cacheScope": "public",
            "ttlMs": 1000,
            "supportedVersions": [],
            "capabilities": {"logging": {"x": None}},
        },
    ),
    (
        "DiscoverResult",
        {
            "resultType": "complete",
            "cacheScope": "public",
            "ttlMs": 1000,
            "supportedVersions": [],
            "capabilities": {"extensions": {"io.example/x": {"on": True}}},
        },
    ),
    (
        "DiscoverResultResponse",
        result(
            {
                "resultType": "complete",
                "cacheScope": "public",
                "ttlMs": 0,
                "supportedVersions": [],
                "capabilities": {},
            }
        ),
    ),
    ("DiscoverResultResponse", result({"resultType": "complete"})),
    ("JSONValue", {"a": [1, "x", True, {"b": []}]}),
    ("JSONValue", None),
    ("JSONValue", 0.5),
    ("JSONValue", [None]),
    ("JSONObject", {"a": {"b": False}}),
    ("JSONObject", {"a": 1.25}),
    ("JSONArray", [1, "a"]),
    ("JSONArray", [1.5]),
    ("RequestMetaObject", META_2026),
    ("RequestMetaObject", {**META_2026, "progressToken": "p"}),
    ("RequestMetaObject", {**META_2026, "io.modelcontextprotocol/clientInfo": {"name": "c"}}),
    ("RequestMetaObject", {"io.modelcontextprotocol/clientCapabilities": {}}),
    ("ResultMetaObject", {"io.modelcontextprotocol/serverInfo": SERVER}),
    ("ResultMetaObject", {"io.modelcontextprotocol/serverInfo": 1}),
    ("CacheableResult", {"resultType": "complete", "cacheScope": "private", "ttlMs": 5}),
    ("CacheableResult", {"resultType": "complete", "cacheScope": "private", "ttlMs": 5.5}),
    ("Icons", {"icons": [{"src": "data:image/png;base64,AA=="}]}),
    ("Icons", {"icons": [{}]}),
    ("ToolExecution", {"taskSupport": "required"}),
    ("TaskMetadata", {"ttl": 5}),
    ("TaskMetadata", {"ttl": None}),
    ("ProgressToken", "p"),
    ("ProgressToken", 1),
    ("ProgressToken", 1.5),
    ("RequestId", None),
    ("RequestId", "7"),
    ("RequestId", 7.0),
    ("Cursor", "c"),
    ("Cursor", 1),
    ("Role", "user"),
    ("Role", "system"),
    ("LoggingLevel", "notice"),
    ("LoggingLevel", "trace"),
    ("ResultType", "complete"),
    ("ResultType", "anything"),
    ("Annotated", {"annotations": {"priority": 1}}),
    ("Annotated", {"annotations": {"priority": -1}}),
    ("EmptyResult", {}),
    ("EmptyResult", {"resultType": "complete"}),
    (
        "Result",
        {
            "_meta": {"io.modelcontextprotocol/serverInfo": {"version": "1"}},
            "resultType": "complete",
        },
    ),
    ("ToolUseContent", {"type": "tool_use", "id": "u", "name": "t", "input": {"a": 1}}),
    ("ToolUseContent", {"type": "tool_use", "id": "u", "name": "t", "input": []}),
    (
        "ToolResultContent",
        {
            "type": "tool_result",
            "toolUseId": "u",
            "content": [TEXT],
            "structuredContent": 3,
            "isError": False,
        },
    ),
    ("ToolResultContent", {"type": "tool_result", "toolUseId": "u"}),
    ("SamplingMessage", {"role": "user", "content": [TEXT, IMAGE]}),
    ("SamplingMessage", {"role": "user", "content": LINK}),
    ("ModelPreferences", {"intelligencePriority": 1.5}),
    ("ToolChoice", {"mode": "none"}),
    ("ModelHint", {"name": 1}),
    ("Root", {"uri": "file:///x"}),
    ("ElicitRequestURLParams", {"mode": "url", "message": "m", "url": "https://x"}),
    (
        "ElicitRequestFormParams",
        {"mode": "url", "message": "m", "requestedSchema": {"type": "object", "properties": {}}},
    ),
]


def handwritten() -> list[tuple[str, Any]]:
    """Every hand-written (definition, instance) pair, with whole messages and results wrapped too."""
    pairs: list[tuple[str, Any]] = []
    pairs += [("CallToolResult", value) for value in _CALL_TOOL_RESULTS]
    pairs += [("CallToolResultResponse", result(value)) for value in _CALL_TOOL_RESULTS]
    pairs += [("CallToolRequest", value) for value in _CALL_TOOL_REQUESTS]
    pairs += [("Tool", value) for value in _TOOLS]
    pairs += [("ListToolsResult", value) for value in _LIST_TOOLS_RESULTS]
    pairs += [("ListToolsResultResponse", result(value)) for value in _LIST_TOOLS_RESULTS]
    pairs += [("ListToolsRequest", value) for value in _LIST_TOOLS_REQUESTS]
    pairs += [("InitializeRequest", value) for value in _INITIALIZE_REQUESTS]
    pairs += [("InitializeResult", value) for value in _INITIALIZE_RESULTS]
    pairs += [("InitializeResultResponse", result(value)) for value in _INITIALIZE_RESULTS]
    pairs += [(name, value) for value in _ENVELOPES for name in _ENVELOPE_DEFINITIONS]
    pairs += [(name, value) for value in _ERROR_OBJECTS for name in _ERROR_DEFINITIONS]
    pairs += _SAMPLING_AND_ELICITATION
    return pairs
