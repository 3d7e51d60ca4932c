"""The last good shared layer as an index entry: written, read back, superseded, refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from riverbed.findings.interface import Finding
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import SEVERITIES
from riverbed.index.schema import entry_problems
from riverbed.index.storage import read_index
from riverbed.memory.layers import SharedLayer, protecting_rule
from riverbed.memory.severity import SeverityOverride
from riverbed.organisation.last_good import (
    EVERY_RULE,
    Provenance,
    fail_closed_layer,
    last_good,
    layer_entry,
)
from riverbed.organisation.policy import shared_layer
from riverbed.organisation.record_last_good import keep_last_good

NOW = datetime.now(UTC).replace(microsecond=0)
NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_.", min_size=1, max_size=12)
PATTERN = st.builds(lambda tool, rule: f"{tool}:{rule}", NAME | st.just("*"), NAME)


def _provenance(commit: str | None = "c" * 40, when: datetime = NOW) -> Provenance:
    return Provenance("acme/policy", "main", commit, 12, 34, "artifact 34", when)


def _layer(never: list[str], overrides: dict[str, str]) -> SharedLayer:
    return SharedLayer(
        "shared acme/policy@main (artifact 34)",
        {"version": "1", "entries": []},
        tuple(SeverityOverride(p, "critical") for p in never),
        tuple(SeverityOverride(p, s) for p, s in overrides.items()),
    )


@given(
    never=st.lists(PATTERN, max_size=5, unique=True),
    overrides=st.dictionaries(PATTERN, st.sampled_from(SEVERITIES), max_size=5),
    commit=st.none() | st.just("d" * 40),
)
def test_a_kept_layer_reads_back_as_the_policy_it_kept(
    never: list[str], overrides: dict[str, str], commit: str | None
) -> None:
    entry = layer_entry(_layer(never, overrides), _provenance(commit), now=NOW)
    assert entry_problems(entry) == []
    found, why = last_good({"version": "1", "entries": [entry]}, "ACME/policy")
    assert found is not None and why is None
    assert [o.pattern for o in found.layer.never_suppress] == never
    assert {o.pattern: o.severity for o in found.layer.overrides} == overrides
    assert found.layer.index["entries"] == []  # never the shared suppressions
    assert found.provenance == _provenance(commit)
    # A kept layer is never a policy of the repository's own.
    assert shared_layer({"version": "1", "entries": [entry]}, "x", NOW).never_suppress == ()


def test_another_repository_or_a_broken_entry_is_no_layer() -> None:
    entry = layer_entry(_layer(["*:secret"], {}), _provenance(), now=NOW)
    assert last_good({"version": "1", "entries": [entry]}, "acme/other")[0] is None
    broken = {**entry, "context": {**entry["context"], "neverSuppress": "*:secret"}}
    found, why = last_good({"version": "1", "entries": [broken]}, "acme/policy")
    assert found is None and why is not None and "neverSuppress" in why
    # An older readable one still serves when the newest does not read back.
    both = {"version": "1", "entries": [entry, {**broken, "id": "newer"}]}
    assert last_good(both, "acme/policy")[0] is not None


@given(tool=NAME, rule=NAME)
def test_the_fail_closed_guard_protects_every_finding(tool: str, rule: str) -> None:
    finding = Finding(rule_id=f"{tool}/{rule}", message="m", file="a.py", tool=tool)
    assert protecting_rule(finding, fail_closed_layer("acme/policy")) == EVERY_RULE


def test_keeping_the_same_layer_is_a_no_op_and_a_new_one_supersedes(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    path.write_bytes(dumps_js({"version": "1", "entries": []}))
    first = keep_last_good(path, _layer(["*:secret"], {}), _provenance(), now=NOW)
    later = NOW + timedelta(seconds=5)
    same = keep_last_good(path, _layer(["*:secret"], {}), _provenance(), now=later)
    assert first.written and not same.written and same.entry["id"] == first.entry["id"]
    newer = keep_last_good(path, _layer(["*:token"], {}), _provenance("e" * 40), now=later)
    assert newer.written and newer.superseded == (first.entry["id"],)
    entries = read_index(path)["entries"]
    assert [e.get("status", "active") for e in entries] == ["superseded", "active"]
    found, _ = last_good(read_index(path), "acme/policy")
    assert found is not None and found.entry_id == newer.entry["id"]
