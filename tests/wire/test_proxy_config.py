"""``proxy`` follows the project's configuration file, as ``check`` and ``fix`` do.

The proxy runs as a real subprocess in a folder holding ``.mcp-transcripts.yaml``
(or the former ``.mcp-migrate.yaml``), in front of the tiny stdio server.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import pytest

from tests.wire.helpers import Peer, call, compact, handshake, migrate, tiny_server

INVALID_ADD = call(12, "add", {"a": "two", "b": 3})  # the server answers -32602 "Invalid arguments"
UNKNOWN_TOOL = call(13, "nope", {})  # the server answers -32602 "Tool nope not found"


class StartProxy(Protocol):
    def __call__(self, *, shake: bool = True) -> Peer: ...


@pytest.fixture
def proxy_in(tmp_path: Path) -> Iterator[StartProxy]:
    """A proxy started in ``tmp_path`` (where the test writes its configuration), after the handshake."""
    peers: list[Peer] = []

    def start(*, shake: bool = True) -> Peer:
        peer = Peer(migrate("proxy", "--", *tiny_server()), cwd=tmp_path)
        peers.append(peer)
        if shake:
            handshake(peer)
        return peer

    yield start
    for peer in peers:
        peer.kill()


def answers(peer: Peer) -> tuple[dict[str, Any], dict[str, Any]]:
    # No handshake: without the server's catalog, only the wording of an error says
    # what it is, so the configured patterns decide.
    invalid, unknown = peer.request(INVALID_ADD), peer.request(UNKNOWN_TOOL)
    assert peer.finish() == 0
    return json.loads(invalid), json.loads(unknown)


def test_without_configuration_only_the_validation_error_is_rewritten(
    proxy_in: StartProxy, tmp_path: Path
) -> None:
    invalid, unknown = answers(proxy_in(shake=False))
    assert invalid["result"]["isError"] is True
    assert unknown["error"]["message"] == "Tool nope not found"


def test_validation_patterns_from_the_file_apply_to_live_traffic(
    proxy_in: StartProxy, tmp_path: Path
) -> None:
    (tmp_path / ".mcp-transcripts.yaml").write_text(
        "validation-patterns:\n  - '^Tool \\S+ not found'\n"
    )
    peer = proxy_in(shake=False)
    invalid, unknown = answers(peer)
    assert invalid["result"]["isError"] is True
    assert "error" not in unknown and unknown["result"]["isError"] is True
    assert unknown["result"]["content"][0]["text"].startswith("Tool nope not found")
    assert "warning" not in peer.stderr


def test_ignore_from_the_file_leaves_the_answer_as_the_server_wrote_it(
    proxy_in: StartProxy, tmp_path: Path
) -> None:
    (tmp_path / ".mcp-transcripts.yaml").write_text("ignore: [MCP101]\n")
    peer = proxy_in()
    original = peer.request(INVALID_ADD)
    assert peer.finish() == 0
    assert original.startswith(
        b'{"jsonrpc":"2.0","id":12,"error":{"code":-32602,"message":"MCP error -32602: Invalid'
    )
    assert "MCP101" not in peer.stderr


def test_a_file_of_the_former_name_applies_with_a_notice(
    proxy_in: StartProxy, tmp_path: Path
) -> None:
    (tmp_path / ".mcp-migrate.yaml").write_text("ignore: [MCP101]\n")
    peer = proxy_in()
    original = json.loads(peer.request(INVALID_ADD))
    assert peer.finish() == 0
    assert original["error"]["code"] == -32602
    assert (
        ".mcp-migrate.yaml is deprecated; rename the file to .mcp-transcripts.yaml" in peer.stderr
    )


def test_an_invalid_file_stops_the_proxy_before_the_server_starts(tmp_path: Path) -> None:
    (tmp_path / ".mcp-transcripts.yaml").write_text("ignore: [NOPE999]\n")
    peer = Peer(migrate("proxy", "--", *tiny_server()), cwd=tmp_path)
    try:
        assert peer.wait() == 2
        assert ".mcp-transcripts.yaml" in peer.stderr and "NOPE999" in peer.stderr
    finally:
        peer.kill()


def test_compact_is_the_wire_form() -> (
    None
):  # the requests above go out as the client would send them
    assert compact(INVALID_ADD).endswith(b"}\n") and b" " not in compact(INVALID_ADD)
