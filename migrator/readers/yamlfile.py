"""YAML transcripts and test fixtures.

Shapes read (block or flow style, one document per file):

* a list of messages, at the top or under any key (``messages:``, ``steps:``);
* a list of envelope entries (the layouts of the envelope reader);
* test fixtures: mappings with a ``request`` message and a ``response``,
  ``expected``, ``expected_response``, ``expect`` or ``reply`` message (or list
  of messages), anywhere in the document;
* test suites in the mcp-aegis shape (``*.test.mcp.yml``): ``tests:`` items
  with a ``request`` message and an ``expect`` block whose ``response`` is the
  expected message (beside ``stderr`` and other expectations). ``fix`` rewrites
  an old-style expected error there, so the suite tests the new behaviour.

Each message becomes its own unit whose text is the message written as compact
JSON; the rules edit that text like any other. :meth:`YamlReader.emit` reads
the edited JSON back and rewrites only the changed member of the message in
the YAML text: from the first character of its key to the last character of
its value, located by ruamel.yaml's composer. The new member is rendered by
ruamel.yaml in round-trip mode, in block style unless the value it replaces
(or the message) was flow style, indented like the rest of the document.
Everything else (comments, key order, quoting, anchors, blank lines, the
``---`` marker) stays byte for byte, which a whole-document round-trip dump
would not promise: ruamel re-indents, folds long lines and drops markers.

Safety: the document is only composed (never constructed), then converted to
plain JSON values here. A tag other than YAML's own scalar and collection
tags (``!!python/object``, ``!Custom``) is an input error, and aliases are
limited in number and in how much they expand, so a "billion laughs" file
fails fast instead of exhausting memory. Every rewrite is checked by
composing the new text again and comparing it with what was meant.

ruamel.yaml is imported only when a YAML file is read.
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from migrator.errors import InputError, NotATranscriptError, UnsafeRewriteError
from migrator.model import jsontext
from migrator.model.units import Direction, SourceMessage, Unit
from migrator.readers.base import Reader
from migrator.readers.envelope import detect_layout
from migrator.readers.wire import looks_like_message

C2S, S2C = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT

MAX_ALIASES = 100  # alias uses per document; real fixtures use a handful
MAX_ALIAS_NODES = 10_000  # nodes reached through aliases, all uses together
REQUEST_KEYS = ("request",)
RESPONSE_KEYS = ("response", "expected", "expected_response", "expect", "reply")
# An expectation block that holds the response beside other checks (mcp-aegis).
NESTED_RESPONSE_KEYS = (("expect", "response"),)

_Y = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL = _Y + "str", _Y + "int", _Y + "float", _Y + "bool", _Y + "null"
MAP, SEQ, MERGE, TIMESTAMP, BINARY = (
    _Y + "map",
    _Y + "seq",
    _Y + "merge",
    _Y + "timestamp",
    _Y + "binary",
)
# Tags whose values are plain data; timestamps and binaries are kept as the text written.
ALLOWED_TAGS = frozenset({STR, INT, FLOAT, BOOL, NULL, MAP, SEQ, MERGE, TIMESTAMP, BINARY})

_KEY_LINE = re.compile(r"""^(?:-[ \t]+)*(?:"[^"]*"|'[^']*'|[A-Za-z_$][^:#]*?)[ \t]*:(?:[ \t]|$)""")
# A JSON-RPC member as a block key or inside a flow mapping ("- {jsonrpc: '2.0', ...").
_MARKER = re.compile(r"""(?:^|[\s{,])["']?(?:jsonrpc|method|request)["']?[ \t]*:(?:[ \t]|$)""")

Node = Any  # ruamel.yaml.nodes.Node: ruamel ships no type information


def looks_like_yaml(head: list[str]) -> bool:
    """True for the start of a YAML file that mentions JSON-RPC members.

    The first line with content (after comments, directives and ``---``)
    must be a ``key:`` or a ``- `` list item, and some line must start a
    ``jsonrpc:``, ``method:`` or ``request:`` member (block or flow style): a YAML file that is not
    a transcript (a CI configuration) is left to the other readers.
    """
    content = [
        line.lstrip("\ufeff").rstrip("\r\n")
        for line in head
        if line.strip() and not line.lstrip("\ufeff").lstrip().startswith(("#", "%", "---"))
    ]
    if not content:
        return False
    first = content[0].lstrip(" ")
    if not (_KEY_LINE.match(first) or first.startswith("- ") or first == "-"):
        return False
    return any(_MARKER.search(line) for line in content)


@dataclass
class _Found:
    """A message located in the YAML document."""

    node: Node
    value: Any
    path: tuple[Any, ...]  # keys and indexes from the root, to check rewrites
    direction: Direction | None


@dataclass
class _Style:
    """How the document indents block collections, for the members we write."""

    mapping: int = 2
    sequence: int = 4
    offset: int = 2
    newline: str = "\n"


@dataclass
class _Converter:
    """Turns composed YAML nodes into JSON values, refusing what is not data."""

    aliases: int = 0
    alias_nodes: int = 0
    seen: set[int] = field(default_factory=set)

    def value(
        self, node: Node, _through_alias: bool = False, _stack: frozenset[int] = frozenset()
    ) -> Any:
        key = id(node)
        if key in _stack:
            raise InputError(
                "YAML alias refers to itself (a recursive structure)", line=_line(node)
            )
        through_alias = _through_alias
        if key in self.seen and node.tag in (MAP, SEQ):
            self.aliases += 1
            through_alias = True
            if self.aliases > MAX_ALIASES:
                raise InputError(f"more than {MAX_ALIASES} YAML aliases; refused", line=_line(node))
        self.seen.add(key)
        if through_alias:
            self.alias_nodes += 1
            if self.alias_nodes > MAX_ALIAS_NODES:
                raise InputError(
                    f"YAML aliases expand to more than {MAX_ALIAS_NODES} nodes; refused (a 'billion laughs' file?)",
                    line=_line(node),
                )
        tag = node.tag
        if tag not in ALLOWED_TAGS:
            shown = "!!" + tag[len(_Y) :] if tag.startswith(_Y) else tag
            raise InputError(
                f"YAML tag {shown} is not allowed: a transcript holds plain data, not objects",
                line=_line(node),
            )
        stack = _stack | {key}
        if tag == MAP:
            return self._mapping(node, through_alias, stack)
        if tag == SEQ:
            return [self.value(item, through_alias, stack) for item in node.value]
        return _scalar(node)

    def _mapping(self, node: Node, through_alias: bool, stack: frozenset[int]) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        own: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == MERGE:
                sources = value_node.value if value_node.tag == SEQ else [value_node]
                for source in sources:
                    part = self.value(source, through_alias, stack)
                    if not isinstance(part, dict):
                        raise InputError("YAML merge key (<<) needs a mapping", line=_line(source))
                    for k, v in part.items():
                        merged.setdefault(k, v)
                continue
            key = self.value(key_node, through_alias, stack)
            if isinstance(key, (dict, list)):
                raise InputError(
                    "YAML mapping key is a collection; JSON keys are strings", line=_line(key_node)
                )
            own[key if isinstance(key, str) else json.dumps(key)] = self.value(
                value_node, through_alias, stack
            )
        return {**{k: v for k, v in merged.items() if k not in own}, **own} if merged else own


def _scalar(node: Node) -> Any:
    text: str = node.value
    tag = node.tag
    if tag == NULL:
        return None
    if tag == BOOL:
        return text.lower() == "true"
    if tag == INT:
        return _int(text)
    if tag == FLOAT:
        return _float(text)
    return text  # str, timestamp and binary keep their text


def _int(text: str) -> int | str:
    digits = text.replace("_", "")
    sign = -1 if digits.startswith("-") else 1
    digits = digits.lstrip("+-")
    bases = {"0x": 16, "0o": 8, "0b": 2}
    try:
        base = bases.get(digits[:2].lower(), 10)
        return sign * int(digits[2:] if base != 10 else digits, base)
    except ValueError:
        return text


def _float(text: str) -> float | str:
    try:
        value = float(text.replace("_", ""))
    except ValueError:
        return text  # .inf, .nan: JSON has no such numbers, so they stay their text
    return value if math.isfinite(value) else text


def _line(node: Node) -> int:
    return int(node.start_mark.line) + 1


def compose(text: str) -> Node | None:
    """The node graph of a one-document YAML text (nothing is constructed).

    Raises:
        InputError: the text is not valid YAML, or holds several documents.
    """
    import warnings

    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, ReusedAnchorWarning, YAMLError
    from ruamel.yaml.reader import ReaderError

    try:
        with warnings.catch_warnings():
            # YAML lets a later anchor redefine an earlier one (aliases take the
            # nearest); ruamel.yaml warns about it, but the file is valid.
            warnings.simplefilter("ignore", ReusedAnchorWarning)
            return YAML(typ="rt").compose(text)
    except ReaderError as exc:
        line = text.count("\n", 0, max(exc.position, 0)) + 1
        raise InputError(
            f"not valid YAML: {exc.reason} (character {exc.character!r})", line=line
        ) from exc
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = int(mark.line) + 1 if mark is not None else 1
        problem = exc.problem or exc.context or "not valid YAML"
        if "expected a single document" in str(exc.context):
            problem = "several YAML documents in one file; split them into one file each"
        raise InputError(f"not valid YAML: {problem}", line=line) from exc
    except YAMLError as exc:
        raise InputError(f"not valid YAML: {exc}", line=1) from exc
    except RecursionError as exc:
        raise InputError("YAML nested too deeply to read", line=1) from exc


def find_messages(root: Node) -> tuple[Any, list[_Found]]:
    """The document as JSON values, and every message in it in document order.

    Raises:
        InputError: a tag that is not plain data, or aliases beyond the limits.
    """
    try:
        document = _Converter().value(root)
        found: list[_Found] = []
        _walk(root, document, (), found)
    except RecursionError as exc:
        raise InputError("YAML nested too deeply to read", line=_line(root)) from exc
    return document, found


def _is_message_node(node: Node, value: Any) -> bool:
    return node.tag == MAP and isinstance(value, dict) and looks_like_message(value)


def _walk(node: Node, value: Any, path: tuple[Any, ...], found: list[_Found]) -> None:
    if node.tag == SEQ:
        items = list(zip(node.value, value, strict=True))
        mappings = [(n, v) for n, v in items if isinstance(v, dict)]
        if mappings and all(_is_message_node(n, v) for n, v in mappings):
            for index, (n, v) in enumerate(items):
                if isinstance(v, dict):
                    found.append(_Found(n, v, (*path, index), None))
            return
        if mappings and not any(_pair_keys(v) for _, v in mappings):
            layout = detect_layout([v for _, v in mappings])
            if layout is not None:
                for index, (n, v) in enumerate(items):
                    _envelope(n, v, (*path, index), layout, found)
                return
        for index, (n, v) in enumerate(items):
            _walk(n, v, (*path, index), found)
    elif node.tag == MAP and isinstance(value, dict):
        pair = _pair_keys(value)
        if pair is not None:
            _fixture(node, value, path, pair, found)
            return
        # A key given twice holds its last value (as in JSON): walk the node
        # that value came from, not an earlier one of another shape.
        last: dict[str, Node] = {}
        for key_node, value_node in node.value:
            if key_node.tag == MERGE:
                continue
            key = _scalar(key_node) if key_node.tag not in (MAP, SEQ) else None
            last[key if isinstance(key, str) else json.dumps(key)] = value_node
        for key, value_node in last.items():
            if key in value and value_node.tag in (MAP, SEQ):
                _walk(value_node, value[key], (*path, key), found)


def _pair_keys(value: dict[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    request: tuple[str, ...] | None = next(
        ((k,) for k in REQUEST_KEYS if looks_like_message(value.get(k))), None
    )
    response: tuple[str, ...] | None = next(
        ((k,) for k in RESPONSE_KEYS if looks_like_message(value.get(k))), None
    )
    if response is None:
        response = next(
            (keys for keys in NESTED_RESPONSE_KEYS if looks_like_message(_get_path(value, keys))),
            None,
        )
    return (request, response) if request and response else None


def _get_path(value: Any, keys: tuple[str, ...]) -> Any:
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def _fixture(
    node: Node,
    value: dict[str, Any],
    path: tuple[Any, ...],
    pair: tuple[tuple[str, ...], tuple[str, ...]],
    found: list[_Found],
) -> None:
    for keys, direction in zip(pair, (C2S, S2C), strict=True):
        child: Node | None = node
        for key in keys:
            child = _member_node(child, key) if child is not None and child.tag == MAP else None
        if child is None:
            continue  # the member came through a merge key: read, never rewritten
        part = _get_path(value, keys)
        if child.tag == SEQ:
            for index, (n, v) in enumerate(zip(child.value, part, strict=True)):
                if _is_message_node(n, v):
                    found.append(_Found(n, v, (*path, *keys, index), direction))
        elif _is_message_node(child, part):
            found.append(_Found(child, part, (*path, *keys), direction))


def _envelope(
    node: Node, value: Any, path: tuple[Any, ...], layout: Any, found: list[_Found]
) -> None:
    if not isinstance(value, dict) or not looks_like_message(value.get(layout.message_key)):
        return
    child = _member_node(node, layout.message_key)
    if child is None or child.tag != MAP:
        return
    label = value.get(layout.direction_key) if layout.direction_key else None
    direction = layout.labels.get(label.lower()) if isinstance(label, str) else None
    found.append(_Found(child, value[layout.message_key], (*path, layout.message_key), direction))


def _member_node(node: Node, key: str) -> Node | None:
    for key_node, value_node in reversed(node.value):
        if key_node.tag not in (MAP, SEQ, MERGE) and key_node.value == key:
            return value_node
    return None


def _key_node(node: Node, key: str) -> tuple[Node, Node] | None:
    for key_node, value_node in reversed(node.value):
        if key_node.tag not in (MAP, SEQ, MERGE) and key_node.value == key:
            return key_node, value_node
    return None


def node_end(text: str, node: Node) -> int:
    """Index just past the last character of a node's own text.

    A block collection's end mark lies at the next token (after trailing
    comments and the next line's indentation), and a block scalar's after
    its line breaks; both are walked back to the last character of content.
    """
    while node.tag in (MAP, SEQ) and not node.flow_style and node.value:
        last = node.value[-1]
        node = last[1] if isinstance(last, tuple) else last
    end = int(node.end_mark.index)
    if getattr(node, "style", None) in ("|", ">"):
        while end > node.start_mark.index and text[end - 1] in " \t\r\n":
            end -= 1
    return end


def guess_style(text: str, root: Node) -> _Style:
    """The indentation of nested block collections, from the first examples found."""
    style = _Style(newline="\r\n" if "\r\n" in text else "\n")
    found_mapping = found_sequence = False
    stack = [root]
    seen: set[int] = set()
    while stack and not (found_mapping and found_sequence):
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.tag == MAP and not node.flow_style:
            for key_node, value_node in node.value:
                column = key_node.start_mark.column
                if (
                    value_node.tag == MAP
                    and not value_node.flow_style
                    and not found_mapping
                    and value_node.value
                ):
                    indent = value_node.start_mark.column - column
                    if indent > 0:
                        style.mapping, found_mapping = indent, True
                if (
                    value_node.tag == SEQ
                    and not value_node.flow_style
                    and not found_sequence
                    and value_node.value
                ):
                    offset = value_node.start_mark.column - column
                    first = value_node.value[0]
                    sequence = first.start_mark.column - column
                    if offset >= 0 and sequence >= offset + 2:
                        style.offset, style.sequence, found_sequence = offset, sequence, True
                stack.append(value_node)
        elif node.tag == SEQ:
            stack.extend(reversed(node.value))
    return style


def _to_ruamel(value: Any, flow: bool, literal: bool) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString, LiteralScalarString

    if isinstance(value, dict):
        mapping = CommentedMap()
        for k, v in value.items():
            mapping[k] = _to_ruamel(v, flow, literal)
        if flow:
            mapping.fa.set_flow_style()
        return mapping
    if isinstance(value, list):
        seq = CommentedSeq(_to_ruamel(v, flow, literal) for v in value)
        if flow:
            seq.fa.set_flow_style()
        return seq
    if isinstance(value, str) and "\n" in value:
        # Several lines read best as a literal block; flow style allows only quotes.
        return (
            LiteralScalarString(value) if literal and not flow else DoubleQuotedScalarString(value)
        )
    return value


def _dump(data: Any, style: _Style) -> str:
    import io

    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.width = 1_000_000  # never fold a long line: the rest of the line is the user's
    yaml.indent(mapping=style.mapping, sequence=style.sequence, offset=style.offset)
    yaml.representer.add_representer(type(None), lambda rep, _: rep.represent_scalar(NULL, "null"))
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def render_member(
    key: str,
    value: Any,
    *,
    key_quote: str | None,
    flow: bool,
    flow_context: bool,
    column: int,
    style: _Style,
) -> str:
    """``key: value`` as YAML text that starts at ``column`` of a line.

    Args:
        key: the member's key.
        value: its JSON value.
        key_quote: the quote the replaced key was written with, if any.
        flow: write the value in flow style.
        flow_context: the member sits inside a flow mapping (one line, no block).
        column: where the key starts; continuation lines are indented from there.
        style: the document's indentation and newline.
    """
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

    quoted: Any = key
    if key_quote == '"':
        quoted = DoubleQuotedScalarString(key)
    elif key_quote == "'":
        quoted = SingleQuotedScalarString(key)
    for literal in (True, False):
        wrapper = CommentedMap()
        wrapper[quoted] = _to_ruamel(value, flow or flow_context, literal)
        if flow_context:
            wrapper.fa.set_flow_style()
        text = _dump(wrapper, style).rstrip("\n")
        if flow_context:
            text = text[1:-1]  # the member, without the braces of its wrapper
        if _reads_back(text, key, value, flow_context):
            break
    else:
        raise UnsafeRewriteError(
            f"could not write the new {key!r} member as YAML that reads back the same"
        )
    lines = text.split("\n")
    indent = " " * column
    return lines[0] + "".join(
        style.newline + (indent + line if line else line) for line in lines[1:]
    )


def _reads_back(text: str, key: str, value: Any, flow_context: bool) -> bool:
    from ruamel.yaml.error import YAMLError

    try:
        root = compose("{" + text + "}" if flow_context else text)
        return root is not None and _Converter().value(root) == {key: value}
    except (InputError, YAMLError):
        return False


class YamlReader(Reader):
    """Reads one YAML document; every message is its own unit of compact JSON."""

    name: ClassVar[str] = "yaml"

    def __init__(self) -> None:
        self.text = ""
        self.root: Node | None = None
        self.document: Any = None
        self.found: dict[int, _Found] = {}
        self.edits: list[tuple[int, int, str]] = []
        self.expected: list[tuple[tuple[Any, ...], Any]] = []

    def units(self, lines: Iterable[str]) -> Iterator[Unit]:
        """Yield one unit per message, in document order."""
        self.text = "".join(lines)
        self.root = compose(self.text)
        if self.root is None:
            raise NotATranscriptError("YAML file holds no document", line=1)
        self.document, messages = find_messages(self.root)
        if not messages:
            raise NotATranscriptError(
                "YAML document holds no JSON-RPC messages in a known layout", line=_line(self.root)
            )
        for found in messages:
            try:
                text = json.dumps(found.value, ensure_ascii=False, separators=(",", ":"))
            except ValueError as exc:  # an integer too long to write
                raise InputError(
                    f"message cannot be written as JSON: {exc}", line=_line(found.node)
                ) from exc
            line, column = _line(found.node), int(found.node.start_mark.column) + 1
            unit = Unit(
                text,
                line,
                [SourceMessage(found.value, 0, len(text), line, column, found.direction)],
            )
            self.found[id(unit)] = found
            yield unit

    def emit(self, unit: Unit, text: str) -> Iterator[str]:
        """Record the YAML edit for a rewritten message; the document is written by :meth:`close`."""
        found = self.found.pop(id(unit), None)
        if found is not None and text != unit.text:
            self._rewrite(found, jsontext.DECODER.decode(text))
        yield from ()

    def close(self) -> Iterator[str]:
        """The document: the original text, with the rewritten members spliced in."""
        if not self.edits:
            yield self.text
            return
        pieces: list[str] = []
        cursor = 0
        for start, end, replacement in sorted(self.edits):
            if start < cursor:
                raise UnsafeRewriteError(
                    "two YAML rewrites overlap (aliases?); nothing written",
                    line=_offset_line(self.text, start),
                )
            pieces += [self.text[cursor:start], replacement]
            cursor = end
        pieces.append(self.text[cursor:])
        new_text = "".join(pieces)
        self._verify(new_text)
        yield new_text

    def _rewrite(self, found: _Found, new: Any) -> None:
        old = found.value
        if not isinstance(new, dict) or not isinstance(old, dict):
            raise UnsafeRewriteError(
                "a rewritten YAML message is not a mapping", line=_line(found.node)
            )
        removed = [k for k in old if k not in new]
        added = [k for k in new if k not in old]
        changed = [k for k in old if k in new and old[k] != new[k]]
        if len(removed) != len(added) or len(removed) > 1:
            raise UnsafeRewriteError("unexpected rewrite of a YAML message", line=_line(found.node))
        swaps = list(zip(removed, added, strict=True)) + [(k, k) for k in changed]
        style = guess_style(self.text, self.root)
        for old_key, new_key in swaps:
            located = _key_node(found.node, old_key)
            if located is None:
                raise UnsafeRewriteError(
                    f"the {old_key!r} member comes from a YAML merge key (<<); rewrite it by hand",
                    line=_line(found.node),
                )
            key_node, value_node = located
            start, end = int(key_node.start_mark.index), node_end(self.text, value_node)
            flow_context = bool(found.node.flow_style)
            flow = flow_context or (value_node.tag in (MAP, SEQ) and bool(value_node.flow_style))
            rendered = render_member(
                new_key, new[new_key], key_quote=key_node.style, flow=flow, flow_context=flow_context,
                column=int(key_node.start_mark.column), style=style,
            )  # fmt: skip
            self.edits.append(
                (start, end, _keep_key_comment(self.text, key_node, value_node, rendered))
            )
        self.expected.append((found.path, new))

    def _verify(self, new_text: str) -> None:
        """Compose the new text and check it holds exactly the intended change."""
        expected = copy.deepcopy(self.document)
        for path, value in self.expected:
            expected = _set_path(expected, path, value)
        try:
            root = compose(new_text)
            actual = _Converter().value(root) if root is not None else None
        except InputError as exc:
            raise UnsafeRewriteError(
                f"rewritten YAML does not read back: {exc.message}; nothing written", line=exc.line
            ) from exc
        if actual != expected:
            raise UnsafeRewriteError(
                "rewritten YAML reads back differently than intended (aliases or merge keys?); nothing written",
                line=1,
            )


def _keep_key_comment(text: str, key_node: Node, value_node: Node, rendered: str) -> str:
    """Keep a comment that followed the old key on its line (``error:  # why``)."""
    gap = text[key_node.end_mark.index : value_node.start_mark.index]
    match = re.match(r"[ \t]*:([ \t]+#[^\r\n]*)\r?\n", gap)
    first, sep, rest = rendered.partition("\n")
    if match is None or not first.rstrip("\r").endswith(":") or not sep:
        return rendered
    return first.rstrip("\r") + match.group(1) + ("\r" if first.endswith("\r") else "") + sep + rest


def _set_path(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    target = document
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return document


def _offset_line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1
