"""The runs dashboard: per-run counts of the default branch and a Mermaid trend (pure)."""

from __future__ import annotations

from typing import Any

from riverbed.index.model import Index, context
from riverbed.memory.history import current_history, history_runs
from riverbed.text import mermaid_label

#: Counts each run carries (the history records them; see docs/REVIEW.md). `kept` and
#: `suppressed` (what memory hid) are recorded since the suppression ledger.
RUN_COUNTS = ("findings", "new", "fixed", "back", "kept", "suppressed")


def _rate(run: dict[str, Any]) -> dict[str, Any]:
    """The run with its suppression rate (suppressed / findings), when both are known."""
    suppressed, findings = run.get("suppressed"), run.get("findings")
    if isinstance(suppressed, int) and isinstance(findings, int) and findings > 0:
        return run | {"suppressionRate": round(suppressed / findings, 4)}
    return run


def runs_data(index: Index, last: int) -> dict[str, Any]:
    """The newest `last` runs kept in memory, oldest first, and how many are not shown."""
    entry = current_history(index)
    runs = [
        _rate(
            {"commit": str(r.get("commit", "")), "at": str(r.get("at", ""))}
            | {k: r[k] for k in RUN_COUNTS if isinstance(r.get(k), int)}
        )
        for r in history_runs(entry)
    ]
    dropped = context(entry).get("runsDropped", 0) if entry is not None else 0
    shown = runs[-last:]
    return {
        "branch": context(entry).get("branch") if entry is not None else None,
        "history": entry.get("id") if entry is not None else None,
        "runs": shown,
        "notShown": len(runs) - len(shown) + (dropped if isinstance(dropped, int) else 0),
        "mermaid": mermaid_trend(shown, context(entry).get("branch") if entry else None),
    }


def mermaid_trend(runs: list[dict[str, Any]], branch: object) -> str:
    """A Mermaid xychart: findings as a line, new and fixed as bars, one point per run."""
    if not runs:
        return ""
    labels = ", ".join(f'"{str(r["commit"])[:7]}"' for r in runs)
    series = {k: ", ".join(str(r.get(k, 0)) for r in runs) for k in RUN_COUNTS}
    name = branch if isinstance(branch, str) and branch.isprintable() else "default branch"
    lines = [
        "xychart-beta",
        f'    title "Findings on {mermaid_label(name)}, last {len(runs)} runs"',
        f"    x-axis [{labels}]",
        '    y-axis "count"',
        f"    line [{series['findings']}]",
        f"    bar [{series['new']}]",
        f"    bar [{series['fixed']}]",
    ]
    return "\n".join(lines)


def render_runs(data: dict[str, Any]) -> str:
    """The text view: one line per run, newest last, then the Mermaid source."""
    if not data["runs"]:
        return (
            "no default-branch runs in memory yet (persist mode records them on a push to the "
            "default branch or a scheduled run, with `findings` set)"
        )
    lines = [f"runs on {data['branch']} (history {data['history']}):"]
    for run in data["runs"]:
        counts = ", ".join(f"{run[k]} {k}" for k in RUN_COUNTS if k in run)
        if "suppressionRate" in run:
            counts += f", {run['suppressionRate']:.0%} suppressed by memory"
        lines.append(f"  {run['commit'][:12]}  {run['at'][:16]}  {counts}")
    if data["notShown"]:
        lines.append(f"({data['notShown']} older runs not shown)")
    lines += ["", "```mermaid", data["mermaid"], "```"]
    return "\n".join(lines)
