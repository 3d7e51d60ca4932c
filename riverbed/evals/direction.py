"""Which way is better for a metric: the one rule, with defaults a user can override."""

from __future__ import annotations

import fnmatch
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

#: Words that make a metric lower-is-better by default (matched as whole words of its name).
LOWER_IS_BETTER_WORDS: Final = frozenset(
    {
        "error", "errors", "fail", "fails", "failed", "failure", "failures",
        "latency", "cost", "costs", "token", "tokens", "duration", "time", "loss",
        "fpr", "fnr",
    }
)  # fmt: skip
#: Word pairs that do the same (`falsePositiveRate`, `false_negatives`).
LOWER_IS_BETTER_PAIRS: Final = frozenset(
    {("false", "positive"), ("false", "positives"), ("false", "negative"), ("false", "negatives")}
)
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def metric_words(metric: str) -> list[str]:
    """The lower-case words of a metric name (`fixtures_falsePositiveRate` → fixtures, false…)."""
    return [w.lower() for w in _WORD.findall(metric)]


def default_lower_is_better(metric: str) -> bool:
    """True for rates of false positives, errors, failures, latency, cost, tokens, duration."""
    words = metric_words(metric)
    if any(w in LOWER_IS_BETTER_WORDS for w in words):
        return True
    return any(pair in LOWER_IS_BETTER_PAIRS for pair in itertools.pairwise(words))


def _matches(metric: str, patterns: Iterable[str]) -> bool:
    return any(metric == p or fnmatch.fnmatchcase(metric, p) for p in patterns)


@dataclass(frozen=True)
class Directions:
    """Per-metric direction: explicit names/globs first (higher wins a tie), then defaults."""

    lower: tuple[str, ...] = ()
    higher: tuple[str, ...] = ()
    defaults: bool = True

    def lower_is_better(self, metric: str) -> bool:
        """True when a smaller value of `metric` is the better one."""
        if _matches(metric, self.higher):
            return False
        if _matches(metric, self.lower):
            return True
        return self.defaults and default_lower_is_better(metric)


#: The defaults alone (no explicit names).
DEFAULT_DIRECTIONS: Final = Directions()
