"""Review mode end to end: the real entrypoint against the GitHub stand-in."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from riverbed.findings import read_findings
from riverbed.pr_review import GITHUB_BODY_LIMIT, build_diff_index, text_length
from riverbed.pr_review.markers import parse_finding_marker
from riverbed.testing.github.openapi import OpenAPISubset

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
MENTION = re.compile(r"@[A-Za-z0-9]")


def review_posts(site: Any) -> list[dict[str, Any]]:
    """The JSON bodies of every POST …/reviews the stand-in received."""
    return [
        json.loads(r.body)
        for r in site.gh.requests
        if r.method == "POST" and r.path.endswith("/pulls/7/reviews")
    ]


def scenario(site: Any) -> dict[str, dict[str, Any]]:
    """Findings A…F and the memory that treats each differently."""
    items = {
        "inline": site.issue("R-inline", 2, "added line has a bug", lineEnd=3),
        "outside": site.issue("R-outside", 50, "far from the diff", evidence=["not in the file"]),
        "suppressed": site.issue("R-supp", 3, "known noise here"),
        "other_phase": site.issue("R-up", 4, "upstream suppression must not apply"),
        "phaseless": site.issue("R-any", 5, "phase-less suppression applies"),
        "guarded": site.issue("R-major", 32, "major finding stays", severity="major"),
    }
    fp = {k: site.fingerprint(v) for k, v in items.items()}
    site.write_findings(list(items.values()))
    site.write_memory(
        [
            site.suppression("supp-mid", fp=fp["suppressed"], phase="midstream"),
            site.suppression("supp-up", fp=fp["other_phase"], phase="upstream"),
            site.suppression("supp-any", fp=fp["phaseless"], phase=None, reason="any phase"),
            site.suppression("supp-fp", fp=fp["guarded"], phase="midstream"),
        ]
    )
    return {k: {"item": v, "fp": fp[k]} for k, v in items.items()}


def test_review_is_posted_with_memory_applied(site: Any) -> None:
    cases = scenario(site)
    memory_before = site.index_path.read_bytes()
    run = site.run()
    assert run.code == 0, run.stderr + run.stdout
    posts = review_posts(site)
    assert len(posts) == 1
    request = posts[0]
    github = OpenAPISubset.from_file(FIXTURES / "github-openapi-subset.json")
    assert github.validate_request("POST", "/repos/octo/demo/pulls/7/reviews", request) == []
    # Every REST exchange of the run (requests and the stand-in's answers) is as GitHub
    # documents; the GraphQL ones are checked against GitHub's GraphQL schema by `gh`.
    rest = [r for r in site.gh.requests if r.path != "/graphql"]
    assert [p for r in rest for p in github.check_exchange(r)] == []
    assert request["event"] == "COMMENT" and request["commit_id"] == "a" * 40

    served = build_diff_index([("src/app.py", site.patch)]).file("src/app.py")
    assert served is not None
    for comment in request["comments"]:
        assert comment["path"] == "src/app.py" and comment["side"] == "RIGHT"
        assert comment["line"] in served.commentable_lines
        if "start_line" in comment:
            assert served.same_hunk(comment["start_line"], comment["line"])
    assert (2, 3) in [(c.get("start_line"), c["line"]) for c in request["comments"]]
    inline_fps = {parse_finding_marker(c["body"]).fingerprint for c in request["comments"]}  # type: ignore[union-attr]
    assert inline_fps == {cases[k]["fp"] for k in ("inline", "other_phase", "guarded")}

    body = request["body"]
    assert body.startswith("## riverbed review · midstream phase")
    # findings/outside/kept/suppressed/by the tool/guard/resurfaced/evidence not found
    assert "| 6 | 0 | 4 | 2 | 0 | 1 | 3 | 1 |" in body
    assert "3 inline comments, 1 finding outside the diff." in body
    assert "supp\\-mid" in body and "supp\\-any" in body and "supp\\-up" not in body
    assert "major findings are only suppressed by feedbackType accepted\\_risk" in body
    assert "<details><summary>2 suppressed findings</summary>" in body
    assert "far from the diff" in body and "quoted evidence not found in the file" in body
    assert "/riverbed suppress" in body

    assert run.outputs["findings-kept"] == "4"
    assert run.outputs["findings-suppressed"] == "2"
    assert run.outputs["upload"] == "false" and run.outputs["posted"] == "true"
    sarif = json.loads(Path(run.outputs["findings-path"]).read_text())
    results = [r for r in sarif["runs"][0]["results"]]
    assert sum(1 for r in results if r.get("suppressions")) == 2
    assert Path(run.outputs["context-path"]).read_text().startswith("#")
    assert site.index_path.read_bytes() == memory_before  # read-only: memory untouched
    assert not [r for r in site.gh.requests if r.method != "GET" and "artifact" in r.path]
    assert "Posted review" in run.summary


def test_rerun_posts_nothing_and_a_new_finding_posts_only_itself(site: Any) -> None:
    scenario(site)
    assert site.run().code == 0
    second = site.run()
    assert second.code == 0
    assert len(review_posts(site)) == 1
    assert "Nothing changed since the last riverbed review" in second.summary
    assert second.outputs["posted"] == "false"

    findings = json.loads((site.workspace / "findings.json").read_text())["issues"]
    new = site.issue("R-new", 33, "a new problem")
    site.write_findings([*findings, new])
    third = site.run()
    assert third.code == 0
    posts = review_posts(site)
    assert len(posts) == 2
    markers = [parse_finding_marker(c["body"]) for c in posts[1]["comments"]]
    assert [m.fingerprint for m in markers if m] == [site.fingerprint(new)]
    assert "3 already commented by an earlier review" in posts[1]["body"]


def test_read_only_token_falls_back_to_annotations(site: Any) -> None:
    scenario(site)
    site.gh.read_only = True
    run = site.run()
    assert run.code == 0, run.stderr
    assert site.gh.reviews.get(7, []) == []
    assert "::warning file=src/app.py,line=32,title=riverbed%3A major R-major::" in run.stdout
    assert len(re.findall(r"^::warning file=", run.stdout, re.M)) == 4
    assert "GitHub answered 403" in run.summary
    assert "### Kept findings" in run.summary and "far from the diff" in run.summary
    assert "4 kept findings annotated" in run.summary
    assert "Nothing was commented inline: 3 findings on diff lines, 1 elsewhere." in run.summary


def test_inline_cap_puts_the_rest_in_the_body(site: Any) -> None:
    cases = scenario(site)
    run = site.run(max_inline_comments="1")
    assert run.code == 0, run.stderr
    request = review_posts(site)[0]
    assert (
        len(request["comments"]) == 1 and cases["guarded"]["fp"] in request["comments"][0]["body"]
    )
    line = (
        "1 inline comment, 1 finding outside the diff, "
        "2 over the inline cap (max-inline-comments: 1)."
    )
    assert line in request["body"]
    assert (
        cases["other_phase"]["fp"] in request["body"] and cases["inline"]["fp"] in request["body"]
    )


def test_rate_limited_post_is_reported_as_such(site: Any) -> None:
    scenario(site)
    site.gh.content_rate_limit = 0
    run = site.run()
    assert run.code == 0, run.stderr
    assert "rate limit refused it; re-run the job later" in run.summary
    assert "read-only" not in run.summary
    assert "::warning file=src/app.py" in run.stdout


def test_fail_on_reached_exits_1(site: Any) -> None:
    scenario(site)
    run = site.run(fail_on="major", post_review="false", max_inline_comments="1")
    assert run.code == 1
    assert review_posts(site) == []
    assert "Nothing was commented inline: 3 findings on diff lines, 1 elsewhere." in run.summary
    assert "fail-on major: 1 kept findings in the change at or above it" in run.summary
    assert site.run(fail_on="critical", post_review="false").code == 0


def test_hostile_strings_are_neutralised(site: Any) -> None:
    hostile = "@org/team </details> <img src=x onerror=alert(1)> [x](javascript:1) @alice"
    big = "Z" * 100_000
    items = [site.issue("R-h", 2, hostile), site.issue("R-big", 3, big)]
    items += [site.issue(f"R-far{i}", 40 + (i % 20), big + str(i)) for i in range(40)]
    items += [site.issue("R-x", 5, "x", file="src/@org/team</details>.py")]
    site.write_findings(items)
    run = site.run()
    assert run.code == 0, run.stderr
    request = review_posts(site)[0]
    body = request["body"]
    assert text_length(body) <= GITHUB_BODY_LIMIT
    texts = [body, *(c["body"] for c in request["comments"])]
    for text in texts:
        assert not MENTION.search(text)
        assert "<img" not in text and "](javascript" not in text
        assert text_length(text) <= GITHUB_BODY_LIMIT
    assert body.count("</details>") == body.count("<details>")
    assert "more characters cut" in body
    assert not MENTION.search(run.summary) and "<img" not in run.summary


def test_real_ruff_sarif(site: Any) -> None:
    source = [
        "import os" if n == 2 else "import sys" if n == 32 else f"x{n} = {n}" for n in range(1, 61)
    ]
    (site.workspace / "src/app.py").write_text("\n".join(source) + "\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--no-cache",
            "--isolated",
            "--select",
            "F401",
            "--exit-zero",
            "--output-format",
            "sarif",
            "--output-file",
            "ruff.sarif",
            "src",
        ],
        cwd=site.workspace,
        check=True,
        capture_output=True,
    )
    findings = read_findings(site.workspace / "ruff.sarif", root=site.workspace)
    assert sorted((f.file, f.line) for f in findings) == [("src/app.py", 2), ("src/app.py", 32)]
    os_import = next(f for f in findings if f.line == 2)
    assert os_import.severity == "major"  # ruff writes level "error": only accepted_risk hides it
    site.write_memory(
        [
            site.suppression(
                "supp-os", fp=os_import.fingerprint, phase="midstream", feedback="accepted_risk"
            )
        ]
    )
    run = site.run(findings="ruff.sarif")
    assert run.code == 0, run.stderr
    request = review_posts(site)[0]
    assert [(c["path"], c["line"]) for c in request["comments"]] == [("src/app.py", 32)]
    assert "F401" in request["comments"][0]["body"]
    assert run.outputs["findings-kept"] == "1" and run.outputs["findings-suppressed"] == "1"
    sarif = json.loads(Path(run.outputs["findings-path"]).read_text())
    suppressed = [r for run_ in sarif["runs"] for r in run_["results"] if r.get("suppressions")]
    assert len(suppressed) == 1


def test_memory_comes_from_a_trusted_artifact_only(site: Any) -> None:
    cases = scenario(site)
    trusted = site.index_path.read_bytes()
    site.index_path.unlink()
    push = site.gh.add_run(event="push", head_repository_id=1001)
    artifact = site.gh.add_artifact(
        name="riverbed-memory", run_id=push, files={"index.json": trusted}
    )
    # A newer artifact from a pull_request run (a PR could have written it) must be ignored.
    site.write_memory([])
    hostile = site.index_path.read_bytes()
    site.index_path.unlink()
    pr_run = site.gh.add_run(event="pull_request", head_repository_id=1001)
    site.gh.add_artifact(name="riverbed-memory", run_id=pr_run, files={"index.json": hostile})
    run = site.run()
    assert run.code == 0, run.stderr
    assert run.outputs["restored-from"] == str(artifact)
    assert run.outputs["findings-suppressed"] == "2"
    assert not site.index_path.exists()  # nothing written to the workspace
    fps = {c["body"] for c in review_posts(site)[0]["comments"]}
    assert not any(cases["suppressed"]["fp"] in body for body in fps)


def test_head_moved_posts_nothing(site: Any) -> None:
    scenario(site)
    site.gh.pulls[7]["head_sha"] = "b" * 40  # a push landed after the event
    run = site.run()
    assert run.code == 0, run.stderr
    assert review_posts(site) == []
    assert "moved on to bbbbbbbbbbbb" in run.summary and run.outputs["posted"] == "false"


def test_refused_inline_comments_fall_back_to_the_body(site: Any) -> None:
    cases = scenario(site)
    site.gh.fail_next(method="POST", path_regex=r"/pulls/7/reviews$", status=422, times=1)
    run = site.run()
    assert run.code == 0, run.stderr
    posts = review_posts(site)
    assert len(posts) == 2 and posts[1]["comments"] == []
    assert cases["inline"]["fp"] in posts[1]["body"]
    assert "posted every finding in the review body instead" in run.summary


def test_malformed_findings_error_names_the_action_input(site: Any) -> None:
    (site.workspace / "findings.json").write_text('{"runs": [{"results": "x"}]}')
    run = site.run(findings_format="sarif")
    assert run.code == 2, run.stdout + run.stderr
    assert "findings.json: not a valid SARIF 2.1.0: $.runs[0].results" in run.stdout
    assert "--format" not in run.stdout  # the action has an input, not a command-line option
    (site.workspace / "findings.json").write_text('{"neither": []}')
    run = site.run()
    assert "`findings-format` input" in run.stdout
