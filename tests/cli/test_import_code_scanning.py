"""`riverbed import code-scanning` against the GitHub stand-in: mapping, idempotence, reopen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from riverbed.index.model import context, metadata
from riverbed.testing import FakeGitHub
from riverbed.testing.cli_run import run_riverbed

NOW = "2026-03-01T00:00:00Z"


def run_import(gh: FakeGitHub, index: Path, *extra: str, token: str | None = None) -> Any:
    """The command as a user runs it: token from GITHUB_TOKEN, --repo, --api-url."""
    env = {"GITHUB_TOKEN": gh.token if token is None else token}
    return run_riverbed(
        "--index", index, "import", "code-scanning", "--repo", "octo/demo",
        "--api-url", gh.api_url, "--now", NOW, *extra, env=env,
    )  # fmt: skip


def entries(index: Path, kind: str) -> list[dict[str, Any]]:
    data = json.loads(index.read_text(encoding="utf-8"))
    return [e for e in data["entries"] if e["type"] == kind]


@pytest.fixture
def index(index_path: Path) -> Path:
    assert run_riverbed("--index", index_path, "init").returncode == 0
    return index_path


def seed(gh: FakeGitHub) -> dict[str, int]:
    """One alert per dismissed reason, an open one and a fixed one."""
    cs = gh.code_scanning
    fp = cs.add_alert(rule_id="py/path-injection", path="src/app.py", severity="warning")
    cs.dismiss(fp, "false positive", "input is a constant", "alice")
    wf = cs.add_alert(rule_id="py/weak-hash", path="src/auth.py", severity="error")
    cs.dismiss(wf, "won't fix", "legacy checksum, not security", "bob")
    tests = cs.add_alert(rule_id="py/clear-text-logging", path="tests/test_log.py")
    cs.dismiss(tests, "used in tests", None, "carol")
    cs.add_alert(rule_id="py/unused-import", path="src/util.py")
    cs.fix(cs.add_alert(rule_id="py/unused-local", path="src/old.py"))
    return {"fp": fp, "wf": wf, "tests": tests}


def test_each_dismissed_reason_maps_and_keeps_comment_person_link(
    gh: FakeGitHub, index: Path
) -> None:
    numbers = seed(gh)
    result = run_import(gh, index, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert (report["added"], report["present"], report["revoked"], report["skipped"]) == (
        3,
        0,
        0,
        0,
    )
    assert report["alerts"] == {"dismissed": 3, "open": 1}  # fixed: read only when needed
    assert gh.requests_to(r"/code-scanning/alerts/\d+$") == []
    written = {context(e)["match"]["ruleId"]: e for e in entries(index, "suppression")}
    expected = {
        "py/path-injection": ("false_positive", "src/app.py", "alice", "input is a constant", "fp"),
        "py/weak-hash": ("accepted_risk", "src/auth.py", "bob", "legacy checksum", "wf"),
        "py/clear-text-logging": (
            "accepted_risk", "tests/test_log.py", "carol", "(no comment)", "tests"
        ),
    }  # fmt: skip
    assert set(written) == set(expected)
    for rule, (feedback, path, login, said, key) in expected.items():
        entry = written[rule]
        link = f"https://github.com/octo/demo/security/code-scanning/{numbers[key]}"
        assert context(entry)["feedbackType"] == feedback
        assert context(entry)["match"] == {"ruleId": rule, "paths": [path]}
        assert entry["content"].startswith("Dismissed in GitHub code scanning as ")
        assert login in entry["content"] and said in entry["content"] and link in entry["content"]
        assert metadata(entry)["links"] == [link]
        assert sorted(report["addedIds"]).count(entry["id"]) == 1
    assert context(written["py/weak-hash"])["severity"] == "major"
    assert gh.schema_problems == []


def test_a_second_import_writes_nothing(gh: FakeGitHub, index: Path) -> None:
    seed(gh)
    assert run_import(gh, index).returncode == 0
    before = index.read_bytes()
    again = run_import(gh, index)
    assert again.returncode == 0, again.stderr
    assert "added 0, already present 3, revoked 0, skipped 0" in again.stdout
    assert index.read_bytes() == before


def test_a_reopened_alert_revokes_its_suppression_once(gh: FakeGitHub, index: Path) -> None:
    numbers = seed(gh)
    first = json.loads(run_import(gh, index, "--json").stdout)
    gh.code_scanning.reopen(numbers["wf"])
    result = json.loads(run_import(gh, index, "--json").stdout)
    weak = next(e for e in entries(index, "suppression") if "weak-hash" in e["id"])
    assert weak["id"] in first["addedIds"]
    assert (result["added"], result["present"], result["revoked"]) == (0, 2, 1)
    assert result["revokedIds"] == [weak["id"]]
    revocations = entries(index, "resurface")
    assert [context(r)["suppressionId"] for r in revocations] == [weak["id"]]
    assert f"alert {numbers['wf']} is open, no longer dismissed" in revocations[0]["content"]
    before = index.read_bytes()
    assert json.loads(run_import(gh, index, "--json").stdout)["revoked"] == 0
    assert index.read_bytes() == before
    # Dismissed again: a new generation of the same suppression comes back into effect.
    gh.code_scanning.dismiss(numbers["wf"], "won't fix", "legacy checksum, not security", "bob")
    back = json.loads(run_import(gh, index, "--json").stdout)
    assert back["added"] == 1 and back["addedIds"] == [f"{weak['id']}-2"]


def test_every_page_is_read(gh: FakeGitHub, index: Path) -> None:
    cs = gh.code_scanning
    for n in range(1, 151):
        cs.dismiss(cs.add_alert(rule_id="js/xss", path=f"web/p{n}.js"), "won't fix", None, "dana")
    result = run_import(gh, index, "--json")
    assert json.loads(result.stdout)["added"] == 150
    assert len(entries(index, "suppression")) == 150
    dismissed_pages = [
        r.query.get("page") for r in gh.requests_to("/code-scanning/alerts$")
        if r.query.get("state") == "dismissed"
    ]  # fmt: skip
    assert dismissed_pages == ["1", "2"]


def test_dry_run_writes_nothing_and_counts_the_same(gh: FakeGitHub, index: Path) -> None:
    seed(gh)
    before = index.read_bytes()
    dry = run_import(gh, index, "--dry-run")
    assert dry.returncode == 0 and "would add 3" in dry.stdout
    assert index.read_bytes() == before


def test_false_positive_on_an_error_rule_is_refused_by_the_guard_with_a_count(
    gh: FakeGitHub, index: Path
) -> None:
    cs = gh.code_scanning
    cs.dismiss(cs.add_alert(rule_id="py/sql-injection", path="src/db.py", severity="error"),
               "false positive", "parameterised", "erin")  # fmt: skip
    high = cs.add_alert(rule_id="py/xxe", path="src/x.py", severity="warning",
                        security_severity_level="critical")  # fmt: skip
    cs.dismiss(high, "false positive", None, "erin")
    result = run_import(gh, index)
    assert result.returncode == 0
    assert "added 0, already present 0, revoked 0, skipped 2" in result.stdout
    assert result.stderr.count("severity guard") == 2
    assert "won't fix" in result.stderr and "accepted_risk" in result.stderr
    assert entries(index, "suppression") == []


@pytest.mark.parametrize(
    ("setup", "needle"),
    [
        ("bad-token", "401"),
        ("disabled", "security-events: read"),
        ("forbidden", "security-events: read"),
        ("malformed", "not JSON"),
        ("not-a-list", "not a list of alerts"),
    ],
)
def test_errors_are_one_line_and_write_nothing(
    gh: FakeGitHub, index: Path, setup: str, needle: str
) -> None:
    seed(gh)
    before = index.read_bytes()
    token = "ghs_wrong" if setup == "bad-token" else None
    gh.code_scanning.enabled = setup != "disabled"
    gh.code_scanning.token_may_read = setup != "forbidden"
    if setup == "malformed":
        gh.code_scanning.raw_next.append((200, b'[{"number": 1, "state": '))
    if setup == "not-a-list":
        gh.code_scanning.raw_next.append((200, b'{"message": "surprise"}'))
    result = run_import(gh, index, token=token)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("riverbed: error: ") and needle in lines[0]
    assert "Traceback" not in result.stderr
    assert index.read_bytes() == before


def test_missing_token_or_repository_refuses(index: Path) -> None:
    no_token = run_riverbed("--index", index, "import", "code-scanning", "--repo", "o/r")
    assert no_token.returncode == 2 and "GITHUB_TOKEN" in no_token.stderr
    no_repo = run_riverbed("--index", index, "import", "code-scanning", env={"GITHUB_TOKEN": "x"})
    assert no_repo.returncode == 2 and "--repo" in no_repo.stderr


def test_no_alerts_says_so(gh: FakeGitHub, index: Path) -> None:
    result = run_import(gh, index)
    assert "added 0, already present 0, revoked 0, skipped 0" in result.stdout
    assert "alerts read: 0 dismissed, 0 open)" in result.stdout


def test_outsider_text_stays_data_and_never_widens_scope(index: Path) -> None:
    # No OpenAPI check here: GitHub caps comments at 280 characters, this stand-in does not.
    with FakeGitHub(owner="octo", repo="demo") as gh:
        cs = gh.code_scanning
        loud = cs.add_alert(rule_id="py/x", path="src/ok.py")
        cs.dismiss(loud, "won't fix", "\x1b[2J\x1b]0;pwn\x07::error::x\n" + "z" * 100_000, "eve")
        literal = cs.add_alert(rule_id="js/xss", path="app/[id]/page.tsx")
        cs.dismiss(literal, "false positive", "escaped", "eve")
        for rule, path in [
            ("py/x", "../../etc/passwd"),
            ("py/x", "src/**"),
            ("py/x", "src/a?.py"),
            ("py/x\r\n::error::rule", "src/ok.py"),
            ("\x1b[31mpy/x", "src/ok.py"),
        ]:
            cs.dismiss(cs.add_alert(rule_id=rule, path=path), "won't fix", "x", "eve")
        result = run_import(gh, index, "--json")
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout + result.stderr and "\x07" not in result.stderr
    report = json.loads(result.stdout)
    assert (report["added"], report["skipped"]) == (2, 5)
    assert len(report["warnings"]) == 5
    scopes = sorted(
        (context(e)["match"]["ruleId"], tuple(context(e)["match"]["paths"]))
        for e in entries(index, "suppression")
    )
    assert scopes == [("js/xss", ("app/[id]/page.tsx",)), ("py/x", ("src/ok.py",))]
    loud_entry = next(e for e in entries(index, "suppression") if "ok.py" in e["title"])
    assert "\x1b" not in loud_entry["content"] and len(loud_entry["content"]) < 1500
    assert "characters cut" in loud_entry["content"]


def test_reopened_then_fixed_between_imports_is_read_by_number_and_revokes(
    gh: FakeGitHub, index: Path
) -> None:
    numbers = seed(gh)
    first = json.loads(run_import(gh, index, "--json").stdout)
    gh.code_scanning.reopen(numbers["fp"])
    gh.code_scanning.fix(numbers["fp"])
    gh.code_scanning.delete(numbers["tests"])
    result = run_import(gh, index, "--json")
    report = json.loads(result.stdout)
    assert report["alerts"] == {"dismissed": 1, "open": 1, "fixed": 1}
    looked_up = [r.path.rsplit("/", 1)[-1] for r in gh.requests_to(r"/code-scanning/alerts/\d+$")]
    assert sorted(looked_up) == sorted([str(numbers["fp"]), str(numbers["tests"])])
    fp_id = next(i for i in first["addedIds"] if "path-injection" in i)
    assert (report["added"], report["present"], report["revokedIds"]) == (0, 1, [fp_id])
    assert [s["alert"] for s in report["skippedAlerts"]] == [numbers["tests"]]
    assert "no longer exists" in report["skippedAlerts"][0]["why"]
    assert "is fixed, no longer dismissed" in entries(index, "resurface")[0]["content"]
    assert len(entries(index, "suppression")) == 3  # the deleted alert's suppression stays
    assert gh.schema_problems == []


def test_a_failing_page_is_retried_once_then_read(gh: FakeGitHub, index: Path) -> None:
    seed(gh)
    gh.fail_next("GET", r"/code-scanning/alerts$", status=502, times=1)
    result = run_import(gh, index, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["added"] == 3
    statuses = [r.status for r in gh.requests_to(r"/code-scanning/alerts$")]
    assert statuses[:2] == [502, 200]
