"""The eval readers' view of riverbed.jsoninput: their Walker and the `{metric: number}` check."""

from __future__ import annotations

from typing import Any

from riverbed.evals.interface import finite_number
from riverbed.jsoninput import Walker
from riverbed.text import plural

#: Eval results come only through `riverbed eval` (the action reads them with format auto).
_HINT = "nothing was appended; fix the file or pass the right --format"


def reader(source: str, fmt: str) -> Walker:
    """The Walker an eval reader of format `fmt` uses on `source`."""
    return Walker(source, f"{fmt} eval result", _HINT)


def scores_of(
    w: Walker, value: Any, where: str, *, tolerate_null: bool
) -> tuple[dict[str, float], list[str]]:
    """A `{metric: number}` object; null values are skipped with a note when tolerated."""
    mapping = w.obj(value, where)
    scores: dict[str, float] = {}
    skipped: list[str] = []
    for name, raw in mapping.items():
        if not name.strip():
            w.fail(where, "a metric name is empty")
        number = finite_number(raw)
        if number is not None:
            scores[name] = number
        elif raw is None and tolerate_null:
            skipped.append(name)
        else:
            w.fail(f"{where}.{name}", f"expected a number, found {raw!r}")
    notes = (
        [f"{plural(len(skipped), 'metric')} with null value skipped: {', '.join(skipped)}"]
        if skipped
        else []
    )
    return scores, notes
