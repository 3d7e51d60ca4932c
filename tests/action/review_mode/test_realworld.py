"""A real package with lint debt (h11 0.9.0, ruff) and a small change: only the change counts."""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from riverbed.findings.fingerprint import compute_fingerprint
from riverbed.index.build import build_entry
from riverbed.pr_review import GITHUB_BODY_LIMIT, text_length
from riverbed.testing.cli_run import run_riverbed
from riverbed.text import unescape_markdown

REALWORLD = Path(__file__).resolve().parents[2] / "fixtures/realworld"
NOW = "2026-11-30T00:00:00Z"
WRITTEN = datetime(2026, 11, 1, tzinfo=UTC)


def _results(name: str) -> list[dict[str, Any]]:
    log = json.loads((REALWORLD / name).read_text())
    return [r for run in log["runs"] for r in run["results"]]


def _where(result: dict[str, Any]) -> tuple[str, int, int]:
    physical = result["locations"][0]["physicalLocation"]
    region = physical["region"]
    start = region["startLine"]
    return physical["artifactLocation"]["uri"], start, max(region.get("endLine", start), start)


def _hunks(site: Any, context: int) -> dict[str, set[int]]:
    """New-side lines per file from git's own hunk headers (-U0: added; -U3: whole hunks)."""
    text = site.git("diff", f"-U{context}", "--no-color", "main...HEAD")
    out: dict[str, set[int]] = {}
    current = ""
    for line in text.split("\n"):
        if line.startswith("+++ "):
            current = line[6:]
            out.setdefault(current, set())
        elif line.startswith("@@"):
            match = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", line)
            assert match
            start, count = int(match.group(1)), int(match.group(2) or 1)
            out[current] |= set(range(start, start + count))
    return out


def _expected(site: Any, mode: str) -> list[str]:
    """The scope of every head.sarif result, computed from git and the raw SARIF alone."""
    lines = {"added": _hunks(site, 0), "diff_context": _hunks(site, 3)}.get(mode)
    changed = set(site.git("diff", "--name-only", "main...HEAD").split())
    scopes = []
    for result in _results("head.sarif"):
        path, first, last = _where(result)
        if mode == "nofilter":
            inside = True
        elif lines is None:
            inside = path in changed
        else:
            inside = any(n in lines.get(path, ()) for n in range(first, last + 1))
        scopes.append("change" if inside else "outside")
    return scopes


def _cli(site: Any, *args: str) -> tuple[int, dict[str, Any]]:
    done = run_riverbed(
        "review", "--findings", "ruff.sarif", "--base", "main", "--now", NOW, "--json", *args,
        cwd=site.workspace,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def _memory() -> list[dict[str, Any]]:
    """Suppressions in effect for the PR's files (one also hides a finding in the change)."""
    results = _results("head.sarif")
    new_import = next(r for r in results if r["ruleId"] == "F401" and "os" in r["message"]["text"])
    entries = []
    for n, (rule, path) in enumerate(
        [("ANN001", "h11/_util.py"), ("UP032", "h11/_connection.py"), ("F405", "h11/*.py")]
    ):
        entries.append(
            build_entry(
                type="suppression",
                title=f"{rule} in {path} is accepted debt",
                content=f"{rule} is pre-existing debt in {path}; fixed module by module",
                author="maintainer",
                now=WRITTEN,
                files=[path],
                entry_id=f"supp-debt-{n}",
                context={
                    "scope": "file",
                    "active": True,
                    "feedbackType": "accepted_risk",
                    "match": {"ruleId": rule, "paths": [path]},
                },
            )
        )
    fingerprint = compute_fingerprint(
        {"ruleId": "F401", "file": "h11/_util.py", "message": new_import["message"]["text"]}
    )
    entries.append(
        build_entry(
            type="suppression",
            title="os is imported for the next change",
            content="the follow-up PR uses os; keep the import",
            author="maintainer",
            now=WRITTEN,
            files=["h11/_util.py"],
            entry_id="supp-os",
            context={
                "scope": "file",
                "active": True,
                "feedbackType": "accepted_risk",
                "fingerprint": fingerprint,
                "fingerprintAlgo": "v1",
            },
        )
    )
    return entries


@pytest.mark.parametrize("mode", ["added", "diff_context", "file", "nofilter"])
def test_scope_per_filter_mode_matches_git(realworld: Any, mode: str) -> None:
    realworld.open_pull([])
    code, data = _cli(realworld, "--filter-mode", mode, "--fail-on", "major")
    assert [f["scope"] for f in data["findings"]] == _expected(realworld, mode)
    in_scope = _expected(realworld, mode).count("change")
    # ruff reports every rule as error (major): fail-on counts exactly the in-scope findings.
    assert data["failing"] == data["summary"]["kept"] == in_scope
    assert code == (1 if in_scope else 0)
    assert data["summary"]["total"] == len(_results("head.sarif")) == 343


def _line_key(site: Any, result: dict[str, Any], commit: str | None) -> tuple[str, str, str]:
    """(rule, path, the line's text with whitespace collapsed) at `commit`, or in the tree."""
    path, first, _ = _where(result)
    text = site.git("show", f"{commit}:{path}") if commit else (site.workspace / path).read_text()
    return result["ruleId"], path, " ".join(text.splitlines()[first - 1].split())


def test_fail_on_reflects_the_change_alone(realworld: Any) -> None:
    realworld.open_pull([])
    _code, everything = _cli(realworld, "--filter-mode", "nofilter", "--fail-on", "major")
    _code, added = _cli(realworld, "--fail-on", "major")
    # With --base the base's files are at hand: findings match by rule, path and the text of
    # their line (issue 39 §6), computed here from git and the raw SARIF alone.
    base = Counter(_line_key(realworld, r, "main") for r in _results("base.sarif"))
    head = [_line_key(realworld, r, None) for r in _results("head.sarif")]
    left = Counter(base)
    in_base = []
    for key in head:
        in_base.append(left[key] > 0)
        left[key] -= 1
    (realworld.workspace / "base.sarif").write_bytes((REALWORLD / "base.sarif").read_bytes())
    code, new = _cli(realworld, "--baseline", "base.sarif", "--fail-on", "major")
    assert everything["failing"] == 343  # the day-one debt
    assert added["summary"]["filterMode"] == "added" and added["failing"] < 15
    scopes = _expected(realworld, "added")
    expected_new = [
        f["fingerprint"]
        for f, scope, known in zip(added["findings"], scopes, in_base, strict=True)
        if scope == "change" and not known
    ]
    assert sorted(f["fingerprint"] for f in new["kept"]) == sorted(expected_new)
    assert new["failing"] == len(expected_new) > 0 and code == 1
    assert {f["matchKey"] for f in new["findings"]} == {"lineHash"}
    unchanged = sum(in_base)
    assert new["summary"]["baseline"] == {
        "source": "--baseline base.sarif",
        "new": 343 - unchanged,
        "unchanged": unchanged,
    }


def test_action_review_of_the_same_pull_request(realworld: Any) -> None:
    realworld.open_pull(_memory())
    run = realworld.run(findings="ruff.sarif", **{"fail-on": "major"})
    assert run.code == 1, run.stderr  # new findings on added lines
    posts = [
        json.loads(r.body)
        for r in realworld.gh.requests
        if r.method == "POST" and r.path.endswith("/pulls/7/reviews")
    ]
    assert len(posts) == 1
    body = posts[0]["body"]
    assert text_length(body) < GITHUB_BODY_LIMIT
    plain = unescape_markdown(body)
    # The suppressions table keeps its rows, memory first.
    table = plain.split("### Suppressions in effect for this PR's files")[1]
    rows = [ln for ln in table.splitlines() if ln.startswith("| <code>supp-")]
    assert {re.search(r"<code>([\w-]+)</code>", r).group(1) for r in rows} == {  # type: ignore[union-attr]
        "supp-debt-0",
        "supp-debt-1",
        "supp-debt-2",
        "supp-os",
    }
    # No out-of-scope finding is listed in the body or commented inline.
    sarif = json.loads(Path(run.outputs["findings-path"]).read_text())
    outside = [
        r["partialFingerprints"]["riverbedFingerprint/v1"]
        for r in sarif["runs"][0]["results"]
        if r["properties"]["scope"] == "outside"
    ]
    assert len(outside) > 300 and run.outputs["findings-outside"] == str(len(outside))
    posted = body + "".join(c["body"] for c in posts[0]["comments"])
    assert not [fp for fp in outside if fp in posted]
    assert f"{len(outside)} findings outside the change, not shown (filter-mode added)" in plain
    # The CLI, given the same findings, memory and change, decides the same.
    _code, cli = _cli(realworld, "--phase", "midstream")
    assert [f["scope"] for f in cli["findings"]] == [
        r["properties"]["scope"] for r in sarif["runs"][0]["results"]
    ]
    assert str(cli["summary"]["kept"]) == run.outputs["findings-kept"]
    assert str(cli["summary"]["suppressed"]) == run.outputs["findings-suppressed"]
    hidden = {f.get("suppressionId") for f in cli["findings"] if f["scope"] == "change"}
    assert {"supp-os", "supp-debt-0", "supp-debt-1"} <= hidden
