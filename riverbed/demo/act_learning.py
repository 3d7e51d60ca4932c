"""Act 3: memory that learns — a suppression repeated in three pull requests is promoted."""

from __future__ import annotations

from riverbed.demo.context import DemoState
from riverbed.demo.scenario import MAINTAINER
from riverbed.demo.story import Step

RULE = "S101"
#: Three pull requests, two authors: each silenced bandit's assert rule in a test file.
REPEATS = (
    (4, "dev-sam", "tests/shop/test_cart.py"),
    (5, "dev-lee", "tests/shop/test_checkout.py"),
    (6, "dev-sam", "tests/api/test_orders.py"),
)


def learn_and_promote(state: DemoState) -> Step:
    """The same rule suppressed in three pull requests becomes a candidate; maria promotes it."""
    from riverbed.memory.learning.candidate_store import promote_candidate, write_candidates
    from riverbed.memory.record_suppression import create_suppression

    t = state.timeline
    for day, (pr, author, path) in enumerate(REPEATS, start=43):
        create_suppression(
            state.index_path,
            rule_id=RULE,
            paths=[path],
            reason="assert is how pytest checks; not a security issue in tests",
            author=author,
            source_pr=pr,
            now=t.day(day),
        )
    written = write_candidates(state.index_path, now=t.day(47))
    (candidate,) = [e for e in written.plan.new if e["context"]["clusterKey"] == RULE]
    ctx = candidate["context"]
    done = promote_candidate(state.index_path, candidate["id"], author=MAINTAINER, now=t.day(48))
    assert done.created is not None
    match = done.created["context"]["match"]
    config = ctx["suggestion"]["configs"][0]["text"] if ctx["suggestion"]["configs"] else ""
    return Step(
        key="learn",
        act=3,
        title=f"riverbed learns: {RULE} suppressed in {ctx['weight']} pull requests becomes "
        f"{candidate['id']}; {MAINTAINER} promotes it",
        lines=(
            f"weight {ctx['weight']} (pull requests "
            + ", ".join(f"#{n}" for n in ctx["prs"])
            + f"; authors {', '.join(ctx['authors'])}); offered, never applied by itself",
            f"suggested: {ctx['suggestion']['command']}",
            *(f"ruff equivalent: {line}" for line in config.splitlines()[1:]),
            f"{MAINTAINER}: riverbed promote {candidate['id']} → {done.created['id']} "
            f"(--rule {match['ruleId']} --path {match['paths'][0]}), linked both ways",
        ),
        facts={
            "candidate": candidate["id"],
            "weight": ctx["weight"],
            "prs": ctx["prs"],
            "glob": ctx["suggestion"]["glob"],
            "promotedTo": done.created["id"],
            "promotedFrom": done.created["context"]["promotedFrom"],
        },
    )


ACT_THREE = (learn_and_promote,)
