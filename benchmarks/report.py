"""The benchmark report: a table with ratios and targets, and the memory figures."""

from __future__ import annotations

from typing import Any

from benchmarks.cases import Row


def _seconds(value: float) -> str:
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def render(rows: list[Row], memory: dict[str, int]) -> str:
    """Markdown table (readable in a terminal and pasteable into docs)."""
    lines = [
        "| benchmark | entries | riverbed | floor | floor time | ratio | target | met | note |",
        "| --- | ---: | ---: | --- | ---: | ---: | --- | --- | --- |",
    ]
    for row in rows:
        ratio = f"{row.ratio:.2f}×" if row.ratio is not None else "-"
        met = {True: "yes", False: "**no**", None: "-"}[row.met]
        floor = _seconds(row.floor) if row.floor else "-"
        lines.append(
            f"| {row.name} | {row.size:,} | {_seconds(row.median)} | {row.floor_name} | "
            f"{floor} | {ratio} | {row.target} | {met} | {row.note} |"
        )
    entries = memory["entries"]
    grown = memory["after"] - memory["before"]
    lines += [
        "",
        f"Memory for loading {entries:,} entries: peak RSS {memory['peak'] / 2**20:.0f} MiB; "
        f"resident growth {grown / 2**20:.0f} MiB = "
        f"{grown / max(entries, 1):,.0f} bytes per entry.",
    ]
    missed = [r.name for r in rows if r.met is False]
    lines.append(
        f"Targets: {sum(r.met is True for r in rows)} met, {len(missed)} missed"
        + (f" ({', '.join(missed)})" if missed else "")
        + "."
    )
    return "\n".join(lines)


def rows_as_json(rows: list[Row], memory: dict[str, int]) -> dict[str, Any]:
    """The same figures as data."""
    return {
        "rows": [
            {
                "name": r.name,
                "entries": r.size,
                "seconds": r.median,
                "floor": r.floor_name,
                "floorSeconds": r.floor,
                "ratio": r.ratio,
                "target": r.target,
                "met": r.met,
                "note": r.note,
            }
            for r in rows
        ],
        "memory": memory,
    }
