"""`--out` is valid SARIF 2.1.0 whatever the input's mistakes, and says what it repaired."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from review_helpers import FIXTURES, riverbed
from sarif_schema import sarif_problems

from riverbed.findings.sarif_repair import repair_sarif
from riverbed.index.jsonbytes import loads

OFFSPEC = FIXTURES / "sarif" / "offspec"
#: Every SARIF file the tests hold (real tools' and hand-written), the off-spec ones included.
EVERY_SARIF = sorted(p for p in FIXTURES.rglob("*.sarif"))

#: What each off-spec file (modelled on the tool it is named after) needs repaired.
REPAIRS: dict[str, str] = {
    "clang-analyzer-empty-region.sarif": (
        "2 × region with no startLine, charOffset or byteOffset (dropped)"
    ),
    # (Its "no file associated with this alert" uri is the finding's path, which riverbed
    # always writes as a URI reference: not a repair.)
    "scorecard-startline-0.sarif": (
        "1 × region with no startLine, charOffset or byteOffset (dropped), "
        "1 × startLine below 1 (dropped)"
    ),
    "lgtm-helpuri.sarif": (
        "1 × downloadUri not an absolute URI (dropped), 2 × helpUri not an absolute URI (dropped)"
    ),
    "mobsfscan-location-id.sarif": "1 × id not an integer (dropped)",
}


def _review(tmp_path: Path, findings: Path) -> tuple[Any, list[str]]:
    """`review --out` of a findings file: the log written and the warnings."""
    done = riverbed(
        "review", "--findings", str(findings), "--changed-files", "src/app.py",
        "--fail-on", "none", "--out", "out.sarif", "--json", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    warnings = json.loads(done.stdout)["warnings"]
    return json.loads((tmp_path / "out.sarif").read_text(encoding="utf-8")), warnings


@pytest.mark.parametrize("path", EVERY_SARIF, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_out_of_every_sarif_file_in_the_tests_is_valid(path: Path, tmp_path: Path) -> None:
    out, warnings = _review(tmp_path, path)
    assert sarif_problems(out) == []
    repaired = [w for w in warnings if w.startswith("out.sarif: repaired")]
    assert len(repaired) == (1 if path.name in REPAIRS else 0), warnings


@pytest.mark.parametrize("name", sorted(REPAIRS))
def test_each_off_spec_shape_is_repaired_and_counted_once(name: str, tmp_path: Path) -> None:
    source = OFFSPEC / name
    # Off-spec as riverbed parses it (a 77-digit integer is valid JSON but parses as a float).
    assert sarif_problems(loads(source.read_bytes()))
    out, warnings = _review(tmp_path, source)
    assert sarif_problems(out) == []
    (warning,) = [w for w in warnings if "SARIF 2.1.0 forbids" in w]
    assert warning.startswith("out.sarif: repaired ")
    assert f" of {source} that SARIF 2.1.0 forbids" in warning
    assert warning.endswith(f"(code scanning refuses an invalid one): {REPAIRS[name]}")


def test_what_is_valid_beside_a_repair_is_kept(tmp_path: Path) -> None:
    out, _ = _review(tmp_path, OFFSPEC / "scorecard-startline-0.sarif")
    first, second = out["runs"][0]["results"]
    region = first["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 12, "snippet": {"text": "contents: write"}}
    physical = second["locations"][0]["physicalLocation"]
    assert physical == {"artifactLocation": {"uri": "no%20file%20associated%20with%20this%20alert"}}
    out, _ = _review(tmp_path, OFFSPEC / "mobsfscan-location-id.sarif")
    (location,) = out["runs"][0]["results"][0]["locations"]
    assert "id" not in location
    assert location["physicalLocation"]["region"]["startColumn"] == 9
    out, _ = _review(tmp_path, OFFSPEC / "lgtm-helpuri.sarif")
    driver = out["runs"][0]["tool"]["driver"]
    assert "downloadUri" not in driver and driver["organization"] == "Semmle"
    assert all("helpUri" not in rule for rule in driver["rules"])
    fingerprints = out["runs"][0]["results"][0]["partialFingerprints"]
    assert fingerprints["primaryLocationLineHash"] == "d4f6aa3a2fa8e5b2:1"


def test_the_action_warns_once_too() -> None:
    """The action's findings-path goes through the same repair (see the action tests)."""
    from riverbed.findings.sarif_repair import Repairs, repairs_warning

    assert repairs_warning("findings-path", "x.sarif", Repairs({})) is None
    text = repairs_warning("findings-path", "x.sarif", Repairs({"id not an integer (dropped)": 1}))
    assert text is not None and text.startswith("findings-path: repaired 1 value of x.sarif")


_NUMBERS = st.one_of(st.integers(-3, 3), st.floats(-2, 2, allow_nan=False), st.booleans())
_REGION_KEYS = ("startLine", "endLine", "startColumn", "endColumn", "charOffset", "byteLength")
_URIS = st.sampled_from(["", "lgtm.com", "https://x.test/a", "help/a.html", "a b", "urn:x"])


@settings(max_examples=150, deadline=None)
@given(
    region=st.dictionaries(st.sampled_from(_REGION_KEYS), _NUMBERS, max_size=4),
    location_id=st.one_of(st.none(), _NUMBERS, st.just(10**77)),
    help_uri=st.one_of(st.none(), _URIS),
    uri=st.sampled_from(["src/a.py", "src/a b.py", "C:\\w\\a.cs", "%zz", "file:///x"]),
)
def test_repair_always_gives_a_valid_log_and_keeps_what_is_valid(
    region: dict[str, Any], location_id: Any, help_uri: str | None, uri: str
) -> None:
    location: dict[str, Any] = {
        "physicalLocation": {"artifactLocation": {"uri": uri}, "region": region}
    }
    if location_id is not None:
        location["id"] = float(location_id) if location_id == 10**77 else location_id
    rule: dict[str, Any] = {"id": "R1"}
    if help_uri is not None:
        rule["helpUri"] = help_uri
    log = {
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "t", "rules": [rule]}},
                "results": [{"ruleId": "R1", "message": {"text": "m"}, "locations": [location]}],
            }
        ],
    }
    before = copy.deepcopy(log)
    fixed, repairs = repair_sarif(log)
    assert log == before  # nothing mutated
    assert sarif_problems(fixed) == []
    assert repair_sarif(fixed)[1].total == 0  # a repaired log needs nothing more
    if not sarif_problems(log):
        assert fixed == log and repairs.total == 0  # a valid log is left as it is
    kept = fixed["runs"][0]["results"][0]["locations"][0]["physicalLocation"].get("region", {})
    assert all(region[k] == v for k, v in kept.items())  # kept values are the input's
