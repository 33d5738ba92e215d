"""Any text forced through the new readers: a finding or a defined error, never a crash."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from migrator.api import check_text, fix_text
from migrator.engine.pipeline import Options
from migrator.errors import MigratorError
from migrator.readers import InputFormat
from tests.conftest import examples

FORMATS = [
    InputFormat.YAML,
    InputFormat.HAR,
    InputFormat.CLAUDE_LOG,
    InputFormat.TXTAR,
    InputFormat.SUPERGATEWAY,
    InputFormat.KONG,
    InputFormat.OBOT,
    InputFormat.AGENTGATEWAY,
    InputFormat.AUTO,
]
PIECES = st.sampled_from(
    [
        "- ",
        "jsonrpc: '2.0'\n",
        "  id: 1\n",
        "  error: {code: -32602, message: 'Invalid params'}\n",
        "&a ",
        "*a",
        "!!binary ",
        '{"log": {"entries": [',
        '{"request": {"postData": {"text": "',
        '\\"jsonrpc\\":\\"2.0\\"',
        '"}}}',
        "]}}",
        "2025-06-01T10:00:00.000Z [s] [info] Message from server: ",
        '{"jsonrpc":"2.0","id":1,"result":{}}',
        "\n",
        "\t",
        "\udcff",
        "-- client --\n",
        "-- server --\n",
        "interactions:\n",
        '"uri": "http://x"',
        "[supergateway] Child → SSE: ",
        "[supergateway] Child → StreamableHttp: ",
        "[supergateway] SSE → Child (session a): ",
        "{ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'x' +\n  'y' } }",
        "[Object]",
        "... 3 more items",
        '{"ai":{"mcp":{"rpc":[{"payload":{"request":"',
        '","response":"event: message\\ndata: ',
        '{"callType":"tools/call","requestBody":',
        '"responseBody":"',
        '{"mcp.method.name":"tools/call","mcp.error.code":-32602,"mcp.error.message":"',
        "2026-01-15T10:00:00Z\tinfo\trequest\tmcp.method.name=tools/call mcp.error.code=",
    ]
)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(PIECES, st.text(max_size=5)), max_size=12), st.sampled_from(FORMATS))
def test_never_crashes(pieces: list[str], forced: InputFormat) -> None:
    text = "".join(pieces)
    options = Options(input_format=forced)
    try:
        check_text(text, options=options)
        after, report = fix_text(text, options=options)
    except MigratorError as exc:
        assert exc.line is None or exc.line >= 1
        return
    if not report.fixes:
        assert after == text


def test_redefined_yaml_anchor_is_read_without_a_warning() -> None:
    # YAML lets an anchor be defined again (an alias takes the nearest one);
    # ruamel.yaml warns about it, which must not escape as an error or noise.
    import warnings

    text = "- &a {jsonrpc: '2.0', id: 1, method: ping}\n- &a {jsonrpc: '2.0', id: 1, result: {}}\n"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = check_text(text, options=Options(input_format=InputFormat.YAML))
    assert report.findings == []
