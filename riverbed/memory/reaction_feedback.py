"""Reactions on riverbed's inline comments as feedback signals kept in memory (pure).

A 👍, 👎 or 😕 a person with write access left on a comment riverbed posted for a finding is a
signal: who, which finding (fingerprint) and rule, when. Signals are kept in `review`
entries (`context.kind: "reaction-feedback"`), one per run that found new ones, each signal
once (by comment, person and reaction). `insights` tallies them per rule; a rule with
repeated 👎 from several people becomes a candidate — to re-grade or to suppress — with its
evidence. A reaction never suppresses anything by itself.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from riverbed.index.dates import format_timestamp
from riverbed.index.model import Entry, Index, context, is_active

FEEDBACK_KIND: Final = "reaction-feedback"
FEEDBACK_TAG: Final = "riverbed-feedback"
#: GitHub reaction content → the signal it gives.
SIGNALS: Final = {"+1": "up", "-1": "down", "confused": "confused"}
#: 👎 from at least this many people (and more 👎 than 👍) make a rule a candidate.
MIN_DOWN_VOTERS: Final = 3


@dataclass(frozen=True)
class Signal:
    """One person's reaction on one of riverbed's finding comments."""

    comment: int
    user: str
    reaction: str  # up | down | confused
    fingerprint: str
    rule: str
    at: str
    pull: int | None = None

    @property
    def key(self) -> str:
        """What makes a signal the same one: the comment, the person, the reaction."""
        return f"{self.comment}:{self.user.lower()}:{self.reaction}"

    def to_dict(self) -> dict[str, Any]:
        """The signal as an entry keeps it."""
        out: dict[str, Any] = {
            "comment": self.comment,
            "user": self.user,
            "reaction": self.reaction,
            "fingerprint": self.fingerprint,
            "ruleId": self.rule,
            "at": self.at,
        }
        if self.pull is not None:
            out["pull"] = self.pull
        return out


def _signal(raw: Any) -> Signal | None:
    if not isinstance(raw, dict):
        return None
    fields = (raw.get("comment"), raw.get("user"), raw.get("reaction"), raw.get("ruleId"))
    if not (type(fields[0]) is int and all(isinstance(f, str) for f in fields[1:])):
        return None
    if raw.get("reaction") not in SIGNALS.values():
        return None
    pull = raw.get("pull")
    return Signal(
        raw["comment"],
        raw["user"],
        raw["reaction"],
        str(raw.get("fingerprint") or ""),
        raw["ruleId"],
        str(raw.get("at") or ""),
        pull if type(pull) is int else None,
    )


def recorded_signals(index: Index) -> list[Signal]:
    """Every signal memory keeps, each once (the first record of it wins)."""
    seen: dict[str, Signal] = {}
    for entry in index.get("entries", []):
        if entry.get("type") != "review" or context(entry).get("kind") != FEEDBACK_KIND:
            continue
        if not is_active(entry):
            continue
        raw = context(entry).get("signals")
        for item in raw if isinstance(raw, list) else ():
            signal = _signal(item)
            if signal is not None:
                seen.setdefault(signal.key, signal)
    return list(seen.values())


def new_signals(index: Index, gathered: Iterable[Signal]) -> list[Signal]:
    """The gathered signals memory does not keep yet (so a second run writes nothing)."""
    known = {s.key for s in recorded_signals(index)}
    out: dict[str, Signal] = {}
    for signal in gathered:
        if signal.key not in known:
            out.setdefault(signal.key, signal)
    return list(out.values())


def feedback_entry(signals: Sequence[Signal], *, now: datetime, author: str) -> Entry:
    """A `review` entry keeping new signals (River Reviewer's v1 schema accepts it)."""
    keys = "\n".join(sorted(s.key for s in signals))
    digest = hashlib.sha256(keys.encode("utf-8")).hexdigest()[:12]
    rules = Counter(s.rule for s in signals)
    return {
        "id": f"feedback-reactions-{digest}",
        "type": "review",
        "title": f"Reactions on riverbed's comments: {len(signals)} new signals",
        "content": "Reactions (👍 👎 😕) people with write access left on riverbed's finding "
        "comments, kept as feedback. They suppress nothing by themselves. Rules: "
        + ", ".join(f"{rule} ({n})" for rule, n in sorted(rules.items())),
        "metadata": {"createdAt": format_timestamp(now), "author": author, "tags": [FEEDBACK_TAG]},
        "context": {"kind": FEEDBACK_KIND, "signals": [s.to_dict() for s in signals]},
    }


def feedback_by_rule(signals: Iterable[Signal]) -> dict[str, dict[str, int]]:
    """Per rule: how many up, down and confused signals (`insights --json` `feedback`)."""
    out: dict[str, dict[str, int]] = {}
    for signal in signals:
        counts = out.setdefault(signal.rule, {"up": 0, "down": 0, "confused": 0})
        counts[signal.reaction] += 1
    return dict(sorted(out.items()))


def feedback_candidates(
    signals: Sequence[Signal], *, min_voters: int = MIN_DOWN_VOTERS
) -> list[dict[str, Any]]:
    """Rules 👎'd by at least `min_voters` people, more down than up: candidates with evidence."""
    tally = feedback_by_rule(signals)
    out = []
    for rule, counts in tally.items():
        downs = [s for s in signals if s.rule == rule and s.reaction == "down"]
        voters = sorted({s.user.lower() for s in downs})
        if len(voters) < min_voters or counts["down"] <= counts["up"]:
            continue
        out.append(
            {
                "ruleId": rule,
                "suggest": "severity-override or suppression",
                "why": f"{counts['down']} 👎 from {len(voters)} people with write access, "
                f"{counts['up']} 👍; a reaction suppresses nothing: decide with "
                f"`riverbed suppress --rule {rule} …` or a severity override",
                "evidence": [
                    {"comment": s.comment, "user": s.user, "at": s.at, "pull": s.pull}
                    for s in sorted(downs, key=lambda s: (s.at, s.comment))
                ],
            }
        )
    return out


def feedback_text(signals: Sequence[Signal]) -> str:
    """The feedback section of `riverbed insights`: per rule, then candidates with evidence."""
    lines = [f"\nReactions as feedback: {len(signals)} signals from people with write access"]
    for rule, counts in feedback_by_rule(signals).items():
        lines.append(f"  {rule}: {counts['up']} 👍, {counts['down']} 👎, {counts['confused']} 😕")
    for candidate in feedback_candidates(signals):
        lines.append(
            f"  candidate: {candidate['ruleId']} ({candidate['suggest']}): {candidate['why']}"
        )
        for item in candidate["evidence"][:5]:
            pull = f" on #{item['pull']}" if item.get("pull") else ""
            lines.append(
                f"    👎 {item['user']} on comment {item['comment']}{pull} at {item['at']}"
            )
    if not signals:
        lines.append(
            "  none kept yet (the scheduled job reads reactions on riverbed's comments; "
            "input reactions-feedback)"
        )
    return "\n".join(lines)
