"""One line for a kept finding whose rule was suppressed in other pull requests (pure)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from riverbed.index.model import Index
from riverbed.memory.learning.analysis import (
    active_suppressions,
    cluster_id,
    source_pr,
    suppression_rule,
)
from riverbed.memory.learning.candidates import offers


def rule_hints(
    index: Index, rules: Iterable[str | None], *, pull_number: int | None, now: datetime
) -> dict[str, str]:
    """Rule → "suppressed in N other pull requests; candidate …" for the rules that were.

    Only suppressions in effect count, each pull request once, and never the pull request
    under review itself (its own suppressions are no recurrence elsewhere).
    """
    wanted = {r for r in rules if r}
    if not wanted:
        return {}
    prs: dict[str, set[int]] = {}
    for entry in active_suppressions(index, now):
        rule = suppression_rule(entry)
        number = source_pr(entry)
        if rule in wanted and number is not None and number != pull_number:
            prs.setdefault(rule, set()).add(number)
    table = offers(index)
    out: dict[str, str] = {}
    for rule, numbers in sorted(prs.items()):
        count = len(numbers)
        line = f"suppressed in {count} other pull request{'s' if count != 1 else ''}"
        offer = table.get(cluster_id("rule", rule))
        if offer is not None and offer.state == "offered":
            line += f"; candidate {offer.entry['id']}"
        elif offer is not None:
            line += f"; candidate {offer.entry['id']} {offer.state}"
        out[rule] = line
    return out
