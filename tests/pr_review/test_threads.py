"""The thread rules (pure): only riverbed's own threads, fixed once, left open for people."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from riverbed.pr_review.markers import format_finding_marker
from riverbed.pr_review.state import format_review_marker, review_state
from riverbed.pr_review.threads import (
    DEFAULT_IDENTITY,
    ReviewThread,
    ThreadComment,
    foreign_review_markers,
    format_fixed_reply,
    is_fixed_reply,
    plan_threads,
)

FP, PATH = "0123456789abcdef", "src/app.py"
SHA = "f" * 40


def marker(fp: str = FP, path: str = PATH) -> str:
    return format_finding_marker(fp, rule_id="R1", severity="minor", path=path, line=3)


def bot(body: str, ident: int = 1, login: str = "github-actions") -> ThreadComment:
    return ThreadComment(ident, body, login, True)


def person(body: str, login: str = "alice") -> ThreadComment:
    return ThreadComment(99, body, login, False)


def thread(*comments: ThreadComment, resolved: bool = False, tid: str = "T1") -> ReviewThread:
    return ReviewThread(tid, resolved, comments)


def test_a_fixed_thread_gets_a_reply_and_is_resolved() -> None:
    plan = plan_threads([thread(bot(f"bug\n{marker()}"))], set(), head_sha=SHA)
    (step,) = plan.steps
    assert step.resolve and step.reply_to == 1 and step.thread_id == "T1"
    assert step.reply is not None and is_fixed_reply(step.reply)
    assert step.reply.splitlines()[1] == (
        "Fixed in `ffffffffffff`: riverbed no longer finds `R1` in `src/app.py` here."
    )
    assert plan.posted == frozenset() and plan.foreign == 0


def test_a_present_finding_is_posted_and_untouched() -> None:
    plan = plan_threads([thread(bot(marker()))], {(FP, PATH)}, head_sha=SHA)
    assert plan.steps == () and plan.posted == {(FP, PATH)}


def test_the_same_fingerprint_on_another_path_is_not_the_same_finding() -> None:
    plan = plan_threads([thread(bot(marker()))], {(FP, "other.py")}, head_sha=SHA)
    assert len(plan.steps) == 1


def test_someone_elses_reply_keeps_the_thread_open() -> None:
    plan = plan_threads([thread(bot(marker()), person("on it"))], set(), head_sha=SHA)
    (step,) = plan.steps
    assert step.reply is not None and not step.resolve
    assert plan.left_open == (step,) and plan.resolving == ()


def test_another_bots_reply_also_keeps_it_open() -> None:
    other = ThreadComment(5, "coverage dropped", "codecov", True)
    (step,) = plan_threads([thread(bot(marker()), other)], set(), head_sha=SHA).steps
    assert not step.resolve


def test_a_thread_listed_in_part_is_treated_as_having_other_voices() -> None:
    partial = ReviewThread("T1", False, (bot(marker()),), complete=False)
    (step,) = plan_threads([partial], set(), head_sha=SHA).steps
    assert not step.resolve


def test_a_person_started_thread_with_a_copied_marker_is_foreign() -> None:
    forged = ThreadComment(7, marker(), "mallory", False)
    plan = plan_threads([thread(forged)], set(), head_sha=SHA)
    assert plan.steps == () and plan.foreign == 1
    assert plan_threads([thread(forged)], {(FP, PATH)}, head_sha=SHA).posted == frozenset()


def test_a_bot_other_than_riverbeds_identity_is_foreign() -> None:
    other = ThreadComment(7, marker(), "some-app", True)
    plan = plan_threads([thread(other)], set(), head_sha=SHA)
    assert plan.steps == () and plan.foreign == 1
    mine = plan_threads([thread(other)], set(), identity="some-app[bot]", head_sha=SHA)
    assert len(mine.steps) == 1 and mine.foreign == 0


def test_a_thread_without_a_marker_is_not_riverbeds_business() -> None:
    plan = plan_threads([thread(bot("a plain bot comment")), thread()], set(), head_sha=SHA)
    assert plan.steps == () and plan.foreign == 0


def test_replied_before_means_no_second_reply_and_resolve_only_when_alone() -> None:
    reply = format_fixed_reply(SHA, "`R1`", "T1")
    (step,) = plan_threads([thread(bot(marker()), bot(reply, 2))], set(), head_sha=SHA).steps
    assert step.reply is None and step.resolve  # the resolve failed last time: try again
    spoken = thread(bot(marker()), bot(reply, 2), person("thanks"))
    assert plan_threads([spoken], set(), head_sha=SHA).steps == ()
    done = thread(bot(marker()), bot(reply, 2), resolved=True)
    assert plan_threads([done], set(), head_sha=SHA).steps == ()


def test_a_person_copying_the_fixed_marker_changes_nothing() -> None:
    forged = person(format_fixed_reply(SHA, "`R1`", "T1"))
    (step,) = plan_threads([thread(bot(marker()), forged)], set(), head_sha=SHA).steps
    assert step.reply is not None and not step.resolve  # riverbed still replies, once
    back = plan_threads([thread(bot(marker()), forged)], {(FP, PATH)}, head_sha=SHA)
    assert back.posted == {(FP, PATH)}  # not "declared fixed": no second comment


def test_a_finding_back_after_riverbed_declared_it_fixed_is_not_posted() -> None:
    reply = format_fixed_reply(SHA, "`R1`", "T1")
    declared = thread(bot(marker()), bot(reply, 2), resolved=True)
    plan = plan_threads([declared], {(FP, PATH)}, head_sha=SHA)
    assert plan.posted == frozenset() and plan.steps == ()


def test_a_thread_a_person_resolved_is_left_alone_and_still_posted() -> None:
    resolved = thread(bot(marker()), resolved=True)
    assert plan_threads([resolved], set(), head_sha=SHA).steps == ()
    assert plan_threads([resolved], {(FP, PATH)}, head_sha=SHA).posted == {(FP, PATH)}


def test_the_fixed_marker_counts_only_at_the_start_of_a_reply() -> None:
    reply = format_fixed_reply(SHA, "`R1`", "T1")
    assert is_fixed_reply(reply)
    assert not is_fixed_reply("quoting riverbed:\n" + reply)
    assert not is_fixed_reply('<!-- riverbed:fixed {"thread": -->')


def test_hostile_rule_and_path_cannot_break_the_reply() -> None:
    hostile = format_finding_marker(
        FP, rule_id="R`1 @team -->", severity="minor", path="a|b`.py", line=1
    )
    (step,) = plan_threads([thread(bot(hostile))], set(), head_sha="`@x").steps
    assert step.reply is not None and is_fixed_reply(step.reply)
    assert len(step.reply.splitlines()) == 2  # the marker, then one line
    assert "@team" not in step.reply and "@x" not in step.reply  # no mention can ping


def test_a_review_quoting_riverbeds_body_never_makes_its_author_riverbed() -> None:
    review = format_review_marker(review_state("midstream", [], []))
    # The newest review carrying the marker is another app's: it is counted as foreign,
    # and riverbed's own (the pinned identity's) is not.
    reviews = [("github-actions[bot]", review, True), ("quoting-app[bot]", review, True)]
    assert foreign_review_markers(reviews, DEFAULT_IDENTITY) == 1
    assert foreign_review_markers(reviews, "quoting-app[bot]") == 1
    assert foreign_review_markers([("mallory", review, False)], DEFAULT_IDENTITY) == 1
    assert foreign_review_markers([("other[bot]", "no marker", True)], DEFAULT_IDENTITY) == 0


keys = st.tuples(st.sampled_from(["a" * 16, "b" * 16, "c" * 16]), st.sampled_from(["x.py", "y.py"]))


@given(
    st.lists(st.tuples(keys, st.booleans(), st.booleans(), st.booleans()), max_size=8),
    st.sets(keys),
)
def test_steps_only_ever_touch_riverbeds_threads_whose_findings_are_gone(
    specs: list[tuple[tuple[str, str], bool, bool, bool]], present: set[tuple[str, str]]
) -> None:
    threads = []
    for at, ((fp, path), ours, resolved, spoken) in enumerate(specs):
        first = ThreadComment(at, marker(fp, path), "github-actions" if ours else "eve", ours)
        rest = (person("hm"),) if spoken else ()
        threads.append(ReviewThread(f"T{at}", resolved, (first, *rest)))
    plan = plan_threads(threads, present, head_sha=SHA)
    by_id = {t.id: spec for t, spec in zip(threads, specs, strict=True)}
    for step in plan.steps:
        key, ours, resolved, spoken = by_id[step.thread_id]
        assert ours and not resolved and key not in present
        assert step.resolve == (not spoken)
    touched = {s.thread_id for s in plan.steps}
    expected = {
        t.id
        for t, (k, o, r, _s) in zip(threads, specs, strict=True)
        if o and not r and k not in present
    }
    assert touched == expected
    assert plan.foreign == sum(1 for _k, o, _r, _s in specs if not o)
    assert plan.posted == {k for k, o, _r, _s in specs if o and k in present}
