"""What the learner passes between its steps: utterances, proposals, outcomes (frozen data)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal, Protocol

#: What a proposal may claim a comment teaches.
ProposalKind = Literal["pattern", "decision", "wontfix", "suppression_hint", "none"]
KINDS: Final[tuple[ProposalKind, ...]] = (
    "pattern",
    "decision",
    "wontfix",
    "suppression_hint",
    "none",
)
#: Whether the lesson asks for something (do), against something (avoid) or keeps it (keep).
Polarity = Literal["do", "avoid", "keep"]
POLARITIES: Final[tuple[Polarity, ...]] = ("do", "avoid", "keep")
#: The version of the fixed system prompt; recorded in every candidate's `context.proposer`.
PROMPT_VERSION: Final = "lessons-v1"


@dataclass(frozen=True)
class Utterance:
    """One harvested comment: only its visible text, from a person with write access."""

    id: str  # "<pr>:<kind>:<comment id>", kind "review" (pulls comments) or "issue"
    pr: int
    comment_id: int
    author: str
    url: str
    text: str  # visible text only (no quotes, code, HTML comments, hidden HTML, invisibles)
    created_at: str  # ISO 8601 as GitHub gave it
    pr_files: tuple[str, ...] = ()  # files the pull request touched
    path: str | None = None  # the file a review comment sits on, when it does


@dataclass(frozen=True)
class Harvest:
    """What one harvest read: the utterances kept and, by reason, the comments refused."""

    repository: str  # "owner/name"
    harvested_at: str  # when this harvest ran (the next harvest's `since`)
    since: str | None  # the cursor it started from (None: one `--pr`; the cursor stays)
    utterances: tuple[Utterance, ...]
    refused: Mapping[str, int]  # reason -> count ("outsider", "bot", "command", "secret", ...)
    comments_read: int  # every comment looked at, kept or refused
    prs: tuple[int, ...] = ()  # merged pull requests read
    #: The one pull request a `--pr N` harvest read: the cursor then stays where it was.
    only_pr: int | None = None


@dataclass(frozen=True)
class Proposal:
    """What a proposer claims one utterance teaches (untrusted until checked)."""

    utterance_id: str
    kind: ProposalKind
    statement: str
    quote: str
    anchor: str
    polarity: Polarity
    paths: tuple[str, ...] = ()
    rule_id: str | None = None
    confidence: float | None = None  # recorded, never used


@dataclass(frozen=True)
class ProposerInfo:
    """Which proposer spoke: recorded in every candidate's `context.proposer`."""

    backend: str  # "stub", "openai", "ollama"
    model: str  # "stub" for the stub
    prompt_version: str = PROMPT_VERSION


@dataclass(frozen=True)
class ProposeResult:
    """A proposer's answer for one utterance: proposals, or why there are none."""

    utterance_id: str
    proposals: tuple[Proposal, ...] = ()
    #: None when the reply parsed; else "parse_failed", "refused", "truncated",
    #: "request_failed" (each counted; never repaired).
    failure: str | None = None
    detail: str = ""  # one line for the user, naming backend and model
    # e.g. "json_schema refused; retried with json_object"
    notes: tuple[str, ...] = field(default=())


class Proposer(Protocol):
    """Anything that proposes lessons for one utterance at a time."""

    @property
    def info(self) -> ProposerInfo:
        """Backend, model and prompt version."""
        ...

    def propose(self, utterance: Utterance) -> ProposeResult:
        """Proposals for this one utterance (never raises on bad model output)."""
        ...
