"""Download an official MCP schema into the cache that :mod:`migrator.judge.official` reads.

A separate step from reading schemas: it is the one place that goes to the network,
and it writes through the project's one atomic writer, so a failed or interrupted
download never leaves half a schema in the cache.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from migrator.errors import InputError, UsageError
from migrator.fix.writer import write_file
from migrator.judge.official import DEFAULT_URL, PINNED_SHA256, TIMEOUT_SECONDS, cached_path

__all__ = ["fetch"]


def fetch(version: str, url: str | None = None, sha256: str | None = None) -> Path:
    """Download a version's official schema, verify it, and store it in the cache.

    Args:
        version: a protocol version with a pinned checksum (or any, with ``sha256``).
        url: where to download from (``{version}`` is filled in); the pinned
            specification commit by default.
        sha256: the expected checksum; the pinned one by default.

    Returns:
        The path of the stored file.

    Raises:
        UsageError: no checksum is known for the version.
        InputError: the download failed or the checksum does not match; nothing
            is stored.
    """
    expected = sha256 or PINNED_SHA256.get(version)
    if expected is None:
        raise UsageError(
            f"no pinned checksum for version {version!r} (known: {', '.join(PINNED_SHA256)}); "
            "pass --sha256 to fetch another"
        )
    import urllib.error  # only here: a download is rare, and urllib is slow to import
    import urllib.request

    source = (url or DEFAULT_URL).replace("{version}", version)
    try:
        with urllib.request.urlopen(source, timeout=TIMEOUT_SECONDS) as response:
            data = response.read()
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise InputError(
            f"could not download the {version} schema: {reason}; nothing cached", path=source
        ) from exc
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise InputError(
            f"checksum mismatch for the {version} schema: expected sha256 {expected}, got {actual}; nothing cached",
            path=source,
        )
    try:
        json.loads(data)
    except ValueError as exc:
        raise InputError(
            f"the downloaded {version} schema is not JSON; nothing cached", path=source
        ) from exc
    target = cached_path(version)
    target.parent.mkdir(parents=True, exist_ok=True)
    return write_file(target, [data])
