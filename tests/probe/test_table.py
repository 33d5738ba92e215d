"""The probe's table heading (issue 28): a server without a version is named alone."""

from __future__ import annotations

import pytest

from migrator.live.probe.client import ServerFacts
from migrator.live.probe.prober import ProbeReport
from migrator.live.probe.table import render


@pytest.mark.parametrize(
    ("version", "named"),
    [("", "old-inventory"), ("  ", "old-inventory"), ("2.1.0", "old-inventory 2.1.0")],
)
def test_the_heading_names_the_server_and_its_version_if_any(version: str, named: str) -> None:
    facts = ServerFacts(version="2025-06-18", server_name="old-inventory", server_version=version)
    head = render(ProbeReport(facts)).splitlines()[0]
    assert head.startswith(f"Probed {named} (protocol 2025-06-18): 0 calls in ")


def test_a_server_info_without_version_is_not_shown_as_a_question_mark() -> None:
    head = render(ProbeReport(ServerFacts(server_name="old-inventory"))).splitlines()[0]
    assert head.startswith("Probed old-inventory (protocol unknown)")
