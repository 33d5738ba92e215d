"""MkDocs hook: link the API reference to the Python docs' inventory, when it can be fetched.

With ``objects.inv`` from docs.python.org, a signature's ``Path`` or ``TextIO`` links to the
standard library's page. The site must also build offline (CI sandboxes, a laptop on a
train, the test suite), and mkdocstrings fails a strict build when an inventory cannot be
downloaded. So the inventory is added only when its host answers within a moment;
``MCP_TRANSCRIPTS_DOCS_OFFLINE=1`` skips even the probe. An offline build is identical
except that standard-library names in signatures are plain text.
"""

from __future__ import annotations

import logging
import os
import socket
from typing import Any
from urllib.parse import urlsplit

from mkdocs.plugins import event_priority

# MCP_TRANSCRIPTS_PYTHON_INVENTORY points at a mirror (the tests serve one locally).
PYTHON_INVENTORY = os.environ.get(
    "MCP_TRANSCRIPTS_PYTHON_INVENTORY", "https://docs.python.org/3/objects.inv"
)
PROBE_SECONDS = 2.0

log = logging.getLogger("mkdocs.hooks.inventories")


def reachable(url: str, timeout: float = PROBE_SECONDS) -> bool:
    """Whether a TCP connection to the URL's host opens within ``timeout`` seconds."""
    if os.environ.get("MCP_TRANSCRIPTS_DOCS_OFFLINE") == "1":
        return False
    parts = urlsplit(url)
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        with socket.create_connection((parts.hostname or "", port), timeout=timeout):
            return True
    except OSError:
        return False


@event_priority(100)  # before mkdocstrings' on_config, which downloads the inventories
def on_config(config: Any, **kwargs: Any) -> Any:
    python = config.plugins["mkdocstrings"].config.handlers.setdefault("python", {})
    inventories = python.setdefault("inventories", [])
    if PYTHON_INVENTORY in inventories:
        return config
    if reachable(PYTHON_INVENTORY):
        inventories.append(PYTHON_INVENTORY)
    else:
        log.info(
            "offline: building without %s (standard-library names stay plain text)",
            PYTHON_INVENTORY,
        )
    return config
