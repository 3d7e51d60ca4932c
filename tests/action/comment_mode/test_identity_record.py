"""A trusted comment run that writes memory pins riverbed's identity: the login on its reaction."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from riverbed.memory.identity import is_identity_entry, recorded_identity

if TYPE_CHECKING:
    from conftest import Harness

FP = "0123456789abcdef"


def identities(staged: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in staged["entries"] if is_identity_entry(e)]


def test_the_login_github_gave_riverbeds_own_reaction_is_recorded_once(harness: Harness) -> None:
    first = harness.run(harness.pr_comment(f'/riverbed suppress {FP} --reason "validated"'))
    assert first.code == 0 and first.staged is not None
    (pin,) = identities(first.staged)
    assert pin["context"]["details"]["login"] == "github-actions[bot]"
    assert recorded_identity(first.staged).source == "memory"
    harness.upload(first)
    # The next memory change finds the same login recorded: nothing more is written.
    second = harness.run(harness.pr_comment('/riverbed decision "Use UTC"\nAll times in UTC.'))
    assert second.staged is not None and len(identities(second.staged)) == 1


def test_a_run_that_changes_nothing_records_nothing(harness: Harness) -> None:
    """Only a run that uploads memory anyway writes the pin (an outsider's comment does not)."""
    refused = harness.run(
        harness.pr_comment(f'/riverbed suppress {FP} --reason "x"', user="reader")
    )
    assert refused.staged is None and refused.outputs["upload"] == "false"
    shown = harness.run(harness.pr_comment("/riverbed show"))
    assert shown.staged is None
