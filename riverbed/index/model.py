"""Names of the index format: entry types, phases, statuses, and small accessors over entries."""

from __future__ import annotations

from typing import (
    Any,
    Final,
    Literal,
    NotRequired,
    Required,
    TypeAlias,
    TypedDict,
    TypeGuard,
    cast,
    get_args,
)

INDEX_VERSION: Final = "1"
DEFAULT_INDEX_PATH: Final = ".river/memory/index.json"
#: The entry types as a type (the MCP SDK publishes it as an enum); ENTRY_TYPES is its values.
EntryType: TypeAlias = Literal[
    "adr",
    "review",
    "wontfix",
    "pattern",
    "decision",
    "eval_result",
    "suppression",
    "resurface",
    "promotion_candidate",
]
ENTRY_TYPES: Final[tuple[EntryType, ...]] = get_args(EntryType)
Phase: TypeAlias = Literal["upstream", "midstream", "downstream"]
PHASES: Final[tuple[Phase, ...]] = get_args(Phase)
Status: TypeAlias = Literal["active", "superseded", "archived"]
STATUSES: Final[tuple[Status, ...]] = get_args(Status)
#: DESIGN's order for merges: a status never goes backwards along it.
STATUS_RANK: Final[dict[str, int]] = {status: rank for rank, status in enumerate(STATUSES)}
Severity: TypeAlias = Literal["info", "minor", "major", "critical"]
SEVERITIES: Final[tuple[Severity, ...]] = get_args(Severity)
#: Severity order used by the suppression guard, `--fail-on` and review ordering.
SEVERITY_RANK: Final[dict[str, int]] = {severity: rank for rank, severity in enumerate(SEVERITIES)}
FeedbackType: TypeAlias = Literal[
    "false_positive", "accepted_risk", "wont_fix", "not_relevant", "duplicate"
]
FEEDBACK_TYPES: Final[tuple[FeedbackType, ...]] = get_args(FeedbackType)
Scope: TypeAlias = Literal["file", "subsystem", "global"]
SCOPES: Final[tuple[Scope, ...]] = get_args(Scope)
#: Keys in `context` that record lifecycle changes rather than the entry's body.
LIFECYCLE_CONTEXT_KEYS: Final = ("archivedReason", "declined")


class Metadata(TypedDict, total=False):
    """An entry's `metadata` (riverbed-entry.schema.json: `createdAt` and `author` required)."""

    createdAt: Required[str]
    author: Required[str]
    updatedAt: str
    phase: Phase
    tags: list[str]
    relatedFiles: list[str]
    links: list[str]
    confidence: float
    summary: str


class SuppressionMatch(TypedDict, total=False):
    """A wider suppression's `context.match`: a rule, optionally narrowed to path globs."""

    ruleId: Required[str]
    paths: list[str]


class Declined(TypedDict):
    """`context.declined` of a promotion candidate a maintainer declined."""

    by: str
    at: str
    reason: str


class Context(TypedDict, total=False):
    """An entry's `context`: free-form in the entry schema, so one TypedDict names every key
    riverbed writes, grouped by the entry kind that writes it (a key outside it fails type
    checking). Suppressions follow suppression-context.schema.json, where `scope` and `active`
    are required; that is checked when an entry is written (index/schema.py), not by this type,
    because one `context` type serves every entry type.
    """

    # suppression (suppression-context.schema.json)
    scope: Scope
    active: bool
    feedbackType: FeedbackType
    fingerprint: str
    fingerprintAlgo: Literal["v1"]
    severity: Severity
    minSeverityToAutoSuppress: Severity
    duplicateOfFingerprint: str
    findingId: str | None
    findingHash: str | None
    expiresAt: str
    sourcePR: int
    sourceCommentId: int
    sourceLine: int
    match: SuppressionMatch
    ruleId: str
    promotedFrom: str
    rekeyedFrom: str  # memory/rekey.py: the suppression this re-keyed copy supersedes
    tool: str
    # a fingerprint suppression: the file and message of the finding it hides, when known
    file: str
    message: str
    # resurface: a revocation names the suppression it lifts
    action: str
    suppressionId: str
    # lifecycle (LIFECYCLE_CONTEXT_KEYS)
    archivedReason: str
    declined: Declined
    # review entries holding a findings baseline (memory/baseline.py)
    kind: str
    digest: str
    fingerprints: list[str]
    fingerprintsDropped: int
    findings: int
    matchKeyAlgo: str
    matchKeys: dict[str, int]
    matchKeyWhere: dict[str, list[str]]
    lineKeyAlgo: str
    lineKeys: dict[str, int]
    tools: dict[str, dict[str, Any]]
    branch: str
    commit: str
    # review entries holding finding history (memory/history.py)
    keyAlgo: str
    keys: dict[str, dict[str, Any]]
    keysDropped: int
    keysLeft: dict[str, int]  # memory/history.py: keys the bounds took out, by reason
    runs: list[dict[str, Any]]
    runsDropped: int
    runNumber: int
    suppressionRuns: dict[str, dict[str, int]]
    signals: list[dict[str, Any]]
    # eval_result (evals/entries.py)
    suite: str
    attempt: str
    status: str
    source: str
    scores: dict[str, float]
    counts: dict[str, int]
    toolVersion: str
    details: dict[str, Any]
    # decision entries holding an organisation policy (organisation/policy.py)
    neverSuppress: list[str]
    severityOverrides: dict[str, str]
    # promotion_candidate (memory/learning/candidates.py)
    clusterId: str
    clusterKind: str
    clusterKey: str
    weight: float
    minPrs: int
    prs: list[int]
    authors: list[str]
    suppressionIds: list[str]
    files: list[str]
    severities: list[str]
    suggestion: dict[str, Any]
    reOffers: int
    previous: dict[str, Any]
    # lesson candidates and the lessons' harvest state (riverbed/lessons/, docs/LESSONS.md)
    lesson: dict[str, Any]
    evidence: list[dict[str, Any]]
    proposer: dict[str, str]
    minAuthors: int
    repository: str
    harvestedAt: str
    pending: list[dict[str, Any]]
    pendingDropped: int


class Entry(TypedDict):
    """An entry as stored in the index (riverbed-entry.schema.json, River Reviewer v1 plus)."""

    id: str
    type: EntryType
    content: str
    metadata: Metadata
    title: NotRequired[str]
    context: NotRequired[Context]
    status: NotRequired[Status]
    supersededBy: NotRequired[str]
    expiresAt: NotRequired[str]


class Index(TypedDict):
    """The whole index document `{"entries": [...], "version": "1"}` (index schema)."""

    entries: list[Entry]
    version: Literal["1"]
    generatedAt: NotRequired[str]


def empty_index() -> Index:
    """A new, empty index document, keys in River Reviewer's order (`entries`, `version`)."""
    return {"entries": [], "version": INDEX_VERSION}


def is_entry_type(value: object) -> TypeGuard[EntryType]:
    """True when `value` is one of the entry types."""
    return value in ENTRY_TYPES


def is_phase(value: object) -> TypeGuard[Phase]:
    """True when `value` is one of the review phases."""
    return value in PHASES


def entry_status(entry: Entry) -> Status:
    """The entry's status; an absent status means active."""
    status = entry.get("status")
    return status if isinstance(status, str) else "active"


def is_active(entry: Entry) -> bool:
    """True when the entry's status is active (absent counts as active)."""
    return entry_status(entry) == "active"


def metadata(entry: Entry) -> Metadata:
    """The entry's metadata object (empty dict when missing)."""
    value = entry.get("metadata")
    # Only an entry not yet validated lacks metadata; callers read it with `.get`.
    return value if isinstance(value, dict) else cast(Metadata, {})


def context(entry: Entry) -> Context:
    """The entry's context object (empty dict when missing)."""
    value = entry.get("context")
    return value if isinstance(value, dict) else {}


def entry_phase(entry: Entry) -> Phase | None:
    """The entry's review phase, if any."""
    phase = metadata(entry).get("phase")
    return phase if isinstance(phase, str) else None


def entry_tags(entry: Entry) -> list[str]:
    """The entry's tags (empty when none)."""
    tags = metadata(entry).get("tags")
    return [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else []


def related_files(entry: Entry) -> list[str]:
    """The entry's relatedFiles (empty when none)."""
    files = metadata(entry).get("relatedFiles")
    return [f for f in files if isinstance(f, str)] if isinstance(files, list) else []


def entry_title(entry: Entry) -> str:
    """A one-line label: title, else summary, else the start of the content."""
    for value in (entry.get("title"), metadata(entry).get("summary"), entry.get("content")):
        if isinstance(value, str) and value.strip():
            line = value.strip().splitlines()[0]
            return line if len(line) <= 100 else line[:99] + "…"
    return "(untitled)"


def entries_by_id(index: Index) -> dict[str, Entry]:
    """Map of id → entry for an index."""
    return {e["id"]: e for e in index.get("entries", []) if isinstance(e, dict) and "id" in e}
