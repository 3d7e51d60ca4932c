"""Act 2, continued: the conversation follows the code — history, resolved threads, suggestions, 👎.

The same stand-in and PR #4 as act 2: the default branch records finding history, a finding
fixed on main comes back in the PR, a push to the PR fixes it (its thread is resolved), the
inline comments carry ruff's fixes as suggestions, and three maintainers' 👎 on one rule's
comment become a candidate in `riverbed insights` (never a suppression).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from riverbed.demo.act_action import REPOSITORY, DemoStepError, _gh, _run, _where
from riverbed.demo.context import DemoState
from riverbed.demo.scenario import MAINTAINER, pull, source_text
from riverbed.demo.story import Step
from riverbed.demo.terminal import for_terminal

FIXED_RULE = "E711"
MAIN_SHAS = ("7a" * 20, "7b" * 20)
PR_HEAD = "7c" * 20
VOTERS = (MAINTAINER, "dev-kim", "dev-ola")


def _findings(state: DemoState, name: str, *, without: str | None = None) -> Path:
    """PR #4's ruff SARIF checked out under `name`, optionally without one rule's results."""
    workspace = state.root / "runs" / name / "workspace"
    path = state.findings_file(pull(4), workspace)
    if without is not None:
        log = json.loads(path.read_text(encoding="utf-8"))
        for run in log["runs"]:
            run["results"] = [r for r in run["results"] if r.get("ruleId") != without]
        path.write_text(json.dumps(log), encoding="utf-8")
    return path


def _push_main(state: DemoState, name: str, day: int, sha: str, without: str | None) -> None:
    from riverbed.testing.events import push_event

    findings = _findings(state, name, without=without)
    _run(
        state,
        name,
        mode="persist",
        event_name="push",
        payload=push_event(after=sha, **_where(state)),
        workspace=findings.parent,
        inputs={"findings": findings.name},
        now=state.timeline.day(day),
        extra_env={"GITHUB_SHA": sha, "GITHUB_REF_NAME": "main"},
    )


def _review_pr(state: DemoState, name: str, day: int, head: str, without: str | None) -> str:
    """A review run on PR #4 at `head`; the body of the review it posted."""
    from riverbed.testing.events import pull_request_event

    gh = _gh(state)
    gh.pulls[4]["head_sha"] = head
    for path in pull(4).files:
        gh.contents.add_file(path, source_text(pull(4), path).encode("utf-8"), ref=head)
    findings = _findings(state, name, without=without)
    before = {r["id"] for r in gh.reviews[4]}
    _run(
        state,
        name,
        mode="review",
        event_name="pull_request",
        payload=pull_request_event(4, head, action="synchronize", **_where(state)),
        workspace=findings.parent,
        inputs={"findings": findings.name, "phase": "midstream"},
        now=state.timeline.day(day),
    )
    posted = [r for r in gh.reviews[4] if r["id"] not in before]
    return str(posted[-1]["body"]) if posted else ""


def history_back(state: DemoState) -> Step:
    """main records history; E711 is fixed there, and PR #4 brings it back."""
    _push_main(state, "6-main-push", 71, MAIN_SHAS[0], None)
    _push_main(state, "7-main-fix", 72, MAIN_SHAS[1], FIXED_RULE)
    body = _review_pr(state, "8-review-back", 73, PR_HEAD, None)
    plain = for_terminal(body).replace("\\", "")
    back = [line for line in plain.splitlines() if "fixed in" in line and "back" in line]
    if not back:
        raise DemoStepError("the review lists no finding that is back after a fix on main")
    return Step(
        key="history-back",
        act=2,
        title=f"finding history: {FIXED_RULE} fixed on main in {MAIN_SHAS[1][:7]}, back in PR #4",
        lines=(
            "persist mode on main recorded each finding key's changes of state (first seen, "
            "fixed in, back in), one small record per change;",
            *back[:2],
        ),
        facts={"back": back, "fixedIn": MAIN_SHAS[1][:12]},
    )


def _suggestion(state: DemoState) -> str:
    for comment in _gh(state).review_comments[4]:
        body = str(comment.get("body", ""))
        found = re.search(r"(`{3,})suggestion\n(.*?)\n\1", body, re.S)
        if found:
            return found.group(2)
    raise DemoStepError("no inline comment carries a suggested change")


def thread_resolved(state: DemoState) -> Step:
    """A push to PR #4 fixes E711: riverbed replies in its thread and resolves it."""
    gh = _gh(state)
    head = "7d" * 20
    _review_pr(state, "9-review-fixed", 74, head, FIXED_RULE)
    replies = [
        str(c["body"])
        for c in gh.review_comments[4]
        if c.get("in_reply_to_id") and "Fixed in" in str(c.get("body", ""))
    ]
    if not replies or not gh.resolved_threads:
        raise DemoStepError("the fixed finding's thread was not answered and resolved")
    suggestion = _suggestion(state)
    return Step(
        key="thread-resolved",
        act=2,
        title=f"threads follow the code: {FIXED_RULE} fixed by a push, its thread resolved",
        lines=(
            "reply: " + for_terminal(replies[-1]).strip().splitlines()[-1],
            f"resolved threads: {len(gh.resolved_threads)} (only riverbed's own, never a "
            "person's; a person's reply keeps a thread open)",
            "ruff's fix became a GitHub suggested change on its inline comment: "
            + for_terminal(suggestion).strip().replace("\n", " ⏎ "),
        ),
        facts={
            "reply": replies[-1],
            "resolved": len(gh.resolved_threads),
            "suggestion": suggestion,
        },
    )


def reactions_candidate(state: DemoState) -> Step:
    """Three maintainers 👎 riverbed's F401 comment; the scheduled job keeps the signals."""
    from riverbed.testing.events import schedule_event
    from riverbed.testing.github.reaction_routes import add_reaction

    gh = _gh(state)
    target = next(c for c in gh.review_comments[4] if "F401" in str(c.get("body", "")))
    for login in VOTERS:
        gh.set_permission(login, "write")
        add_reaction(gh, int(target["id"]), login, "-1")
    add_reaction(gh, int(target["id"]), "drive-by", "-1")  # read access only: not counted
    run = _run(
        state,
        "10-expire-reactions",
        mode="expire",
        event_name="schedule",
        payload=schedule_event(**_where(state)),
        workspace=state.root / "runs" / "10-expire-reactions" / "workspace",
        now=state.timeline.day(75),
    )
    from riverbed.index.jsonbytes import loads
    from riverbed.memory.reaction_feedback import feedback_candidates, recorded_signals

    index: Any = loads(run.staged.read_text(encoding="utf-8"))
    candidates = feedback_candidates(recorded_signals(index))
    if not candidates:
        raise DemoStepError("three maintainers' 👎 did not make a candidate")
    candidate = candidates[0]
    return Step(
        key="reactions-candidate",
        act=2,
        title=f"reactions as feedback: {len(VOTERS)} maintainers 👎 the F401 comment → "
        f"a candidate for {candidate['ruleId']}",
        lines=(
            "a reader's 👎 is counted as not having write access, and dropped;",
            f"candidate: {candidate['why']}",
            "nothing is suppressed by a reaction: `riverbed insights` shows it, a person decides.",
        ),
        facts={"candidate": candidate, "repository": REPOSITORY},
    )


ACT_FOUR = (history_back, thread_resolved, reactions_candidate)
