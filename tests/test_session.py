"""The session model: pairing, directions, versions and the tool catalog."""

from __future__ import annotations

import json
from typing import Any

from migrator.model.session import Exchange, SessionTracker
from migrator.model.units import Direction, SourceMessage


def feed(
    *messages: dict[str, Any], tracker: SessionTracker | None = None
) -> tuple[SessionTracker, list[Exchange]]:
    tracker = tracker or SessionTracker()
    out = []
    for line, payload in enumerate(messages, start=1):
        exchange = tracker.observe(SourceMessage(payload, 0, len(json.dumps(payload)), line, 1))
        if exchange is not None:
            out.append(exchange)
    return tracker, out


def req(i: Any, method: str, params: Any = None) -> dict[str, Any]:
    m = {"jsonrpc": "2.0", "id": i, "method": method}
    if params is not None:
        m["params"] = params
    return m


def res(i: Any, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": i, "result": result}


def test_ids_keep_their_json_type() -> None:
    _, exchanges = feed(req(1, "tools/list"), req("1", "ping"), res("1", {}), res(1, {"tools": []}))
    assert [(e.method, e.request.line) for e in exchanges] == [("ping", 2), ("tools/list", 1)]


def test_same_id_in_flight_both_ways() -> None:
    _, exchanges = feed(
        req(4, "tools/call", {"name": "x", "arguments": {}}),
        req(4, "sampling/createMessage", {"messages": [], "maxTokens": 1}),
        res(4, {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"}),
        res(4, {"content": [{"type": "text", "text": "done"}]}),
    )
    assert [(e.method, e.direction) for e in exchanges] == [
        ("sampling/createMessage", Direction.SERVER_TO_CLIENT),
        ("tools/call", Direction.CLIENT_TO_SERVER),
    ]
    assert exchanges[1].response.direction is Direction.SERVER_TO_CLIENT


def test_server_ping_with_a_colliding_id() -> None:
    _, exchanges = feed(
        req(7, "tools/call", {"name": "x"}), req(7, "ping"), res(7, {}), res(7, {"content": []})
    )
    assert [e.method for e in exchanges] == ["ping", "tools/call"]
    assert "in flight both ways" in exchanges[0].notes[0]


def test_version_from_initialize_result_and_new_session() -> None:
    tracker, _ = feed(
        req(1, "initialize", {"protocolVersion": "2025-11-25"}),
        res(1, {"protocolVersion": "2025-06-18"}),
    )
    assert (tracker.session.number, tracker.session.version) == (1, "2025-06-18")
    assert tracker.session.version_source == "initialize result at line 2"
    feed(req(1, "initialize", {"protocolVersion": "2025-11-25"}), tracker=tracker)
    assert (tracker.session.number, tracker.session.version) == (2, "2025-11-25")
    assert "no result seen" in tracker.session.version_source


def test_per_request_meta_version() -> None:
    meta = {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}
    _, (exchange,) = feed(req(1, "tools/call", {"name": "t", **meta}), res(1, {"content": []}))
    assert exchange.version == "2026-07-28" and "request _meta" in exchange.version_source


def test_catalog_pagination_and_list_changed() -> None:
    tracker, _ = feed(
        req(1, "tools/list"),
        res(1, {"tools": [{"name": "a"}], "nextCursor": "2"}),
    )
    catalog = tracker.session.catalog
    assert not catalog.complete and "a" in catalog.tools
    feed(req(2, "tools/list", {"cursor": "2"}), res(2, {"tools": [{"name": "b"}]}), tracker=tracker)
    assert catalog.authoritative and set(catalog.tools) == {"a", "b"}
    feed({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}, tracker=tracker)
    assert catalog.complete and not catalog.authoritative
    feed(req(3, "tools/list"), res(3, {"tools": [{"name": "c"}]}), tracker=tracker)
    assert catalog.authoritative and set(catalog.tools) == {"c"}


def test_listing_that_starts_mid_way_is_not_complete() -> None:
    tracker, _ = feed(req(1, "tools/list", {"cursor": "p9"}), res(1, {"tools": [{"name": "z"}]}))
    assert not tracker.session.catalog.complete


def test_orphan_response_is_reported_with_a_note() -> None:
    _, (exchange,) = feed(res(9, {}))
    assert exchange.request is None and exchange.notes == ["no request with id 9 is in flight"]
