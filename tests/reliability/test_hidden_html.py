"""Commands GitHub renders hidden never run: HTML comments opened mid-line, and `<pre>`,
`<script>`, `<style>` and `<textarea>` regions, inline or as blocks, until they close."""

from __future__ import annotations

import pytest
import reliability_support as support
from comment_bench import Bench, no_write

COMMAND = '/riverbed archive p1 --reason "gone"'
HIDDEN = {
    "comment opened mid-line": f"thanks! <!-- hidden\n{COMMAND}\n-->",
    "comment reopened after a close": f"a <!-- b --> c <!-- d\n{COMMAND}\n-->",
    "pre block": f"<pre>\n{COMMAND}\n</pre>",
    "script block": f"<script>\n{COMMAND}\n</script>",
    "style block": f"<style type=text/css>\n{COMMAND}\n</style>",
    "textarea block": f"<textarea>\n{COMMAND}\n</textarea>",
    "upper-case tag": f"<SCRIPT>\n{COMMAND}\n</SCRIPT>",
    "script opened mid-line": f"see <script>\n{COMMAND}\n</script>",
    "unclosed pre": f"<pre>\n\n{COMMAND}",
    "closed by another tag only": f"<script>\n</pre>\n{COMMAND}\n</script>",
}


@pytest.mark.parametrize("case", sorted(HIDDEN))
def test_hidden_regions_do_not_run(bench: Bench, case: str) -> None:
    outcome = bench.comment(HIDDEN[case])
    no_write(outcome)
    assert outcome.requests == 0, "a comment without a visible command costs no API call"
    support.count("hostile comments refused: hidden HTML region")


@pytest.mark.parametrize(
    "body",
    [
        f"<pre>x</pre>\n{COMMAND}",
        f"<!-- note -->\n{COMMAND}",
        f"`<script>` is inline code\n{COMMAND}",
        f"<!-->\n{COMMAND}",
    ],
)
def test_a_command_after_a_closed_region_still_runs(bench: Bench, body: str) -> None:
    outcome = bench.comment(body)
    assert outcome.outputs["upload"] == "true" and outcome.staged is not None
    assert outcome.staged["entries"][0]["status"] == "archived"
