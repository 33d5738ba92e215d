"""Fixtures of the wire tests: processes that are always cleaned up."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from tests.wire.helpers import Peer, Spawn


@pytest.fixture
def spawn() -> Iterator[Spawn]:
    """Start a :class:`Peer`; whatever still runs at the end of the test is killed."""
    peers: list[Peer] = []

    def start(command: Sequence[str]) -> Peer:
        peer = Peer(command)
        peers.append(peer)
        return peer

    yield start
    for peer in peers:
        peer.kill()
