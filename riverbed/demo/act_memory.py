"""Act 1: the team's memory through the library — seed, three pull requests, expiry, evals."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from riverbed.demo.context import DemoState
from riverbed.demo.scenario import AUTHOR, MAINTAINER, RUFF_VERSION, DemoPull, Timeline, pull
from riverbed.demo.story import Step
from riverbed.findings import Finding
from riverbed.index.dates import format_timestamp
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import Entry
from riverbed.memory.review import ReviewResult

PHASE = "midstream"
IMPORTED_ID = "decision-payments-v1"
UNPARSEABLE_EXPIRY = "when payments v2 ships"


def _where(finding: Finding) -> str:
    return f"{finding.rule_id} {finding.file}:{finding.line}"


def _finding_line(finding: Finding) -> str:
    return f"{_where(finding)} {finding.message}"


def _team_entries(t: Timeline) -> list[Entry]:
    """The team's own entries: an ADR, a pattern and a won't-fix, dated before the story."""
    from riverbed.index.build import build_entry

    def by_maintainer(  # noqa: PLR0917 - one entry's facts, in the order they read
        kind: str,
        day: int,
        title: str,
        content: str,
        tags: Sequence[str] = (),
        files: Sequence[str] = (),
    ) -> Entry:
        """One of the maintainer's entries in the demo's phase, written on `day`."""
        return build_entry(
            type=kind,
            title=title,
            content=content,
            author=MAINTAINER,
            now=t.day(day),
            phase=PHASE,
            tags=tags,
            files=files,
        )

    return [
        by_maintainer(
            "adr",
            -60,
            "ADR-007: money is integer cents",
            "Prices and totals are int cents; never float. Format only at the edges.",
            tags=["money"],
            files=["src/shop/cart.py", "src/shop/checkout/**"],
        ),
        by_maintainer(
            "pattern",
            -45,
            "Lookups return None for 'not found' and raise ValueError for bad input",
            "find_* returns None when nothing matches; invalid arguments raise ValueError.",
            tags=["api"],
        ),
        by_maintainer(
            "wontfix",
            -30,
            "The nightly report keeps its CSV format",
            "Finance imports it by hand; the reporting service replaces it next quarter.",
            files=["src/shop/legacy/**"],
        ),
    ]


def seed_memory(state: DemoState) -> Step:
    """An index from another tool (one entry, bad expiry), then the team's entries on top."""
    from riverbed.index.store import append_entries, load_memory
    from riverbed.memory.record_suppression import create_suppression

    t = state.timeline
    imported = {
        "id": IMPORTED_ID,
        "type": "decision",
        "title": "Checkout keeps the v1 payment API",
        "content": "Do not migrate checkout to payments v2 until the provider's refunds work.",
        "metadata": {
            "createdAt": format_timestamp(t.day(-90)),
            "author": "river-reviewer",
            "phase": PHASE,
            "relatedFiles": ["src/shop/checkout/**"],
        },
        "expiresAt": UNPARSEABLE_EXPIRY,
    }
    state.index_path.parent.mkdir(parents=True, exist_ok=True)
    # Written as another tool would; riverbed itself refuses to write such a date.
    state.index_path.write_bytes(dumps_js({"version": "1", "entries": [imported]}))
    team = _team_entries(t)
    report = append_entries(state.index_path, team, now=t.day(-30))
    legacy = create_suppression(
        state.index_path,
        rule_id="E741",
        paths=["src/shop/legacy/**"],
        reason="Legacy report code uses short names until its rewrite.",
        feedback_type="accepted_risk",
        expires_at=t.date(30),
        author=MAINTAINER,
        now=t.day(-20),
    )
    state.carry["legacy_suppression"] = legacy["id"]
    index = load_memory(state.index_path, on_warning=state.warn)
    return Step(
        key="seed",
        act=1,
        title="The team's memory: .river/memory/index.json",
        lines=(
            f"{len(index['entries'])} entries: an ADR (money is integer cents), a pattern, a "
            f"won't-fix, a suppression of E741 in src/shop/legacy/** (expires {t.date(30)})",
            f"and a decision imported from another tool whose expiresAt is "
            f"{UNPARSEABLE_EXPIRY!r} — not a date.",
        ),
        facts={
            "entries": len(index["entries"]),
            "appended": len(report.appended),
            "legacySuppression": legacy["id"],
            "imported": IMPORTED_ID,
        },
    )


def review_pull(state: DemoState, demo_pull: DemoPull) -> ReviewResult:
    """Review one pull request's shipped SARIF against the memory, at its day."""
    from riverbed.findings import read_findings
    from riverbed.index.store import load_memory
    from riverbed.memory.change import change_from_files
    from riverbed.memory.review import review_findings

    findings_path = state.findings_file(demo_pull, state.repo)
    findings = read_findings(findings_path, root=state.repo, on_warning=state.warn)
    index = load_memory(state.index_path, on_warning=state.warn)
    return review_findings(
        findings,
        index,
        change=change_from_files(demo_pull.files, f"pull request #{demo_pull.number}"),
        phase=PHASE,
        now=state.timeline.day(demo_pull.day),
        workspace=state.repo,
    )


def _review_facts(report: ReviewResult) -> dict[str, Any]:
    counts = report.counts()
    return {
        "findings": counts["total"],
        "kept": counts["kept"],
        "suppressed": counts["suppressed"],
        "keptRules": [d.finding.rule_id for d in report.kept],
        "suppressedBy": sorted(
            {d.suppression.suppression_id for d in report.suppressed if d.suppression}
        ),
        "memoryEntries": counts["memoryEntries"],
    }


def pr_one(state: DemoState) -> Step:
    """PR #1: ruff's findings, nothing suppressed yet."""
    demo_pull = pull(1)
    report = review_pull(state, demo_pull)
    facts = _review_facts(report)
    f401 = next(f for f in report.findings if f.rule_id == "F401")
    state.carry["f401"] = f401
    return Step(
        key="pr1",
        act=1,
        title=f"PR #1 “{demo_pull.title}”: ruff {RUFF_VERSION} reports {facts['findings']}",
        lines=(
            "; ".join(_where(f) for f in report.findings)
            + f" (real SARIF shipped in riverbed/demo/data/{demo_pull.sarif_name})",
            f"kept {facts['kept']}, suppressed {facts['suppressed']}; "
            f"{facts['memoryEntries']} memory entries apply to this change.",
        ),
        facts=facts | {"f401Fingerprint": f401.fingerprint},
    )


def suppress_false_positive(state: DemoState) -> Step:
    """The team records the F401 re-export as a false positive (accepted_risk: it is major)."""
    from riverbed.memory.record_suppression import create_suppression

    finding: Finding = state.carry["f401"]
    entry = create_suppression(
        state.index_path,
        fingerprint=finding.fingerprint,
        reason="registry is re-exported for plugins: `from shop.api import registry`",
        feedback_type="accepted_risk",
        severity=finding.severity,
        related_files=[finding.file or ""],
        author=MAINTAINER,
        source_pr=1,
        now=state.timeline.day(2),
    )
    state.carry["f401_suppression"] = entry["id"]
    return Step(
        key="suppress",
        act=1,
        title=f"{MAINTAINER} suppresses the false positive {_where(finding)}",
        lines=(
            f"create_suppression(fingerprint={finding.fingerprint}) → {entry['id']}",
            f"as accepted_risk: ruff reports every rule at level error ({finding.severity}), "
            "and only accepted_risk may hide a major finding.",
        ),
        facts={"suppression": entry["id"], "fingerprint": finding.fingerprint},
    )


def pr_two(state: DemoState) -> Step:
    """PR #2 touches the same file: the suppressed finding is not raised again."""
    demo_pull = pull(2)
    report = review_pull(state, demo_pull)
    facts = _review_facts(report)
    kept = "; ".join(_finding_line(f) for f in (d.finding for d in report.kept)) or "none"
    return Step(
        key="pr2",
        act=1,
        title=f"PR #2 “{demo_pull.title}”: {facts['findings']} findings, "
        f"{facts['suppressed']} suppressed",
        lines=(
            f"F401 is not raised again (suppressed by {', '.join(facts['suppressedBy'])}; same "
            "rule, file and message → same fingerprint, lines do not count).",
            f"kept {facts['kept']}: {kept}",
        ),
        facts=facts,
    )


def expire_day(state: DemoState) -> Step:
    """Day 40: the expiry job archives the lapsed suppression and warns about the bad date."""
    from riverbed.index.model import entries_by_id, entry_status
    from riverbed.index.store import expire_entries, load_memory

    t = state.timeline
    report = expire_entries(state.index_path, now=t.day(40))
    index = load_memory(state.index_path, on_warning=lambda _m: None)
    statuses = {k: entry_status(v) for k, v in entries_by_id(index).items()}
    unparseable = [w for w in report.warnings if IMPORTED_ID in w]
    return Step(
        key="expire",
        act=1,
        title=f"Day 40, expire: archived {len(report.archived)}, warned {len(report.warnings)}",
        lines=(
            f"archived {', '.join(report.archived) or 'nothing'} (expired {t.date(30)}); "
            "archived, not deleted: nothing is lost.",
            f"kept {IMPORTED_ID} active with a warning: {UNPARSEABLE_EXPIRY!r} is not a date, "
            "so it is no evidence that a deadline passed.",
        ),
        facts={
            "archived": list(report.archived),
            "warnings": list(report.warnings),
            "unparseableWarned": bool(unparseable),
            "importedStatus": statuses.get(IMPORTED_ID),
            "legacyStatus": statuses.get(state.carry["legacy_suppression"]),
        },
    )


def pr_three(state: DemoState) -> Step:
    """PR #3 in the legacy code: with its suppression expired, E741 is raised again."""
    demo_pull = pull(3)
    report = review_pull(state, demo_pull)
    facts = _review_facts(report)
    wontfix = len(report.memory.wontfixes)
    return Step(
        key="pr3",
        act=1,
        title=f"PR #3 “{demo_pull.title}”: {facts['findings']} finding, "
        f"{facts['suppressed']} suppressed",
        lines=(
            "kept: "
            + "; ".join(_finding_line(f) for f in (d.finding for d in report.kept))
            + " — its suppression expired, so it is back.",
            f"memory for this change: {wontfix} won't-fix (the CSV report) for a reviewer's "
            "prompt; `riverbed context` prints it.",
        ),
        facts=facts | {"wontfixes": wontfix},
    )


def _eval_file(directory: Path, name: str, precision: float, fpr: float, passed: int) -> Path:
    import json

    cases = [{"id": f"case-{n}", "pass": n <= passed} for n in range(1, 11)]
    doc = {"suite": "review-bot", "scores": {"precision": precision, "falsePositiveRate": fpr}}
    path = directory / name
    path.write_text(json.dumps(doc | {"cases": cases}, indent=2), encoding="utf-8")
    return path


def eval_regression(state: DemoState) -> Step:
    """Two eval runs of the team's review bot; the second is worse and is caught."""
    from riverbed.evals import persist_eval_results

    folder = state.root / "evals"
    folder.mkdir(parents=True, exist_ok=True)
    t = state.timeline
    first = _eval_file(folder, "run-1.json", 0.91, 0.04, 10)
    second = _eval_file(folder, "run-2.json", 0.84, 0.09, 8)
    common: dict[str, Any] = {"branch": "main", "author": AUTHOR, "on_warning": state.warn}
    persist_eval_results(state.index_path, str(first), now=t.day(41), commit="a1" * 20, **common)
    report = persist_eval_results(
        state.index_path, str(second), now=t.day(42), commit="b2" * 20, **common
    )
    regressed = [c for comparison in report.comparisons for c in comparison.regressions]
    described = ", ".join(
        f"{c.metric} {c.baseline:g} → {c.newest:g}"
        for c in regressed
        if c.baseline is not None and c.newest is not None
    )
    return Step(
        key="evals",
        act=1,
        title=f"Evals: 2 runs of review-bot persisted; {report.regressions} regressions caught",
        lines=(
            f"{described} (beyond tolerance 0.01; falsePositiveRate: lower is better)",
            "`riverbed eval compare --fail-on-regression` would exit 1 here.",
        ),
        facts={
            "appended": list(report.appended),
            "regressions": report.regressions,
            "regressedMetrics": [c.metric for c in regressed],
            "status": report.status,
        },
    )


def status_view(state: DemoState) -> Step:
    """The orientation view the story ends on."""
    from riverbed.index.store import load_memory
    from riverbed.memory.status import status_data, status_headline

    index = load_memory(state.index_path, on_warning=lambda _m: None)
    data = status_data(index, state.timeline.day(42), path=str(state.index_path))
    salient = data["salient"]
    tensions = data["tensions"]["items"]
    command = f"riverbed --index {state.index_path} status"
    where = command if state.kept else "riverbed status (run the demo with --keep to try it)"
    return Step(
        key="status",
        act=1,
        title=f"riverbed status: {status_headline(data)}",
        lines=(
            f"in force: {salient['suppressions']['count']} suppression, "
            f"{salient['decisions']['count']} decisions/ADRs; "
            f"open tensions: {data['tensions']['count']}; "
            f"unparseable expiries: {data['unparseableExpiries']['count']}; "
            f"changed in the last 14 days: {data['recent']['count']}",
            *(f"tension: {t['detail']}" for t in tensions[:1]),
            f"the full view: {where}",
        ),
        facts={
            "entries": data["entries"],
            "byStatus": data["byStatus"],
            "suppressionsInForce": salient["suppressions"]["count"],
            "tensions": data["tensions"]["count"],
            "unparseableExpiries": data["unparseableExpiries"]["count"],
        },
    )


ACT_ONE = (
    seed_memory,
    pr_one,
    suppress_false_positive,
    pr_two,
    expire_day,
    pr_three,
    eval_regression,
    status_view,
)
