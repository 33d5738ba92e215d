"""The how-to pages of the gateway logs: one per gateway reader, both languages, real output.

Each gateway's page lives at ``docs/migrator/how-to/gateways/<format>.md`` (``.zh.md``),
where ``<format>`` is the reader's ``--input-format`` value, and the format table of
``formats.md`` links it. The examples on the pages are run markers (the CLI run on a fixture
while the site builds, ``docs/hooks/reference.py``) and line ranges of fixtures; these tests
run every marker and check every range, so a page cannot show a file that is not there or a
command that fails.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
import sys
from pathlib import Path
from types import ModuleType

import pytest

from migrator.readers import FORMATS, InputFormat
from migrator.readers.gatewaylog import GatewayLogReader

ROOT = Path(__file__).resolve().parents[2]
HOW_TO = ROOT / "docs" / "migrator" / "how-to"
GATEWAYS = HOW_TO / "gateways"
FIXTURES = ROOT / "tests" / "fixtures" / "gateways"
LANGUAGES = {"en": ".md", "zh": ".zh.md"}
SNIPPET = re.compile(r'^\s*--8<-- "(?P<path>[^":]+)(?::(?P<start>\d+):(?P<end>\d+))?"\s*$', re.M)


def _hook() -> ModuleType:
    path = ROOT / "docs" / "hooks" / "reference.py"
    spec = importlib.util.spec_from_file_location("docs_hook_reference", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


HOOK = _hook()


def gateway_formats() -> list[InputFormat]:
    """The input formats whose reader is a gateway log reader, from the format table."""
    return [
        f
        for f in FORMATS
        if f.spec is not None
        and f.spec.reader is not None
        and isinstance(f.spec.make_reader(), GatewayLogReader)
    ]


def pages() -> list[Path]:
    return sorted(GATEWAYS.glob("*.md"))


def test_the_gateway_readers_are_found() -> None:
    # The table is read, not a list kept here; it must at least hold the four gateways.
    assert {"supergateway", "kong", "obot", "agentgateway"} <= {f.value for f in gateway_formats()}


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("fmt", gateway_formats(), ids=lambda f: f.value)
def test_every_gateway_reader_has_a_page_linked_from_formats(
    fmt: InputFormat, language: str
) -> None:
    suffix = LANGUAGES[language]
    page = GATEWAYS / f"{fmt.value}{suffix}"
    assert page.is_file(), f"no how-to page {page.relative_to(ROOT)} for --input-format {fmt.value}"
    formats = (HOW_TO / f"formats{suffix}").read_text(encoding="utf-8")
    assert f"](gateways/{fmt.value}.md)" in formats, (
        f"formats{suffix} does not link gateways/{fmt.value}.md"
    )
    text = page.read_text(encoding="utf-8")
    assert f"--input-format {fmt.value}" in text, f"{page.name} does not name its --input-format"
    shown = [m for m in HOOK.RUN_MARKER.finditer(text) if "tests/fixtures/gateways/" in m["argv"]]
    assert shown, f"{page.name} shows no run on a gateway fixture"


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_span_variants_have_their_page(language: str) -> None:
    suffix = LANGUAGES[language]
    page = (GATEWAYS / f"spans{suffix}").read_text(encoding="utf-8")
    for linking in [f"formats{suffix}", f"traces{suffix}"]:
        assert "](gateways/spans.md)" in (HOW_TO / linking).read_text(encoding="utf-8"), linking
    runs = " ".join(m["argv"] for m in HOOK.RUN_MARKER.finditer(page))
    for trace in sorted((FIXTURES / "spans").glob("*.jsonl")):
        assert trace.relative_to(ROOT).as_posix() in runs, (
            f"spans{suffix} does not run {trace.name}"
        )


def test_the_old_formats_anchors_still_land() -> None:
    # The sections moved to their own pages; links into formats.md keep working.
    for suffix in LANGUAGES.values():
        text = (HOW_TO / f"formats{suffix}").read_text(encoding="utf-8")
        for anchor in [
            "supergateway",
            "kong-ai-mcp-proxy",
            "obot",
            "agentgateway",
            "gateway-spans",
        ]:
            assert f"{{#{anchor}}}" in text, f"formats{suffix} lost #{anchor}"


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.name)
def test_every_example_on_the_page_is_a_fixture_that_runs(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    markers = list(HOOK.RUN_MARKER.finditer(text))
    assert markers, f"{page.name} has no run marker"
    for marker in markers:
        named = [a for a in shlex.split(marker["argv"]) if a.startswith("tests/")]
        assert named, f"{page.name}: {marker['argv']} runs on no fixture"
        for path in named:
            assert (ROOT / path).is_file(), f"{page.name}: {path} does not exist"
        rendered = HOOK.render_run(marker["options"], marker["argv"])
        body = rendered.splitlines()[1:-1]
        assert body and any(line.strip() for line in body), (
            f"{page.name}: {marker['argv']} printed nothing"
        )
    for snippet in SNIPPET.finditer(text):
        path = ROOT / snippet["path"]
        assert path.is_file(), f"{page.name}: {snippet['path']} does not exist"
        if snippet["start"]:
            lines = path.read_text(encoding="utf-8").splitlines()
            assert 1 <= int(snippet["start"]) <= int(snippet["end"]) <= len(lines), snippet[0]


@pytest.mark.parametrize(
    "page", [p for p in pages() if not p.name.endswith(".zh.md")], ids=lambda p: p.name
)
def test_both_languages_show_the_same_examples(page: Path) -> None:
    twin = page.with_name(page.name.replace(".md", ".zh.md"))
    runs = [m.group(0) for m in HOOK.RUN_MARKER.finditer(page.read_text(encoding="utf-8"))]
    zh_runs = [m.group(0) for m in HOOK.RUN_MARKER.finditer(twin.read_text(encoding="utf-8"))]
    assert runs == zh_runs
    snippets = SNIPPET.findall(page.read_text(encoding="utf-8"))
    assert snippets == SNIPPET.findall(twin.read_text(encoding="utf-8"))


def test_the_refusals_shown_are_refusals() -> None:
    # exit=2 on a page means the run must end with 2: a reader that learns to rewrite the
    # file (or one that stops refusing) fails here and the page is rewritten with it.
    with pytest.raises(RuntimeError, match="exited 1, not \\[2\\]"):
        HOOK.render_run(
            "exit=2",
            "fix --diff tests/fixtures/gateways/supergateway/streamable-stateful-old.log",
        )
    shown = HOOK.render_run(
        "stream=stderr exit=2", "fix --diff tests/fixtures/gateways/agentgateway/access.log"
    )
    assert "fix cannot rewrite this answer" in shown and "nothing written" in shown


def test_pages_render_the_runs(built_site: Path) -> None:
    for language in ["", "zh/"]:
        for name in ["supergateway", "kong", "obot", "agentgateway", "spans"]:
            html = (
                built_site / language / "migrator/how-to/gateways" / name / "index.html"
            ).read_text(encoding="utf-8")
            assert "mcp-transcripts:run" not in html, f"{language}{name}: a marker was not rendered"
            assert "MCP401" in html or "MCP101" in html, f"{language}{name}: no finding shown"
            assert '<span class="filename">mcp-transcripts check' in html, (
                f"{language}{name}: no check run shown"
            )
