"""Weighing: distinct pull requests and people, found by code, never one PR twice."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.lessons.check import CheckedLesson, check_proposal
from riverbed.lessons.model import Utterance
from riverbed.lessons.stub import StubProposer
from riverbed.lessons.weigh import (
    WeighSettings,
    WordIndex,
    anchor_pattern,
    lesson_id,
    weigh,
)


def say(pr: int, author: str, text: str, comment: int = 0, path: str | None = None) -> Utterance:
    comment = comment or pr * 100 + len(author)
    return Utterance(
        id=f"{pr}:issue:{comment}",
        pr=pr,
        comment_id=comment,
        author=author,
        url=f"https://github.com/o/r/pull/{pr}#issuecomment-{comment}",
        text=text,
        created_at="2026-01-01T00:00:00Z",
        pr_files=("src/http.py", "src/view.py"),
        path=path,
    )


def checked(*utterances: Utterance) -> list[CheckedLesson]:
    out: list[CheckedLesson] = []
    for u in utterances:
        for p in StubProposer().propose(u).proposals:
            c = check_proposal(p, u, frozenset())
            if c.lesson is not None:
                out.append(c.lesson)
    return out


WRAP = "Always wrap HTTP calls in the breaker."


def test_two_writers_in_two_prs_make_one_lesson_of_weight_two() -> None:
    a = say(1, "alice", WRAP)
    b = say(2, "bob", "Please always wrap HTTP calls, it saved us twice.")
    result = weigh(checked(a, b), [a, b], [], WeighSettings())
    assert len(result.lessons) == 1
    (w,) = result.lessons
    assert w.offered
    assert (w.lesson.weight, w.lesson.prs, w.lesson.authors) == (2, (1, 2), ("alice", "bob"))
    assert [e.quote for e in w.lesson.evidence] == [
        WRAP,
        "Please always wrap HTTP calls, it saved us twice.",
    ]


def test_one_person_in_two_prs_is_not_enough_for_a_pattern() -> None:
    a, b = say(1, "alice", WRAP), say(2, "alice", WRAP)
    (w,) = weigh(checked(a, b), [a, b], [], WeighSettings()).lessons
    assert not w.offered
    assert "needs 2 pull request(s) and 2 author(s), has 2 and 1" in w.reason
    (w1,) = weigh(checked(a, b), [a, b], [], WeighSettings(min_authors=1)).lessons
    assert w1.offered


def test_one_pr_counts_once_however_many_comments_say_it() -> None:
    utterances = [say(1, name, WRAP, comment=n) for n, name in enumerate(["a", "b", "a"], 10)]
    (w,) = weigh(checked(*utterances), utterances, [], WeighSettings()).lessons
    assert w.lesson.weight == 1
    assert w.lesson.authors == ("a", "b")


def test_a_decision_scoped_to_the_prs_files_is_offered_at_weight_one() -> None:
    u = say(
        1, "alice", "We keep the retry loop on purpose: it must log everything.", path="src/http.py"
    )
    (w,) = weigh(checked(u), [u], [], WeighSettings()).lessons
    assert w.lesson.kind == "decision"
    assert w.lesson.paths == ("src/http.py",)
    assert w.offered


def test_the_anchor_is_found_by_code_in_comments_that_proposed_nothing() -> None:
    a = say(1, "alice", WRAP)
    # No cue, so the stub proposes nothing here; the anchor still occurs.
    b = say(2, "bob", "Yes: ALWAYS\nwrap   HTTP calls.")
    c = say(3, "carol", "We wrap HTTP calls sometimes.")  # the anchor's words, not in order
    (w,) = weigh(checked(a), [a, b, c], [], WeighSettings()).lessons
    assert w.lesson.prs == (1, 2)


def test_earlier_evidence_joins_and_the_weight_grows_across_harvests() -> None:
    a = say(1, "alice", WRAP)
    first = weigh(checked(a), [a], [], WeighSettings())
    (held,) = first.lessons
    assert not held.offered
    b = say(2, "bob", "Remember to always wrap HTTP calls.")
    (w,) = weigh([], [b], [held.lesson], WeighSettings()).lessons
    assert w.offered
    assert w.lesson.prs == (1, 2)
    assert w.lesson.quotes == (WRAP,)


def test_a_credential_in_a_matching_comment_is_never_evidence() -> None:
    a = say(1, "alice", WRAP)
    token = "ghp" + "_" + "Z9y8" * 9
    b = say(2, "bob", f"Always wrap HTTP calls, token {token}.")
    result = weigh(checked(a), [a, b], [], WeighSettings())
    (w,) = result.lessons
    assert w.lesson.prs == (1,)
    assert result.dropped == {"evidence_unsafe": 1}


def test_lesson_ids_ignore_case_and_spacing_of_the_anchor() -> None:
    assert lesson_id("pattern", "Always  wrap HTTP", None) == lesson_id(
        "pattern", "always wrap http", None
    )
    assert lesson_id("pattern", "x y", None) != lesson_id("decision", "x y", None)
    assert anchor_pattern("wrap HTTP").search("we WRAP\nhttp calls")
    assert not anchor_pattern("wrap HTTP").search("unwrap HTTPS")


_AUTHORS = st.sampled_from(["alice", "bob", "carol", "mallory"])
_TEXTS = st.sampled_from([WRAP, "Always wrap HTTP calls.", "Nothing here.", "wrap it"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 6), _AUTHORS, _TEXTS), max_size=12), st.integers(1, 3))
def test_weight_counts_each_pr_once_and_only_harvested_writers(
    said: list[tuple[int, str, str]], min_prs: int
) -> None:
    utterances = [say(pr, who, text, comment=n + 1) for n, (pr, who, text) in enumerate(said)]
    harvested = [u for u in utterances if u.author != "mallory"]  # an outsider: never harvested
    result = weigh(checked(*harvested), harvested, [], WeighSettings(min_prs=min_prs))
    for w in result.lessons:
        sayers = {
            (u.pr, u.author) for u in harvested if anchor_pattern(w.lesson.anchor).search(u.text)
        }
        assert "mallory" not in w.lesson.authors
        assert w.lesson.weight == len({pr for pr, _ in sayers})
        assert set(w.lesson.authors) == {a for _, a in sayers}
        assert len(w.lesson.evidence) == len(sayers)
        assert w.offered == (w.lesson.weight >= min_prs and len(w.lesson.authors) >= 2)


_PIECES = st.sampled_from(["wrap", "HTTP", "calls", "Wrap", "http", " ", "\n", ", ", "x", "é"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(_PIECES, max_size=12), max_size=6), st.lists(_PIECES, min_size=1))
def test_the_word_index_never_hides_a_comment_the_anchor_matches(
    texts: list[list[str]], anchor_parts: list[str]
) -> None:
    utterances = [say(n + 1, "alice", "".join(t)) for n, t in enumerate(texts)]
    anchor = "".join(anchor_parts)
    if not anchor.split():
        return
    pattern = anchor_pattern(anchor)
    expected = [u.id for u in utterances if pattern.search(u.text)]
    found = [u.id for u in WordIndex(utterances).maybe_saying(anchor) if pattern.search(u.text)]
    assert found == expected


def test_proposals_with_one_statement_are_one_lesson_weighed_by_its_anchor() -> None:
    a = say(1, "alice", WRAP)
    b = say(2, "bob", "Every outbound request goes through the breaker, always.")
    la, lb = checked(a)[0], checked(b)[0]
    same = "Wrap outbound HTTP calls in the circuit breaker."
    la, lb = replace(la, statement=same), replace(lb, statement=same.upper())
    result = weigh([la, lb], [a, b], [], WeighSettings(min_prs=1, min_authors=1))
    (w,) = result.lessons
    assert w.lesson.quotes == (la.quote, lb.quote)
    assert w.lesson.anchor == la.anchor
    assert w.lesson.prs == (1,)  # bob never said the anchor: his pull request adds no weight


def test_over_the_evidence_cap_pull_requests_are_kept_before_extra_authors() -> None:
    from riverbed.lessons.weigh import MAX_EVIDENCE

    crowd = [say(1, f"w{n:02}", WRAP, comment=n + 1) for n in range(MAX_EVIDENCE)]
    later = [say(pr, "zed", WRAP, comment=1000 + pr) for pr in range(2, 12)]
    result = weigh(checked(crowd[0]), [*crowd, *later], [], WeighSettings())
    (w,) = result.lessons
    assert w.lesson.prs == tuple(range(1, 12))  # every pull request counted
    assert len(w.lesson.evidence) == MAX_EVIDENCE
    assert result.dropped == {"evidence_over_cap": 10}
