"""The one exception tree: every error riverbed raises on purpose is a RiverbedError."""

from __future__ import annotations

import re
from collections.abc import Callable

#: The input fields a message template may name, as `{scope}`; only these are placeholders,
#: so a user's own text such as `{x}` quoted in a message is shown as given.
FIELDS = frozenset(
    {
        "expires",
        "type",
        "feedbackType",
        "scope",
        "severity",
        "phase",
        "reason",
        "ruleId",
        "paths",
        "content",
        "attempt",
        "tolerance",
        "against",
        "maxChars",
        "fingerprint",
    }
)
_FIELD = re.compile(r"\{(" + "|".join(sorted(FIELDS)) + r")\}")

#: Where a tolerated problem is reported (one message each); the default warns RiverbedWarning.
WarningSink = Callable[[str], None]


class RiverbedWarning(UserWarning):
    """A problem in memory written elsewhere that riverbed tolerates and reports."""


class RiverbedError(Exception):
    """Base of every riverbed error; the message says what went wrong and what to do."""

    #: Exit code the CLI uses for this kind of error (DESIGN: 2 bad input, 3 unreadable index).
    exit_code = 2

    def __init__(self, *args: object, field: str | None = None) -> None:
        # An error about an input names it by its field (`scope`, `feedbackType`, ...): the
        # message holds `{scope}` where a name goes, so `cli/` can put its flag there.
        self.field = field
        self.template = str(args[0]) if field is not None and args else None
        if self.template is not None:
            args = (_FIELD.sub(r"\1", self.template), *args[1:])
        super().__init__(*args)

    def naming(self, name: Callable[[str], str]) -> str:
        """The message with each field it names called `name(field)` (the CLI: its flag)."""
        if self.template is None:
            return str(self)
        return _FIELD.sub(lambda found: name(found.group(1)), self.template)


class UsageError(RiverbedError):
    """A command-line flag or argument is wrong."""


class GuardedSeverityError(UsageError):
    """A suppression the severity guard would always skip for the finding it names: refused."""

    def __init__(
        self, severity: str, feedback_type: str, *, how: str = "", override: str = ""
    ) -> None:
        self.severity = severity
        self.feedback_type = feedback_type
        # Without the caller's own wording the fix names the field; `how` and `override`
        # are the caller's text (CLI flags, comment syntax) and are shown as given.
        named = not how and not override
        fix = how or "set {feedbackType} to accepted_risk to accept the risk"
        regrade = override or "give the tool a severity override (docs/REVIEW.md)"
        super().__init__(
            f"refused: the severity guard never lets a {feedback_type} suppression hide this "
            f"{severity} finding (it would never apply); {fix}, or {regrade}",
            field="feedbackType" if named else None,
        )


class InvalidExpiresAt(RiverbedError, ValueError):
    """A date string is not an RFC 3339 full-date or date-time as DESIGN defines it."""

    def __init__(self, value: object, reason: str = "") -> None:
        self.value = value
        detail = f" ({reason})" if reason else ""
        super().__init__(
            f"invalid date {value!r}{detail}: use an RFC 3339 date such as 2027-01-31 "
            "or a date-time with offset such as 2027-01-31T12:00:00Z"
        )


class CorruptIndexError(RiverbedError):
    """The index file is not valid JSON or violates the index schema; it is never overwritten."""

    exit_code = 3

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(
            f"{path}: corrupt memory index: {problem} "
            "(nothing was written; fix the file or restore it from git/an artifact, "
            "then run `riverbed validate`)"
        )


def conflict_problem(path: str, line: int) -> str:
    """What is wrong with an index holding git conflict markers, and the commands that fix it."""
    import shlex

    shown = shlex.quote(path)
    return (
        f"git conflict markers at line {line} (a git merge wrote both sides into the file); "
        f"recover with `riverbed resolve {shown}` (merges both sides, loses no entry), "
        f"then `git add {shown}`; `riverbed init --merge-driver` lets git merge it by itself"
    )


class ConflictedIndexError(CorruptIndexError):
    """The index holds git conflict markers: `riverbed resolve` merges the two sides."""

    def __init__(self, path: str, line: int) -> None:
        self.path = path
        self.problem = conflict_problem(path, line)
        RiverbedError.__init__(self, f"{path}: {self.problem} (nothing was written)")


class InvalidEntryError(RiverbedError):
    """An entry riverbed was asked to write does not satisfy the entry schema."""


class DuplicateEntryError(InvalidEntryError):
    """An entry id already exists in the index with different content."""


class SecretInEntryError(InvalidEntryError):
    """An entry's text contains something shaped like a credential."""


class EntryNotFoundError(RiverbedError):
    """An entry id named by the caller is not in the index."""


class InvalidTransitionError(RiverbedError):
    """A status change DESIGN forbids (archived is terminal, superseding into itself, …)."""


class StoreWriteError(RiverbedError):
    """The index could not be written (disk full, read-only, permission); the original is intact."""

    exit_code = 3


class LockTimeoutError(StoreWriteError):
    """Another process held the index lock for longer than the lock timeout."""


class InputFormatError(RiverbedError):
    """A findings, eval-results or other input file is malformed; names the file and JSON path."""


class EmptyReportError(InputFormatError):
    """A well-formed test report with no test case in it (nothing ran, so nothing to record)."""


class GitHubError(RiverbedError):
    """Talking to the GitHub API failed after bounded retries."""

    def __init__(self, message: str, *, status: int | None = None, reason: str = "") -> None:
        super().__init__(message)
        #: The HTTP status GitHub answered, when it answered (None: no answer, or not HTTP).
        self.status = status
        #: GitHub's own `message` for it ("Resource not accessible by integration", …).
        self.reason = reason

    @property
    def read_only_token(self) -> bool:
        """True when the token may read but not write (a fork pull request's token)."""
        return self.status == 403 and "not accessible by integration" in self.reason.lower()


class ArtifactError(RiverbedError):
    """A memory artifact is untrusted, unsafe to extract or does not hold a valid index."""


class ActionConfigError(RiverbedError):
    """The action's inputs or runner environment are wrong."""


class CommandParseError(RiverbedError):
    """A `/riverbed …` comment command could not be parsed."""


class OptionalDependencyError(RiverbedError):
    """An optional extra (such as `mcp`) is needed but not installed."""
