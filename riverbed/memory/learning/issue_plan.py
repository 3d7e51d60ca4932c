"""Which GitHub issues the scheduled job keeps open, and their text (pure: data in, actions out)."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from riverbed.errors import RiverbedError
from riverbed.evals.compare import compare_suite
from riverbed.evals.history import EvalHistory
from riverbed.memory.learning.candidates import Offer
from riverbed.memory.learning.model import Insights
from riverbed.memory.learning.render import thresholds_line
from riverbed.text import code, defuse_markers, inline, one_line, table

#: Every issue riverbed opens carries this label (and is looked up by it).
ISSUE_LABEL: Final = "riverbed"
REGRESSION: Final = "eval-regression"
CANDIDATES: Final = "promotion-candidates"
_MARKER: Final = re.compile(r"<!-- riverbed:issue (\{[^<>]*\}) -->")


def issue_marker(kind: str, key: str, **extra: str) -> str:
    """The hidden marker that names what an issue is about (safe inside any Markdown)."""
    text = json.dumps({"kind": kind, "key": key, **extra}, ensure_ascii=False, sort_keys=True)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f"<!-- riverbed:issue {text} -->"


def parse_issue_marker(body: str) -> dict[str, str] | None:
    """The first well-formed marker of an issue body (kind and key are strings), or None."""
    for match in _MARKER.finditer(body or ""):
        try:
            data = json.loads(match.group(1))
        except ValueError:
            continue
        if (
            isinstance(data, dict)
            and all(isinstance(v, str) for v in data.values())
            and isinstance(data.get("kind"), str)
            and isinstance(data.get("key"), str)
        ):
            return {str(k): str(v) for k, v in data.items()}
    return None


@dataclass(frozen=True)
class ExistingIssue:
    """An open issue the job's own identity created with the label and a marker."""

    number: int
    title: str
    body: str
    marker: dict[str, str]


@dataclass(frozen=True)
class IssueAction:
    """One thing to do on GitHub: open, update (title/body), close (with a comment) or keep."""

    action: str  # open | update | close | keep
    kind: str
    key: str
    title: str
    body: str = ""
    comment: str = ""
    number: int | None = None


def regression_title(suite: str) -> str:
    """`riverbed: eval regression in SUITE` (plain text: one line, no control or bidi)."""
    return f"riverbed: eval regression in {one_line(suite, 200)}"


CANDIDATES_TITLE: Final = "riverbed: promotion candidates"
_FOOTER: Final = (
    "\n\n---\n*Kept current by riverbed's scheduled job (`open-issues: true`); it is updated "
    "on every run and closed when there is nothing left to say. Edits here are overwritten.*"
)


def _regression_body(
    suite: str, baseline_id: str, rows: list[list[str]], newest: str, t: str
) -> str:
    # The suite name and run ids come from the results files: only through `code`, whose
    # fence no backtick in them can close (a raw span let a name break out into mentions, HTML).
    command = f"riverbed eval compare --suite {shlex.quote(suite)} --against {baseline_id}"
    lines = [
        f"The eval suite {code(suite)} regressed: its newest run {code(newest)} is worse than "
        f"the run before the regression, {code(baseline_id)}, on {len(rows)} metric(s).",
        "",
        table(["metric", "baseline", "newest", "change"], rows),
        "",
        f"Thresholds: {inline(t)}. Compare yourself: {code(command, 1000)}.",
    ]
    return _marked(issue_marker(REGRESSION, suite, baseline=baseline_id), lines)


def _marked(marker: str, lines: list[str]) -> str:
    """An issue body: its marker, then the text, which the final guard keeps free of others."""
    return marker + "\n" + defuse_markers("\n".join(lines) + _FOOTER)


def _rows(changes: Sequence[Any]) -> list[list[str]]:
    return [
        [code(c.metric), f"{c.baseline:g}", f"{c.newest:g}", f"{c.newest - c.baseline:+.4g}"]
        for c in changes
    ]


def _regression_actions(
    insights: Insights, history: EvalHistory, existing: dict[tuple[str, str], ExistingIssue]
) -> list[IssueAction]:
    actions: list[IssueAction] = []
    t = insights.thresholds
    tline = thresholds_line(t)
    current = {r.suite for r in insights.regressions}
    suites = set(history.suites())
    open_suites = {key for kind, key in existing if kind == REGRESSION}
    for suite in sorted(current | open_suites):
        issue = existing.get((REGRESSION, suite))
        records = history.of_suite(suite)
        if not records:
            assert issue is not None
            actions.append(IssueAction("keep", REGRESSION, suite, issue.title, number=issue.number))
            continue
        baseline_id = issue.marker.get("baseline", "") if issue else ""
        try:
            comparison = compare_suite(
                records, against=baseline_id or "previous", tolerance=t.tolerance, history=history
            )
        except RiverbedError:  # the recorded baseline left memory: judge against the previous run
            comparison = compare_suite(records, against="previous", tolerance=t.tolerance)
        regressed = comparison.regressions
        base = comparison.baseline.entry_id if comparison.baseline else baseline_id
        newest = comparison.newest.label
        title = regression_title(suite)
        if regressed:
            body = _regression_body(suite, base, _rows(regressed), newest, tline)
            if issue is None:
                actions.append(IssueAction("open", REGRESSION, suite, title, body))
            elif issue.body != body or issue.title != title:
                actions.append(
                    IssueAction("update", REGRESSION, suite, title, body, number=issue.number)
                )
            else:
                actions.append(IssueAction("keep", REGRESSION, suite, title, number=issue.number))
        elif issue is not None and suite in suites:
            comment = (
                f"Recovered: the newest run {code(newest)} of {code(suite)} is within the "
                f"tolerance ({t.tolerance:g}) of {code(base)} on every metric. Closing."
            )
            actions.append(
                IssueAction("close", REGRESSION, suite, title, comment=comment, number=issue.number)
            )
    return actions


def _candidates_body(insights: Insights, offered: Sequence[Offer], held: int) -> str:
    rows = []
    for offer in offered:
        ctx = offer.entry.get("context", {})
        suggestion = ctx.get("suggestion", {}) if isinstance(ctx, dict) else {}
        rows.append(
            [
                code(str(offer.entry["id"])),
                inline(f"{ctx.get('clusterKind')} {ctx.get('clusterKey')}"),
                str(ctx.get("weight")),
                inline(", ".join(f"#{n}" for n in ctx.get("prs", []))),
                code(str(suggestion.get("command", "")), 300),
                str(offer.re_offers),
            ]
        )
    lines = [
        f"{len(offered)} promotion candidate(s) on offer: suppressions that recurred in at "
        f"least {insights.thresholds.min_prs} distinct pull requests. Nothing is applied by "
        "itself; a maintainer decides.",
        "",
        table(["candidate", "cluster", "weight", "pull requests", "suggestion", "re-offers"], rows),
        "",
        "Promote with `/riverbed promote ID` on any pull request (or `riverbed promote ID`), "
        'decline with `/riverbed decline ID --reason "…"`.',
        "",
        f"Thresholds: {inline(thresholds_line(insights.thresholds))}; "
        f"{held} declined cluster(s) held back until new pull requests join them.",
    ]
    return _marked(issue_marker(CANDIDATES, "all"), lines)


def plan_issues(
    insights: Insights,
    history: EvalHistory,
    offers: Sequence[Offer],
    existing: Sequence[ExistingIssue],
) -> list[IssueAction]:
    """What to do so there is exactly one current issue per regressed suite and for candidates."""
    mine = {
        (i.marker["kind"], i.marker["key"]): i for i in sorted(existing, key=lambda i: -i.number)
    }
    actions = _regression_actions(insights, history, mine)
    offered = [o for o in offers if o.state == "offered"]
    held = sum(1 for o in offers if o.state == "declined")
    issue = mine.get((CANDIDATES, "all"))
    if offered:
        body = _candidates_body(insights, offered, held)
        if issue is None:
            actions.append(IssueAction("open", CANDIDATES, "all", CANDIDATES_TITLE, body))
        elif issue.body != body:
            actions.append(
                IssueAction(
                    "update", CANDIDATES, "all", CANDIDATES_TITLE, body, number=issue.number
                )
            )
        else:
            actions.append(
                IssueAction("keep", CANDIDATES, "all", CANDIDATES_TITLE, number=issue.number)
            )
    elif issue is not None:
        done = sum(1 for o in offers if o.state == "promoted")
        comment = (
            f"No promotion candidate is on offer any more ({done} promoted, {held} declined). "
            "Closing; a new one reopens the conversation in a new issue."
        )
        actions.append(
            IssueAction(
                "close", CANDIDATES, "all", CANDIDATES_TITLE, comment=comment, number=issue.number
            )
        )
    return actions
