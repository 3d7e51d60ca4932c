"""What earlier riverbed reviews on a PR said: their state marker and the findings they posted."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

from riverbed.pr_review.markers import parse_finding_markers
from riverbed.text import comment_json

_REVIEW_MARKER = re.compile(r"<!-- riverbed:review (\{[^<>]{0,1000}?\}) -->")


@dataclass(frozen=True)
class PostedComment:
    """A review or review comment already on the PR, as far as riverbed cares."""

    body: str
    #: True only when riverbed's pinned identity wrote it (a bot: a person cannot post as
    #: one); nobody else's markers count.
    author_is_bot: bool
    path: str | None = None


@dataclass(frozen=True)
class ReviewState:
    """The state a review was posted for: phase and a digest of kept fingerprints + suppressions."""

    phase: str
    digest: str
    kept: int
    suppressions: int


def review_state(
    phase: str | None, kept_fingerprints: Iterable[str], suppression_ids: Iterable[str]
) -> ReviewState:
    """The state of this run (order and duplicates do not matter)."""
    kept = sorted(set(kept_fingerprints))
    ids = sorted(set(suppression_ids))
    payload = json.dumps({"kept": kept, "suppressions": ids}, separators=(",", ":"))
    digest = hashlib.sha256(payload.encode()).hexdigest()
    return ReviewState(phase or "", digest, len(kept), len(ids))


def format_review_marker(state: ReviewState) -> str:
    """The hidden `<!-- riverbed:review {...} -->` line that ends every riverbed review body."""
    payload = {
        "v": 1,
        "phase": state.phase,
        "state": state.digest,
        "kept": state.kept,
        "suppressions": state.suppressions,
    }
    return "<!-- riverbed:review " + comment_json(payload) + " -->"


def parse_review_marker(body: str) -> ReviewState | None:
    """The state marker in a review body, or None when there is none (or it is malformed)."""
    match = _REVIEW_MARKER.search(body)
    if not match:
        return None
    try:
        data = json.loads(match.group(1))
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("v") != 1:
        return None
    phase, digest = data.get("phase"), data.get("state")
    kept, count = data.get("kept"), data.get("suppressions")
    if not (isinstance(phase, str) and isinstance(digest, str)):
        return None
    if not (isinstance(kept, int) and isinstance(count, int)):
        return None
    return ReviewState(phase, digest, kept, count)


def last_review_state(reviews: Iterable[PostedComment], phase: str | None) -> ReviewState | None:
    """The state of the newest bot-authored riverbed review of this phase (reviews oldest first)."""
    latest: ReviewState | None = None
    for review in reviews:
        if not review.author_is_bot:
            continue
        state = parse_review_marker(review.body)
        if state is not None and state.phase == (phase or ""):
            latest = state
    return latest


def unchanged_since_last_review(
    current: ReviewState, reviews: Iterable[PostedComment]
) -> ReviewState | None:
    """The earlier review's state when it matches this run's exactly (then post nothing)."""
    previous = last_review_state(reviews, current.phase)
    return previous if previous is not None and previous.digest == current.digest else None


def posted_findings(comments: Iterable[PostedComment]) -> set[tuple[str, str]]:
    """(fingerprint, path) of every finding an earlier bot-authored inline comment carries."""
    posted: set[tuple[str, str]] = set()
    for comment in comments:
        if not comment.author_is_bot:
            continue
        for marker in parse_finding_markers(comment.body):
            posted.add((marker.fingerprint, marker.path or comment.path or ""))
    return posted
