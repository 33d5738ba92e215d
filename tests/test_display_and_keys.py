"""The shortcuts of two hot helpers give what the slow way gives.

:func:`migrator.model.jsontext.display` writes tool names and ids without calling
json.dumps, and :func:`migrator.judge.validation.content_key` remembers wordings by
orjson's text; both are held here to the stdlib's answers.
"""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from migrator.judge.validation import ToolSchemas, content_key
from migrator.model.jsontext import display

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@given(st.text() | st.integers() | json_values)
def test_display_is_json_dumps(value: Any) -> None:
    assert display(value) == json.dumps(value, ensure_ascii=False)


@given(json_values, json_values)
def test_content_keys_are_equal_exactly_when_the_canonical_json_is(one: Any, other: Any) -> None:
    same = json.dumps(one, sort_keys=True) == json.dumps(other, sort_keys=True)
    assert (content_key(one) == content_key(other)) == same


def test_an_infinite_number_is_not_remembered_as_null() -> None:
    """A YAML transcript can hold .inf; orjson writes it as null, which must not share a wording."""
    assert content_key({"a": math.inf}) != content_key({"a": None})
    checker = ToolSchemas().get({"type": "object", "properties": {"a": {"type": "string"}}}, None)
    assert checker is not None
    worded_null = checker.wording({"a": None}).problem
    worded_inf = checker.wording({"a": math.inf}).problem
    assert worded_null is not None and worded_inf is not None
    assert worded_null.message != worded_inf.message
