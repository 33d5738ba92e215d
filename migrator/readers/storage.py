"""Objects at URLs (``s3://``, ``gs://``, ``az://``, ``abfs://``, ``http(s)://``), read through fsspec.

Every command that reads files reads objects too: a URL names one object, or a
prefix listed like a folder. fsspec and the file system of each store come with
the optional ``cloud`` extra (``pip install 'mcp-transcripts[cloud]'``); nothing
here imports fsspec until a URL is given, so a run over local files never pays
for it (nor needs it installed).

Credentials and endpoints are found the way each store's own tools find them
(AWS profiles, ``AWS_ENDPOINT_URL``; Google application default credentials;
the Azure environment variables); ``--storage-option KEY=VALUE`` adds the keyword
arguments of the store's fsspec file system. A value is read as JSON where it is
JSON (``anon=true``, ``client_kwargs={"region_name": "eu-west-1"}``) and as text
otherwise, and stays text until a file system is made, so the options of a run
pickle and hash as the rest of :class:`~migrator.engine.options.Options` does.

Globs (``include``, ``exclude``, ``per-file-ignores``) match an object by its
key within its bucket (``s3://logs/mcp-audit-logs/2025/01/02/a.jsonl`` is
``mcp-audit-logs/2025/01/02/a.jsonl``): the bucket is the root.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, BinaryIO, cast

from migrator.errors import InputError, UsageError

if TYPE_CHECKING:
    from fsspec import AbstractFileSystem

__all__ = [
    "CLOUD_EXTRA",
    "StorageOptions",
    "filesystem",
    "is_url",
    "key_of",
    "object_size",
    "open_object",
    "parse_storage_option",
    "remember_size",
    "walk_prefix",
]

CLOUD_EXTRA = "pip install 'mcp-transcripts[cloud]'"
"""How to get fsspec and the stores' file systems, as error messages say it."""

StorageOptions = tuple[tuple[str, str], ...]
"""``--storage-option`` pairs as given: key, and the value's text."""

_URL = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]+)://")

# Which package brings the file system of each scheme (for the error when it is missing).
_PACKAGE_OF = {
    "s3": "s3fs",
    "s3a": "s3fs",
    "gs": "gcsfs",
    "gcs": "gcsfs",
    "az": "adlfs",
    "abfs": "adlfs",
    "abfss": "adlfs",
    "http": "aiohttp",
    "https": "aiohttp",
}

# The sizes a listing gave, by URL (bounded: a listing of millions keeps the latest).
_LISTED_SIZES: dict[str, int] = {}
_MAX_LISTED = 1_000_000

# Read whole objects in big ranges: each request to a store costs a round trip.
_BLOCK = 8 << 20


def is_url(path: object) -> bool:
    """Whether ``path`` names an object by URL (``scheme://...``) rather than a local file.

    A :class:`~pathlib.Path` never does (it would have folded the ``//``).
    """
    return isinstance(path, str) and _URL.match(path) is not None


def parse_storage_option(text: str) -> tuple[str, str]:
    """One ``--storage-option KEY=VALUE``, checked.

    Raises:
        UsageError: no ``=``, or an empty key.
    """
    key, equals, value = text.partition("=")
    if not equals or not key.strip():
        raise UsageError(f"--storage-option wants KEY=VALUE, not {text!r}")
    return key.strip(), value


def _decoded(options: StorageOptions) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key, text in options:
        try:
            values[key] = json.loads(text)
        except ValueError:
            values[key] = text
    return values


def _scheme(url: str) -> str:
    match = _URL.match(url)
    return match.group("scheme").lower() if match else "file"


def filesystem(url: str, options: StorageOptions = ()) -> tuple[AbstractFileSystem, str]:
    """The fsspec file system for ``url`` and the object's path in it.

    Raises:
        UsageError: fsspec, or the file system of this scheme, is not installed
            (the message says which extra to install), or the scheme is unknown.
    """
    try:
        from fsspec.core import url_to_fs
    except ImportError as exc:
        raise UsageError(
            f"reading {_scheme(url)}:// URLs needs the cloud extra: {CLOUD_EXTRA}", path=url
        ) from exc
    try:
        return _filesystem(url, options, url_to_fs)
    except ImportError as exc:
        package = _PACKAGE_OF.get(_scheme(url), "its fsspec file system")
        raise UsageError(
            f"reading {_scheme(url)}:// URLs needs {package}, which the cloud extra "
            f"installs: {CLOUD_EXTRA}",
            path=url,
        ) from exc
    except ValueError as exc:  # fsspec: "Protocol not known"
        raise UsageError(f"cannot read this URL: {exc}", path=url) from exc


def _filesystem(
    url: str, options: StorageOptions, url_to_fs: Callable[..., Any]
) -> tuple[AbstractFileSystem, str]:
    # fsspec keeps one instance per set of arguments; the path is all that differs.
    fs, path = url_to_fs(url, **_decoded(options))
    return cast("AbstractFileSystem", fs), str(path)


def key_of(url: str) -> str:
    """The object's key within its bucket (or host): what globs match an object against."""
    rest = url[_URL.match(url).end() :] if _URL.match(url) else url  # type: ignore[union-attr]
    return rest.split("/", 1)[1] if "/" in rest else ""


def open_object(url: str, options: StorageOptions = ()) -> BinaryIO:
    """The object at ``url``, open for reading (buffered: gzip is told by its magic bytes).

    Raises:
        InputError: it does not exist, is a prefix, or cannot be read.
        UsageError: the cloud extra is missing.
    """
    fs, path = filesystem(url, options)
    try:
        raw = fs.open(path, "rb", block_size=_BLOCK, cache_type="readahead")
    except FileNotFoundError as exc:
        raise InputError("no such object", path=url) from exc
    except IsADirectoryError as exc:
        raise InputError("is a prefix (a folder), not an object", path=url) from exc
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=url) from exc
    return cast(BinaryIO, io.BufferedReader(_StoreReader(raw), buffer_size=1 << 20))


class _StoreReader(io.RawIOBase):
    """An fsspec file whose failed reads are :class:`OSError`, as a local file's are.

    A store's client raises its own exceptions (an HTTP 503 from aiohttp, a botocore
    error); as ``OSError`` they become the file's "cannot read" error, and a run on a
    cluster tries the file again.
    """

    def __init__(self, raw: Any) -> None:
        super().__init__()
        self.raw = raw

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        try:
            data = self.raw.read(len(buffer))
        except OSError:
            raise
        except Exception as exc:
            raise OSError(f"the store failed the read: {type(exc).__name__}: {exc}") from exc
        buffer[: len(data)] = data
        return len(data)

    def seek(self, offset: int, whence: int = 0) -> int:
        return int(self.raw.seek(offset, whence))

    def tell(self) -> int:
        return int(self.raw.tell())

    def close(self) -> None:
        try:
            self.raw.close()
        finally:
            super().close()


def remember_size(url: str, size: int) -> None:
    """Keep an object's size as a listing gave it (here, or on a worker), so that no request asks it again."""
    if len(_LISTED_SIZES) >= _MAX_LISTED:
        _LISTED_SIZES.clear()
    _LISTED_SIZES[url] = size


def object_size(url: str, options: StorageOptions = ()) -> int | None:
    """The object's size in bytes, or ``None`` when the store does not say."""
    if url in _LISTED_SIZES:
        return _LISTED_SIZES[url]
    fs, path = filesystem(url, options)
    try:
        size = fs.size(path)
    except (OSError, ValueError):
        return None
    return int(size) if size is not None else None


def walk_prefix(
    url: str,
    options: StorageOptions,
    *,
    wanted: Callable[[str], bool],
    skipped_folder: Callable[[str, str], bool],
) -> Iterator[str] | None:
    """The objects under ``url`` in the order a local folder walk takes them, or ``None``.

    ``None`` says ``url`` is one object, to take as it is (an ``http(s)://`` URL
    is one unless it ends with ``/``: a web server's listing is a page). Under a prefix, an
    object is taken when no folder on its way (below ``url``) is skipped and it
    is ``wanted``; within each folder its objects come sorted, before its
    subfolders (sorted), as :func:`os.walk` top-down with sorted names gives them.

    Args:
        url: an object or a prefix (``s3://bucket/logs/``; the trailing ``/`` is optional).
        options: the ``--storage-option`` pairs.
        wanted: is this object's URL one to take?
        skipped_folder: is the folder of this name and URL left out (hidden,
            excluded)?

    Raises:
        InputError: no object and no prefix of that name.
        UsageError: the cloud extra is missing.
    """
    fs, path = filesystem(url, options)
    if _scheme(url) in ("http", "https") and not url.endswith("/"):
        return None  # a web server lists nothing but pages: a URL without "/" is one object
    try:
        if not url.endswith("/") and fs.isfile(path):
            return None
        listed = fs.find(path, withdirs=False, detail=True)
    except FileNotFoundError:
        listed = {}
    except OSError as exc:
        raise InputError(f"cannot list: {exc.strerror or exc}", path=url) from exc
    except Exception as exc:  # the store's client's own errors (botocore, aiohttp)
        raise InputError(f"cannot list: {type(exc).__name__}: {exc}", path=url) from exc
    entries = cast(dict[str, dict[str, Any]], listed)
    names = sorted(entries)
    if not names:
        raise InputError("no such object or prefix", path=url)
    base = url.rstrip("/") + "/"
    root = PurePosixPath(path.rstrip("/"))

    def order(name: str) -> list[tuple[int, str]]:
        parts = PurePosixPath(name).relative_to(root).parts
        return [(1, part) for part in parts[:-1]] + [(0, parts[-1])]

    def taken() -> Iterator[str]:
        for name in sorted(names, key=order):
            parts = PurePosixPath(name).relative_to(root).parts
            folder = base
            skip = False
            for part in parts[:-1]:
                folder += part + "/"
                if skipped_folder(part, folder.rstrip("/")):
                    skip = True
                    break
            candidate = base + "/".join(parts)
            if not skip and wanted(candidate):
                if isinstance(size := entries[name].get("size"), int):
                    remember_size(candidate, size)  # asked again to plan the work: no request
                yield candidate

    return taken()
