"""Measure a proposer on the labelled set through production's screen and checks (pure).

Each labelled comment goes through `screen` exactly as a harvested one does (a refused
comment's gold lessons are misses), its utterance to the proposer, every proposal through
`check_proposal`. Proposals are scored before the checks (what the proposer claimed) and
after them (what code let through).

Matching, the one rule (docs/LESSONS.md, "Measuring the learner"): a proposal matches a gold
lesson when both belong to the same comment, have the same kind, and the gold anchor occurs
in the proposal's quote, whitespace-normalised, case-sensitive and not cutting a word
(`contains_words`, the check's own test). Each proposal matches at most one gold lesson and
each gold lesson at most one proposal, and the pairing is a maximum one, so the scores do
not depend on the order a proposer answers in. A proposal of kind `none` claims nothing and
is not scored. A "candidate" is a proposal that passes the checks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from riverbed.lessons.check import PASSING, Checked, check_proposal, contains_words, normalise
from riverbed.lessons.labelled import GOLD_KINDS, GoldLesson, LabelledItem, LabelledSet
from riverbed.lessons.model import Proposal, Proposer, ProposerInfo
from riverbed.lessons.screen import RawComment, needs_permission, screen

#: The two moments a proposal is scored at.
STAGES: Final = ("before", "after")


@dataclass(frozen=True)
class KindScore:
    """Counts for one kind at one stage, and the rates they give (None: nothing to divide)."""

    proposed: int
    gold: int
    matched: int

    @property
    def precision(self) -> float | None:
        """Matched proposals over proposals."""
        return self.matched / self.proposed if self.proposed else None

    @property
    def recall(self) -> float | None:
        """Matched gold lessons over gold lessons."""
        return self.matched / self.gold if self.gold else None

    @property
    def f1(self) -> float | None:
        """The harmonic mean of precision and recall, 2·matched / (proposed + gold)."""
        whole = self.proposed + self.gold
        return 2 * self.matched / whole if whole else None


@dataclass(frozen=True)
class ItemResult:
    """What happened to one labelled comment."""

    item: LabelledItem
    refused: str | None  # the screen's reason, or None when it became an utterance
    failure: str | None = None  # the proposer's failure ("parse_failed", …), or None
    proposals: tuple[Proposal, ...] = ()  # scored proposals (kind `none` left out)
    checked: tuple[Checked, ...] = ()  # one outcome per scored proposal
    matched_before: int = 0
    matched_after: int = 0

    @property
    def candidates(self) -> tuple[Checked, ...]:
        """The proposals that passed the checks."""
        return tuple(c for c in self.checked if c.outcome in PASSING)

    @property
    def exact(self) -> bool:
        """Every gold lesson found after the checks, and no candidate beyond them."""
        n = len(self.candidates)
        return self.failure is None and self.matched_after == len(self.item.lessons) == n


@dataclass(frozen=True)
class EvalReport:
    """Scores per kind and stage, and every rate and count the eval reports."""

    source: str
    proposer: ProposerInfo
    items: tuple[ItemResult, ...]
    #: stage -> kind -> score; kind "all" sums the four kinds (micro-averaged).
    scores: Mapping[str, Mapping[str, KindScore]]
    refused: Mapping[str, int]
    failures: Mapping[str, int]
    outcomes: Mapping[str, int]
    proposed_to: int  # utterances the proposer was asked about
    notes: tuple[str, ...] = field(default=())

    @property
    def proposals(self) -> int:
        """Scored proposals (kind `none` left out)."""
        return sum(len(r.proposals) for r in self.items)

    @property
    def invented_quote_rate(self) -> float:
        """Proposals whose quote is not in the comment's visible text, over proposals."""
        return _rate(self.outcomes.get("quote_not_found", 0), self.proposals)

    @property
    def parse_failure_rate(self) -> float:
        """Replies that did not parse, over utterances proposed on."""
        return _rate(self.failures.get("parse_failed", 0), self.proposed_to)

    @property
    def failure_rate(self) -> float:
        """Utterances with any proposer failure, over utterances proposed on."""
        return _rate(sum(self.failures.values()), self.proposed_to)

    def candidate_rate(self, which: Callable[[LabelledItem], bool]) -> tuple[int, int]:
        """(items producing a candidate, items) among the items `which` selects."""
        chosen = [r for r in self.items if which(r.item)]
        return sum(1 for r in chosen if r.candidates), len(chosen)

    def false_candidate_rate(self, which: Callable[[LabelledItem], bool]) -> tuple[int, int]:
        """(items producing a candidate that matches no gold lesson, items) among `which`."""
        chosen = [r for r in self.items if which(r.item)]
        return sum(1 for r in chosen if len(r.candidates) > r.matched_after), len(chosen)


def _rate(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


#: What a proposal claims, for matching: its kind and its quote.
Claim = tuple[str, str]


def matching(claims: Sequence[Claim], gold: Sequence[GoldLesson]) -> int:
    """The size of a maximum one-to-one pairing of claims with gold lessons they match."""
    fits = [[j for j, (kind, quote) in enumerate(claims) if matches(kind, quote, g)] for g in gold]
    taken: dict[int, int] = {}  # claim -> gold lesson

    def augment(g: int, seen: set[int]) -> bool:
        # Kuhn's augmenting path: a claim already taken may move to another lesson it fits.
        for j in fits[g]:
            if j in seen:
                continue
            seen.add(j)
            if j not in taken or augment(taken[j], seen):
                taken[j] = g
                return True
        return False

    return sum(1 for g in range(len(gold)) if augment(g, set()))


def matches(kind: str, quote: str, gold: GoldLesson) -> bool:
    """The matching rule: same kind, and the gold anchor inside the quote (normalised)."""
    return kind == gold.kind and contains_words(normalise(quote), normalise(gold.anchor))


def raw_comment(item: LabelledItem) -> RawComment:
    """The comment as the harvest would have read it from GitHub."""
    anchor = "discussion_r" if item.source == "review" else "issuecomment-"
    return RawComment(
        kind="review" if item.source == "review" else "issue",
        pr=item.pr,
        comment_id=item.comment_id,
        author=item.author,
        user_type=item.user_type,
        body=item.body,
        url=f"https://github.com/{item.repository}/pull/{item.pr}#{anchor}{item.comment_id}",
        created_at="1970-01-01T00:00:00Z",
        path=item.path,
    )


def evaluate_item(
    item: LabelledItem, proposer: Proposer, known_rules: frozenset[str]
) -> ItemResult:
    """One labelled comment through screen, proposer and checks, scored against its gold."""
    comment = raw_comment(item)
    level = item.permission if needs_permission(comment) else None
    screened = screen(comment, level=level)
    if isinstance(screened, str):
        return ItemResult(item, refused=screened)
    utterance = replace(screened, pr_files=item.pr_files)
    result = proposer.propose(utterance)
    proposals = tuple(p for p in result.proposals if p.kind != "none")
    checked = tuple(check_proposal(p, utterance, known_rules) for p in proposals)
    passed = [(c.proposal.kind, c.proposal.quote) for c in checked if c.outcome in PASSING]
    return ItemResult(
        item,
        refused=None,
        failure=result.failure,
        proposals=proposals,
        checked=checked,
        matched_before=matching([(p.kind, p.quote) for p in proposals], item.lessons),
        matched_after=matching(passed, item.lessons),
    )


def claims(result: ItemResult, stage: str) -> list[Claim]:
    """What an item's proposals claim at a stage: all of them before, candidates after."""
    chosen = result.proposals if stage == "before" else [c.proposal for c in result.candidates]
    return [(p.kind, p.quote) for p in chosen]


def _scores(results: Sequence[ItemResult], stage: str) -> dict[str, KindScore]:
    proposed: Counter[str] = Counter()
    gold: Counter[str] = Counter()
    matched: Counter[str] = Counter()
    for r in results:
        mine = claims(r, stage)
        gold.update(g.kind for g in r.item.lessons)
        proposed.update(kind for kind, _ in mine)
        for kind in GOLD_KINDS:
            lessons = [g for g in r.item.lessons if g.kind == kind]
            matched[kind] += matching([c for c in mine if c[0] == kind], lessons)
    out: dict[str, KindScore] = {k: KindScore(proposed[k], gold[k], matched[k]) for k in GOLD_KINDS}
    out["all"] = KindScore(sum(proposed.values()), sum(gold.values()), sum(matched.values()))
    return out


def evaluate(labelled: LabelledSet, proposer: Proposer) -> EvalReport:
    """Every labelled comment through the production path; scores, rates and counts."""
    results = tuple(
        evaluate_item(item, proposer, labelled.known_rules.get(item.repository, frozenset()))
        for item in labelled.items
    )
    refused = Counter(r.refused for r in results if r.refused is not None)
    failures = Counter(r.failure for r in results if r.failure is not None)
    outcomes = Counter(c.outcome for r in results for c in r.checked)
    return EvalReport(
        source=labelled.source,
        proposer=proposer.info,
        items=results,
        scores={stage: _scores(results, stage) for stage in STAGES},
        refused=dict(sorted(refused.items())),
        failures=dict(sorted(failures.items())),
        outcomes=dict(sorted(outcomes.items())),
        proposed_to=sum(1 for r in results if r.refused is None),
    )
