"""Act 3, continued: what two reviewers wrote is proposed, checked, offered and promoted."""

from __future__ import annotations

from riverbed.demo.context import DemoState
from riverbed.demo.scenario import MAINTAINER, OWNER, REPO
from riverbed.demo.story import Step
from riverbed.lessons.model import Harvest, Utterance

#: What two writers said on two merged pull requests (visible text, as the harvest keeps it),
#: and one comment with nothing to learn. An outsider's comment was refused by the harvest.
SAID = (
    (4, "maria", "src/shop/cart.py", "Looks good. Always round money with Decimal, never float."),
    (5, "dev-lee", None, "Thanks! We always round money with Decimal here, it bit us before."),
    (5, "dev-sam", None, "Fixed the typo, ready for another look."),
)


def _harvest(state: DemoState) -> Harvest:
    utterances = tuple(
        Utterance(
            id=f"{pr}:{'review' if path else 'issue'}:{9000 + n}",
            pr=pr,
            comment_id=9000 + n,
            author=author,
            url=f"https://github.com/{OWNER}/{REPO}/pull/{pr}#issuecomment-{9000 + n}",
            text=text,
            created_at=state.timeline.day(44 + n).isoformat().replace("+00:00", "Z"),
            pr_files=("src/shop/cart.py",),
            path=path,
        )
        for n, (pr, author, path, text) in enumerate(SAID)
    )
    at = state.timeline.day(49).isoformat().replace("+00:00", "Z")
    return Harvest(
        repository=f"{OWNER}/{REPO}",
        harvested_at=at,
        since=None,
        utterances=utterances,
        refused={"outsider": 1},
        comments_read=len(utterances) + 1,
        prs=(4, 5),
    )


def learn_a_lesson(state: DemoState) -> Step:
    """Two writers say the same thing in two pull requests: a lesson candidate, promoted."""
    from riverbed.lessons.pipeline import LessonsSettings
    from riverbed.lessons.record_lessons import write_lessons
    from riverbed.lessons.stub import StubProposer
    from riverbed.memory.learning.candidate_store import promote_candidate

    t = state.timeline
    report = write_lessons(
        state.index_path, _harvest(state), StubProposer(), now=t.day(49), settings=LessonsSettings()
    )
    (candidate,) = report.plan.new
    ctx = candidate["context"]
    done = promote_candidate(state.index_path, candidate["id"], author=MAINTAINER, now=t.day(50))
    assert done.created is not None
    outcomes = ", ".join(f"{k} {v}" for k, v in report.outcomes.items() if v)
    return Step(
        key="lesson",
        act=3,
        title=f"riverbed learns from what reviewers wrote: {candidate['id']} (weight "
        f"{ctx['weight']}); {MAINTAINER} promotes it to a {done.created['type']}",
        lines=(
            f"harvest: {report.comments_read} comments, {report.utterances} from writers "
            f"kept, {sum(report.refused.values())} refused (an outsider)",
            f"stub proposer: {report.proposals} proposals; checked: {outcomes}",
            f"anchor “{ctx['lesson']['anchor']}” found by code in pull requests "
            + ", ".join(f"#{n}" for n in ctx["prs"])
            + f" by {', '.join(ctx['authors'])}; offered, never applied by itself",
            *(f"  “{e['quote']}” ({e['author']}, #{e['pr']})" for e in ctx["evidence"]),
            f"{MAINTAINER}: riverbed promote {candidate['id']} → {done.created['id']}",
        ),
        facts={
            "candidate": candidate["id"],
            "weight": ctx["weight"],
            "prs": ctx["prs"],
            "authors": ctx["authors"],
            "outcomes": dict(report.outcomes),
            "proposals": report.proposals,
            "promotedTo": done.created["id"],
            "promotedType": done.created["type"],
            "content": done.created["content"],
        },
    )


ACT_LESSONS = (learn_a_lesson,)
