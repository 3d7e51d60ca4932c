"""Review mode's scope (filter modes, baseline), its memory source, and the CLI agreeing with it."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from riverbed.testing.cli_run import run_riverbed
from riverbed.text import unescape_markdown


def review_posts(site: Any) -> list[dict[str, Any]]:
    """The JSON bodies of every POST …/reviews the stand-in received."""
    return [
        json.loads(r.body)
        for r in site.gh.requests
        if r.method == "POST" and r.path.endswith("/pulls/7/reviews")
    ]


def scenario(site: Any) -> dict[str, str]:
    """Findings on added lines, on context lines, far away, in another file, and memory."""
    items = {
        "added": site.issue("R-add", 2, "added line has a bug", lineEnd=3),
        "context": site.issue("R-ctx", 5, "context line"),
        "far": site.issue("R-far", 50, "far from the diff"),
        "suppressed": site.issue("R-supp", 32, "known noise on an added line"),
        "guarded": site.issue("R-major", 3, "major finding stays", severity="major"),
        "elsewhere": site.issue("R-else", 1, "in a file the PR does not touch", file="lib.py"),
        "no_line": site.issue("R-noline", None, "about the whole file"),
    }
    fp = {k: site.fingerprint(v) for k, v in items.items()}
    site.write_findings(list(items.values()))
    site.write_memory(
        [
            site.suppression("supp-noise", fp=fp["suppressed"], phase="midstream"),
            site.suppression("supp-fp", fp=fp["guarded"], phase="midstream"),
        ]
    )
    return fp


def test_added_mode_posts_and_counts_only_the_change(site: Any) -> None:
    fp = scenario(site)
    run = site.run(**{"filter-mode": "added", "fail-on": "major"})
    assert run.code == 1, run.stderr  # the guarded major finding is on an added line
    assert run.outputs["restored-from"] == "base"
    assert (run.outputs["findings-kept"], run.outputs["findings-suppressed"]) == ("2", "1")
    assert run.outputs["findings-outside"] == "4"
    (post,) = review_posts(site)
    body = post["body"]
    for name in ("context", "far", "elsewhere", "no_line"):
        assert fp[name] not in body and all(fp[name] not in c["body"] for c in post["comments"])
    assert "4 findings outside the change, not shown (filter-mode added)" in unescape_markdown(body)
    assert "fail-on major: 1 kept findings in the change" in run.summary
    # The job summary has the full report, outside findings included; SARIF keeps them all.
    assert "4 findings outside the change</summary>" in run.summary and fp["far"] in run.summary
    sarif = json.loads(Path(run.outputs["findings-path"]).read_text())
    scopes = {
        r["partialFingerprints"]["riverbedFingerprint/v1"]: r["properties"]["scope"]
        for r in sarif["runs"][0]["results"]
    }
    assert scopes == {
        fp[k]: ("change" if k in ("added", "suppressed", "guarded") else "outside") for k in fp
    }


def test_baseline_file_leaves_only_new_findings_in_scope(site: Any) -> None:
    fp = scenario(site)
    base = {"issues": [site.issue("R-add", 2, "added line has a bug")]}
    (site.workspace / "base-findings.json").write_text(json.dumps(base))
    run = site.run(**{"filter-mode": "file", "baseline": "base-findings.json"})
    assert run.code == 0, run.stderr
    assert run.outputs["findings-outside"] == "2"  # lib.py (filter) and R-add (unchanged)
    sarif = json.loads(Path(run.outputs["findings-path"]).read_text())
    states = {
        r["partialFingerprints"]["riverbedFingerprint/v1"]: r["baselineState"]
        for r in sarif["runs"][0]["results"]
    }
    assert states[fp["added"]] == "unchanged" and states[fp["far"]] == "new"
    assert "1 unchanged since the baseline" in review_posts(site)[0]["body"]


def test_the_pull_requests_own_index_is_never_used(site: Any) -> None:
    fp = scenario(site)
    # The PR adds a suppression of its own major finding to the workspace copy of memory.
    forged = site.suppression("supp-forged", fp=fp["guarded"], phase=None, feedback="accepted_risk")
    index = json.loads(site.index_path.read_text())
    index["entries"].append(forged)
    site.index_path.write_text(json.dumps(index))
    run = site.run(**{"filter-mode": "added", "fail-on": "major"})
    assert run.code == 1, run.stderr  # the forged suppression did not hide it
    assert "supp-forged" not in run.summary and run.outputs["restored-from"] == "base"
    assert "from the base commit" in run.stdout


def test_a_symlinked_or_corrupt_base_index_is_refused_without_echo(site: Any) -> None:
    scenario(site)
    secret = site.root / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT " * 20)
    site.index_path.unlink()
    os.symlink(secret, site.index_path)
    site.commit_base("symlink")
    run = site.run(**{"filter-mode": "added"})
    assert run.code == 0, run.stderr
    assert run.outputs["restored-from"] == "empty"
    assert "symbolic link on the base branch (refused)" in run.stdout
    everything = run.stdout + run.stderr + run.summary
    assert "TOP-SECRET" not in everything
    assert run.outputs["findings-kept"] == "3"  # no memory: the noise is not suppressed
    site.index_path.unlink()
    site.index_path.write_text('{"version": "1", "entries": [{"id": "TOP-SECRET-CONTENT"}]}')
    site.commit_base("corrupt")
    again = site.run(**{"filter-mode": "added"})
    assert again.code == 0 and again.outputs["restored-from"] == "empty"
    assert "is not a valid riverbed index" in again.stdout
    assert "TOP-SECRET" not in again.stdout + again.stderr + again.summary


def _decisions_from_action(run: Any) -> dict[str, tuple[str, str]]:
    sarif = json.loads(Path(run.outputs["findings-path"]).read_text())
    out = {}
    for result in sarif["runs"][0]["results"]:
        fingerprint = result["partialFingerprints"]["riverbedFingerprint/v1"]
        decision = "suppressed" if result.get("suppressions") else "kept"
        out[fingerprint] = (decision, result["properties"]["scope"])
    return out


def test_cli_json_and_action_decide_the_same(site: Any) -> None:
    scenario(site)
    run = site.run(**{"filter-mode": "added"})
    assert run.code == 0, run.stderr
    diff = "diff --git a/src/app.py b/src/app.py\n--- a/src/app.py\n+++ b/src/app.py\n"
    (site.workspace / "pr.diff").write_text(diff + site.patch + "\n")
    cli = run_riverbed(
        "review", "--findings", "findings.json", "--diff", "pr.diff", "--phase", "midstream",
        "--workspace", ".", "--json", cwd=site.workspace,
    )  # fmt: skip
    assert cli.returncode == 0, cli.stderr
    data = json.loads(cli.stdout)
    from_cli = {f["fingerprint"]: (f["decision"], f["scope"]) for f in data["findings"]}
    assert from_cli == _decisions_from_action(run)
    summary = unescape_markdown(run.summary)
    guard_cli = {f["fingerprint"] for f in data["findings"] if f.get("skippedByGuard")}
    guard_action = set(re.findall(r"\(fingerprint <code>(\w+)</code>\) stays", summary))
    assert guard_cli == guard_action and guard_cli
    resurfaced_action = set(re.findall(r"^- <code>([\w-]+)</code> .*still valid\?$", summary, re.M))
    assert {e["id"] for e in data["resurfaced"]} == resurfaced_action == {"supp-noise", "supp-fp"}
    counts = data["summary"]
    assert (str(counts["kept"]), str(counts["suppressed"]), str(counts["outside"])) == (
        run.outputs["findings-kept"],
        run.outputs["findings-suppressed"],
        run.outputs["findings-outside"],
    )


def test_bad_scope_inputs_are_one_line_errors(site: Any) -> None:
    scenario(site)
    bad_mode = site.run(**{"filter-mode": "lines"})
    assert bad_mode.code == 2 and review_posts(site) == []
    assert "input filter-mode: 'lines' is not one of added, diff_context, file, nofilter" in (
        bad_mode.stdout
    )
    missing = site.run(**{"baseline": "nope.sarif"})
    assert missing.code == 2 and "input baseline: 'nope.sarif' is not a file" in missing.stdout
    assert "Traceback" not in bad_mode.stderr + missing.stderr
    empty = site.run(**{"baseline": "memory", "filter-mode": "file"})
    assert empty.code == 0, empty.stderr
    assert "memory holds no current baseline" in empty.stdout


def test_files_past_githubs_list_get_file_scope_from_git(realworld: Any) -> None:
    site = realworld
    site.write_memory([])
    site.git("checkout", "-q", "-b", "feature")
    names = [f"gen/f{n:04d}.py" for n in range(3005)]
    (site.workspace / "gen").mkdir()
    for name in names:
        (site.workspace / name).write_text("x = 1\n")
    site.commit_base("many files")  # the head commit (commit_base only records the sha)
    site.head_sha, site.base_sha = site.base_sha, site.git("rev-parse", "main").strip()
    patch = "@@ -0,0 +1 @@\n+x = 1"
    files = [{"filename": n, "status": "added", "patch": patch} for n in names]
    site.gh.add_pull(7, site.head_sha, files=files)
    unlisted = names[-1]  # the stand-in, like GitHub, lists the first 3,000
    findings = [site.issue("R-far", 1, "in an unlisted file", file=unlisted)]
    site.write_findings(findings)
    run = site.run(**{"filter-mode": "added"})
    assert run.code == 0, run.stderr
    assert run.outputs["findings-kept"] == "1" and run.outputs["findings-outside"] == "0"
    summary = unescape_markdown(run.summary)
    assert "GitHub lists only 3000 of the 3005 files" in summary
    assert "git named the other 5: file scope for those" in summary
    # Without the base commit in the checkout, those files cannot be named: outside, said so.
    site.base_sha = "f" * 40
    blind = site.run(**{"filter-mode": "added"})
    assert blind.outputs["findings-outside"] == "1"
    assert "count as outside the change (git cannot name them" in unescape_markdown(blind.summary)
