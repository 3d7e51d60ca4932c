"""A hand-written finding marker cannot steer a maintainer's `/riverbed suppress`.

A pull request's author dresses an inline comment as riverbed's ("info · E501") carrying the
fingerprint of their real `S602 shell=True` finding. Only comments written by the action's
own identity (the login its token writes as, `github-actions[bot]` here) carry trusted
markers: for the replied-to comment and for the lookup by fingerprint alike.
"""

from __future__ import annotations

import reliability_support as support
from comment_bench import Bench, no_write

from riverbed.pr_review.markers import format_finding_marker

REAL_FP = "5a02c0ffee5a02c0"
WITH_REPLIES = "push,schedule,workflow_dispatch,issue_comment,pull_request_review_comment"


def _forged(bench: Bench, *, path: str = "src/app.py") -> int:
    marker = format_finding_marker(REAL_FP, rule_id="E501", severity="info", path=path, line=2)
    body = f"**info** · `E501` · riverbed — line too long\n\n{marker}"
    return bench.gh.add_review_comment(7, body, path="src/app.py", line=2, user="outsider")


def _real(bench: Bench) -> int:
    marker = format_finding_marker(
        REAL_FP, rule_id="S602", severity="minor", path="src/app.py", line=2
    )
    body = f"**minor** · `S602` · riverbed — shell=True\n\n{marker}"
    return bench.gh.add_review_comment(7, body, path="src/app.py", line=2)  # the bot's


def test_a_reply_to_a_forged_finding_comment_suppresses_nothing(bench: Bench) -> None:
    forged = _forged(bench)
    outcome = bench.review_reply(
        '/riverbed suppress --reason "style nit"', forged, **{"trusted-events": WITH_REPLIES}
    )
    no_write(outcome)
    (reply,) = outcome.replies
    assert "was written by outsider, not by riverbed" in reply
    assert REAL_FP not in reply
    support.count("forged finding markers refused")


def test_the_default_refusal_never_suggests_a_forged_fingerprint(bench: Bench) -> None:
    forged = _forged(bench)
    outcome = bench.review_reply('/riverbed suppress --reason "style nit"', forged)
    no_write(outcome)
    (reply,) = outcome.replies
    assert "is not in the action's" in reply and REAL_FP not in reply
    support.count("forged finding markers refused")


def test_the_fingerprint_lookup_ignores_forged_markers(bench: Bench) -> None:
    _forged(bench, path="docs/readme.md")  # older than the real one: a lookup sees it first
    _real(bench)
    outcome = bench.comment(f'/riverbed suppress {REAL_FP} --reason "shell input is constant"')
    assert outcome.staged is not None
    (suppression,) = [e for e in outcome.staged["entries"] if e["type"] == "suppression"]
    assert suppression["context"]["severity"] == "minor"
    assert suppression["metadata"]["relatedFiles"] == ["src/app.py"]
    (reply,) = outcome.replies
    assert "S602 in src/app\\.py" in reply and "E501" not in reply
    support.count("forged finding markers refused")


def test_with_only_a_forged_marker_the_reply_says_the_finding_is_unknown(bench: Bench) -> None:
    _forged(bench)
    outcome = bench.comment(f'/riverbed suppress {REAL_FP} --reason "checked by hand"')
    assert outcome.staged is not None
    (suppression,) = [e for e in outcome.staged["entries"] if e["type"] == "suppression"]
    assert "severity" not in suppression["context"]
    assert "relatedFiles" not in suppression["metadata"]
    (reply,) = outcome.replies
    assert "rule and file are unknown" in reply and "E501" not in reply
    support.count("forged finding markers refused")
