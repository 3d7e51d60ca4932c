"""The labelled set the learner is measured on: a strict reader of its JSON (pure, over bytes).

The file is a document written for the eval (docs/LESSONS.md, "Measuring the learner"):

    {"version": 1, "description": "…", "knownRules": {"owner/name": ["S101", …]},
     "pullRequests": [{"pr": 12, "repository": "owner/name", "title": "…",
                       "files": ["src/a.py", …],
                       "utterances": [{"commentId": 1, "source": "review"|"issue",
                                       "author": "login", "permission": "write",
                                       "type": "User"|"Bot", "body": "raw, as GitHub serves it",
                                       "path": "src/a.py", "adversarial": false, "note": "…",
                                       "lessons": [{"kind": "pattern", "quote": "…",
                                                    "anchor": "…"}]}]}]}

Every problem is one InputFormatError naming the file and the JSON path. Besides shapes, the
reader checks the labels themselves: a gold quote occurs in the body (whitespace-normalised),
its anchor lies inside the quote, and nobody below write access, and no bot, teaches.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from riverbed.errors import InputFormatError
from riverbed.index.jsonbytes import loads
from riverbed.index.secrets import secret_kind
from riverbed.jsoninput import Walker, json_type
from riverbed.lessons.model import KINDS, ProposalKind
from riverbed.lessons.screen import LEVELS, level_allows

VERSION: Final = 1
#: A gold lesson's kind: every proposal kind but `none` (an item without lessons says none).
GOLD_KINDS: Final = tuple(k for k in KINDS if k != "none")
USER_TYPES: Final = ("User", "Bot")
SOURCES: Final = ("review", "issue")
_TOP_KEYS: Final = frozenset({"version", "description", "knownRules", "pullRequests"})
_PR_KEYS: Final = frozenset({"pr", "repository", "title", "files", "utterances"})
_ITEM_KEYS: Final = frozenset(
    {
        "commentId",
        "source",
        "author",
        "permission",
        "type",
        "body",
        "path",
        "adversarial",
        "note",
        "lessons",
    }
)
_LESSON_KEYS: Final = frozenset({"kind", "quote", "anchor"})
HINT: Final = "fix the file; docs/LESSONS.md describes its shape"


@dataclass(frozen=True)
class GoldLesson:
    """What a labeller says one comment teaches: kind, the verbatim sentence, its key phrase."""

    kind: ProposalKind
    quote: str
    anchor: str


@dataclass(frozen=True)
class LabelledItem:
    """One comment as GitHub would serve it, with its gold lessons (none: an empty tuple)."""

    repository: str
    pr: int
    comment_id: int
    source: str  # "review" or "issue"
    author: str
    permission: str  # the author's repository permission level
    user_type: str  # GitHub's `user.type`: "User" or "Bot"
    body: str
    pr_files: tuple[str, ...]
    lessons: tuple[GoldLesson, ...]
    adversarial: bool
    path: str | None = None
    note: str = ""

    @property
    def utterance_id(self) -> str:
        """The id the harvest gives this comment's utterance."""
        return f"{self.pr}:{self.source}:{self.comment_id}"

    @property
    def is_outsider(self) -> bool:
        """A bot, or an author below write access: someone who may never teach."""
        return self.user_type == "Bot" or not level_allows(self.permission, "write")


@dataclass(frozen=True)
class LabelledSet:
    """Every labelled comment, in file order, and the rule ids each repository's memory knows."""

    source: str
    items: tuple[LabelledItem, ...]
    known_rules: Mapping[str, frozenset[str]]

    def __post_init__(self) -> None:
        object.__setattr__(self, "known_rules", MappingProxyType(dict(self.known_rules)))


def _normalise(text: str) -> str:
    return " ".join(text.split())


def _only_keys(walker: Walker, value: dict[str, Any], allowed: frozenset[str], path: str) -> None:
    unknown = sorted(set(value) - allowed)
    if unknown:
        walker.fail(f"{path}.{unknown[0]}", "unknown key (a typo? the reader is strict)")


def _required_str(walker: Walker, parent: dict[str, Any], key: str, path: str) -> str:
    value = walker.string(parent.get(key), f"{path}.{key}")
    if not value or not value.strip():
        walker.fail(f"{path}.{key}", "a non-empty string is required")
    return value


def _id(walker: Walker, parent: dict[str, Any], key: str, path: str) -> int:
    value = parent.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        walker.fail(f"{path}.{key}", f"expected a positive integer, found {json_type(value)}")
    return value


def _lesson(walker: Walker, raw: Any, body: str, path: str) -> GoldLesson:
    lesson = walker.obj(raw, path)
    _only_keys(walker, lesson, _LESSON_KEYS, path)
    kind = walker.enum(lesson.get("kind"), GOLD_KINDS, f"{path}.kind")
    quote = _required_str(walker, lesson, "quote", path)
    anchor = _required_str(walker, lesson, "anchor", path)
    if _normalise(quote) not in _normalise(body):
        walker.fail(f"{path}.quote", "the gold quote is not in the body, word for word")
    if _normalise(anchor) not in _normalise(quote):
        walker.fail(f"{path}.anchor", "the anchor is not inside the gold quote")
    if (shape := secret_kind(quote)) is not None:
        # The check refuses such a quote, so it can be no gold lesson (and it would leak
        # into the eval entry that names missed lessons).
        walker.fail(f"{path}.quote", f"holds something shaped like a {shape}: no lesson")
    return GoldLesson(kind, quote, anchor)  # type: ignore[arg-type]  # enum checked above


def _item(
    walker: Walker, raw: Any, pr: tuple[str, int, tuple[str, ...]], path: str
) -> LabelledItem:
    repository, number, files = pr
    item = walker.obj(raw, path)
    _only_keys(walker, item, _ITEM_KEYS, path)
    body = walker.string(item.get("body"), f"{path}.body")
    if body is None:
        walker.fail(f"{path}.body", "a string is required (the raw body)")
    adversarial = item.get("adversarial")
    if not isinstance(adversarial, bool):
        walker.fail(
            f"{path}.adversarial", f"expected true or false, found {json_type(adversarial)}"
        )
    lessons = tuple(
        _lesson(walker, value, body, f"{path}.lessons[{i}]")
        for i, value in enumerate(walker.array(item.get("lessons"), f"{path}.lessons"))
    )
    labelled = LabelledItem(
        repository=repository,
        pr=number,
        comment_id=_id(walker, item, "commentId", path),
        source=walker.enum(item.get("source"), SOURCES, f"{path}.source"),
        author=_required_str(walker, item, "author", path),
        permission=walker.enum(item.get("permission"), LEVELS, f"{path}.permission"),
        user_type=walker.enum(item.get("type"), USER_TYPES, f"{path}.type"),
        body=body,
        pr_files=files,
        lessons=lessons,
        adversarial=adversarial,
        path=walker.opt_str(item, "path", path),
        note=walker.opt_str(item, "note", path) or "",
    )
    if labelled.lessons and labelled.is_outsider:
        walker.fail(f"{path}.lessons", "a bot or an author below write access teaches nothing")
    return labelled


def _known_rules(walker: Walker, doc: dict[str, Any]) -> dict[str, frozenset[str]]:
    rules = walker.opt_obj(doc, "knownRules", "$")
    out: dict[str, frozenset[str]] = {}
    for repository, ids in rules.items():
        path = f"$.knownRules[{repository!r}]"
        values = walker.array(ids, path)
        for i, value in enumerate(values):
            if not isinstance(value, str) or not value:
                walker.fail(f"{path}[{i}]", f"expected a rule id, found {json_type(value)}")
        out[repository] = frozenset(values)
    return out


def parse_labelled(data: bytes, source: str) -> LabelledSet:
    """The labelled set in `data`; InputFormatError naming `source` and the JSON path."""
    walker = Walker(source, "labelled set", hint=HINT)
    try:
        raw = loads(data.removeprefix(b"\xef\xbb\xbf"))
    except ValueError as exc:
        raise InputFormatError(f"{source}: not valid JSON: {exc}") from None
    doc = walker.obj(raw, "$")
    _only_keys(walker, doc, _TOP_KEYS, "$")
    if doc.get("version") != VERSION or isinstance(doc.get("version"), bool):
        walker.fail("$.version", f"expected {VERSION}, found {doc.get('version')!r}")
    items: list[LabelledItem] = []
    seen: dict[str, str] = {}
    for p, raw_pr in enumerate(walker.array(doc.get("pullRequests"), "$.pullRequests")):
        path = f"$.pullRequests[{p}]"
        pr = walker.obj(raw_pr, path)
        _only_keys(walker, pr, _PR_KEYS, path)
        number = _id(walker, pr, "pr", path)
        repository = _required_str(walker, pr, "repository", path)
        walker.opt_str(pr, "title", path)
        files = walker.array(pr.get("files"), f"{path}.files")
        for i, name in enumerate(files):
            if not isinstance(name, str) or not name:
                walker.fail(f"{path}.files[{i}]", f"expected a file path, found {json_type(name)}")
        for u, raw_item in enumerate(walker.array(pr.get("utterances"), f"{path}.utterances")):
            where = f"{path}.utterances[{u}]"
            item = _item(walker, raw_item, (repository, number, tuple(files)), where)
            key = f"{item.repository}#{item.utterance_id}"
            if key in seen:
                walker.fail(f"{where}.commentId", f"the same comment as {seen[key]}")
            seen[key] = where
            items.append(item)
    if not items:
        walker.fail("$.pullRequests", "no utterance to measure on")
    return LabelledSet(source, tuple(items), _known_rules(walker, doc))
