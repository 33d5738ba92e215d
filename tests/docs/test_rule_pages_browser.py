"""Every rule's page loads in Chromium, in both languages, at the URL other pages rely on.

The URL scheme is a contract (``migrator/reference/rules/`` and ``.../rules/<code>/``, the
Chinese site under ``zh/``): the index, the Guarantees page and ``mcp-transcripts explain``
link there. The pages are generated from the rule registry, so this test walks the
registry, not a list: a rule added elsewhere is checked here too.
"""

from __future__ import annotations

import pytest

from migrator.rules.info import RuleInfo
from migrator.rules.page import changed_lines, example_blocks, parse_doc, pretty_transcript
from migrator.rules.registry import all_rules
from tests.docs.test_browser import _new_page, browser, page, site_url  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_rule_url_loads(page, site_url: str, lang: str) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Each rule's page loads with no console error, and (as it is open at 1280 px) its
    code blocks fit their boxes: :func:`test_rule_examples_fit_their_boxes` at the desktop
    width, without loading every page a second time."""
    prefix = "" if lang == "en" else "zh/"
    index = site_url + prefix + "migrator/reference/rules/"
    response = page.goto(index)
    assert response is not None and response.ok, index
    assert page.locator("html").get_attribute("lang") == lang
    problems: list[str] = []
    for rule in all_rules():
        url = f"{index}{rule.code.lower()}/"
        response = page.goto(url)
        assert response is not None and response.ok, url
        heading = page.locator("article h1").inner_text()
        assert rule.code in heading and rule.slug in heading, url
        assert page.locator("article h2#fix").is_visible(), url
        summary = rule.summary_zh if lang == "zh" else rule.summary
        assert summary.strip() in page.locator("article").inner_text(), url
        problems += _layout_problems(page, rule, lang, page.viewport_size["width"])
    assert not problems, "\n".join(problems)
    # from the index, a click lands on the rule's page
    page.goto(index)
    page.locator("article table a", has_text="MCP101").click()
    page.wait_for_url(f"{index}mcp101/")


# What the code blocks of a page look like on screen (JavaScript, run in the page):
# - ``unscrollable``: blocks wider than their box that cannot be scrolled (text cut off);
# - ``unwrapped``: example blocks that scroll sideways (they must wrap in their box);
# - ``overlaps``: blocks whose copy button covers some of their text, measured on the
#   boxes of the text itself (each text node's line boxes, clipped to the visible block);
# - ``marked``: the text of the highlighted lines of each block shown (not folded).
CODE_LAYOUT = """() => {
  const result = {unscrollable: [], unwrapped: [], overlaps: [], marked: []};
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  for (const code of document.querySelectorAll('article pre > code')) {
    const name = code.innerText.trim().slice(0, 60);
    const wide = code.scrollWidth > code.clientWidth + 1;
    const scrolls = ['auto', 'scroll'].includes(getComputedStyle(code).overflowX);
    if (wide && !scrolls) result.unscrollable.push(name);
    const example = code.closest('.rule-code');
    if (example && wide && code.offsetParent !== null) result.unwrapped.push(name);
    if (example && !code.closest('details'))
      result.marked.push([...code.querySelectorAll('.hll')].map(l => l.innerText).join(''));
    // the theme's copy button, in its own bar (newer Material) or alone (older)
    const button = code.parentElement.querySelector(':scope > .md-code__nav, :scope > .md-clipboard');
    if (!button || code.offsetParent === null) continue;
    const buttonBox = button.getBoundingClientRect();
    const visible = code.getBoundingClientRect();
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.data.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const hit = [...range.getClientRects()].some(r => {
        const clipped = {left: Math.max(r.left, visible.left), right: Math.min(r.right, visible.right),
                         top: Math.max(r.top, visible.top), bottom: Math.min(r.bottom, visible.bottom)};
        return clipped.left < clipped.right && clipped.top < clipped.bottom && meets(clipped, buttonBox);
      });
      if (hit) { result.overlaps.push(name + ' <- ' + node.data.trim().slice(0, 30)); break; }
    }
  }
  return result;
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rule_examples_fit_their_boxes(browser, site_url: str, lang: str) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Issue 28, item 6: every code block of a rule page shows all its text, the copy
    button covers none of it, and the example's changed lines are highlighted; here on
    a phone's width (390 px), and at 1280 px in :func:`test_every_rule_url_loads`."""
    width = 390
    context, tab = _new_page(browser, width)
    prefix = "" if lang == "en" else "zh/"
    problems: list[str] = []
    try:
        for rule in all_rules():
            tab.goto(f"{site_url}{prefix}migrator/reference/rules/{rule.code.lower()}/")
            problems += _layout_problems(tab, rule, lang, width)
    finally:
        context.close()
    assert not problems, "\n".join(problems)


def _layout_problems(tab, rule: RuleInfo, lang: str, width: int) -> list[str]:  # type: ignore[no-untyped-def]
    """What is wrong with the code blocks of the rule page open in ``tab`` (``width`` px wide)."""
    tab.wait_for_selector("article pre .md-code__button, article pre .md-clipboard")
    layout = tab.evaluate(CODE_LAYOUT)
    where = f"{rule.code} {lang} {width}px"
    problems = [f"{where}: cut off, no scrollbar: {name}" for name in layout["unscrollable"]]
    problems += [f"{where}: example does not wrap: {name}" for name in layout["unwrapped"]]
    problems += [f"{where}: copy button over the text: {name}" for name in layout["overlaps"]]
    if tab.evaluate("document.documentElement.scrollWidth") > width:
        problems.append(f"{where}: the page scrolls sideways")
    expected = _changed_text(rule)
    if expected is not None and [_squeeze(m) for m in layout["marked"][:2]] != expected:
        problems.append(f"{where}: highlighted {layout['marked'][:2]}, changed {expected}")
    wanted = EXPECTED_MARKS.get(rule.code)
    if wanted and wanted not in "".join(layout["marked"]):
        problems.append(f"{where}: {wanted} not highlighted")
    return problems


# What the After of some rules changes, as the highlighted lines show it (pretty-printed).
EXPECTED_MARKS = {
    "MCP101": '"isError": true',
    "MCP401": '{"key": "error.type", "value": {"stringValue": "tool_error"}}',
}


def _changed_text(rule: RuleInfo) -> list[str] | None:
    """The text of the lines that differ between Before and After, pretty-printed, or
    ``None`` when the example is not one block against one."""
    doc = parse_doc(rule.doc)
    before, after = example_blocks(doc.before), example_blocks(doc.after)
    if len(before) != 1 or len(after) != 1:
        return None
    old, new = pretty_transcript(before[0]), pretty_transcript(after[0])
    old_lines, new_lines = changed_lines(old, new)
    return [
        _squeeze("".join(text.splitlines()[number - 1] for number in numbers))
        for text, numbers in ((old, old_lines), (new, new_lines))
    ]


def _squeeze(text: str) -> str:
    return "".join(text.split())
