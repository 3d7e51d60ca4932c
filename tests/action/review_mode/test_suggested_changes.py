"""Tools' fixes on inline comments: suggested changes where GitHub can apply them, else diffs.

The sample project is the one tests/fixtures/real/generate.sh linted (its files are read from
the script), the findings are the committed real outputs of ruff 0.17.6 (SARIF, fixes with
`artifactChanges`) and Biome 2.6.8 (rdjson `suggestions`). Each posted suggestion is checked
the way GitHub applies it: the commented lines replaced by the block give the file with the
tool's fix applied, computed here independently of riverbed.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from review_helpers import FIXTURES

from riverbed.pr_review.markers import parse_finding_markers
from riverbed.text import unescape_markdown

REAL = FIXTURES / "real"
CORPUS = "/tmp/riverbed-corpus/ws"
FILES = (
    "py/app.py",
    "py/config with spaces.py",
    "js/app.js",
    "js/with space.js",
    "js/suppressed.js",
)


def sample_file(name: str) -> str:
    """A file of generate.sh's sample project, as the script writes it."""
    script = (REAL / "generate.sh").read_text(encoding="utf-8")
    found = re.search(rf"cat > \"?{re.escape(name)}\"? <<'EOF'\n(.*?)\nEOF\n", script, re.S)
    assert found, name
    return found.group(1) + "\n"


@pytest.fixture
def sample(bare_site: Any) -> Any:
    """PR #7 adds the sample project; the real findings, moved to this workspace, are beside it."""
    return open_sample(bare_site)


def open_sample(site: Any, head: str | None = None, replace: tuple[str, str] = ("", "")) -> Any:
    """Commit the sample on a branch and open PR #7 on it (or on `head`, a commit the
    checkout does not hold, as a merge-commit checkout of depth 1 does not); `replace`
    edits py/app.py's text."""
    gh = site.gh
    site.inputs["findings"] = "ruff.sarif\nbiome.rdjson"
    (site.workspace / "README.md").write_text("sample\n")
    site.commit_base("base")
    for name in FILES:
        (site.workspace / name).parent.mkdir(parents=True, exist_ok=True)
        text = sample_file(name)
        if name == "py/app.py" and replace[0]:
            text = text.replace(*replace)
        (site.workspace / name).write_text(text, encoding="utf-8")
    site.git("checkout", "-q", "-b", "feature")
    site.git("add", "-A")
    site.git("commit", "-q", "-m", "add the sample project")
    site.head_sha = head or site.git("rev-parse", "HEAD").strip()
    files = []
    for name in FILES:
        text = site.git("diff", "--no-color", "main...HEAD", "--", name)
        files.append({"filename": name, "status": "added", "patch": text[text.index("@@") :]})
    gh.add_pull(7, site.head_sha, files=files)
    sarif = (REAL / "ruff-0.17.6.sarif").read_text(encoding="utf-8")
    (site.workspace / "ruff.sarif").write_text(sarif.replace(CORPUS, str(site.workspace)))
    (site.workspace / "biome.rdjson").write_bytes((REAL / "biome-2.6.8.rdjson").read_bytes())
    return site


def posted(site: Any) -> list[dict[str, Any]]:
    """The inline comments of the one review posted."""
    (request,) = [json.loads(r.body) for r in site.gh.requests_to(r"/pulls/7/reviews$", "POST")]
    return list(request["comments"])


def block(body: str, info: str) -> tuple[list[str], str] | None:
    """The lines of the body's fenced block `info` and its fence, read as CommonMark does:
    the block ends at the first line of at least as many backticks and nothing else."""
    lines = body.split("\n")
    for at, line in enumerate(lines):
        opening = re.fullmatch(rf"(`{{3,}}){info}", line)
        if opening:
            bar = opening.group(1)
            for end in range(at + 1, len(lines)):
                if re.fullmatch(rf" {{0,3}}`{{{len(bar)},}}\s*", lines[end]):
                    return lines[at + 1 : end], bar
            raise AssertionError("the block never closes")
    return None


def apply_fix(text: str, edits: list[tuple[int, int, int, int, str]]) -> list[str]:
    """The file's lines with (line, column, end line, end column, text) edits applied (ASCII)."""
    lines = text.split("\n")

    def offset(line: int, column: int) -> int:
        return sum(len(x) + 1 for x in lines[: line - 1]) + column - 1

    spans = sorted(((offset(a, b), offset(c, d), t) for a, b, c, d, t in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text.split("\n")


def edits_of(result: dict[str, Any]) -> list[tuple[int, int, int, int, str]]:
    """A SARIF result's first fix, or an rdjson diagnostic's suggestions, as plain edits."""
    if "fixes" in result:
        replacements = result["fixes"][0]["artifactChanges"][0]["replacements"]
        regions = [
            (r["deletedRegion"], r.get("insertedContent", {}).get("text", "")) for r in replacements
        ]
        return [
            (g["startLine"], g["startColumn"], g["endLine"], g["endColumn"], t) for g, t in regions
        ]
    return [
        (
            s["range"]["start"]["line"],
            s["range"]["start"]["column"],
            s["range"]["end"]["line"],
            s["range"]["end"]["column"],
            s.get("text", ""),
        )
        for s in result["suggestions"]
    ]


def test_real_fixes_become_suggestions_that_equal_the_fixed_file(sample: Any) -> None:
    run = sample.run()
    assert run.code == 0, run.stderr + run.stdout
    comments = {
        (c["path"], c.get("start_line", c["line"]), c["line"]): c["body"] for c in posted(sample)
    }
    ruff = json.loads((REAL / "ruff-0.17.6.sarif").read_text())["runs"][0]["results"]
    biome = json.loads((REAL / "biome-2.6.8.rdjson").read_text())["diagnostics"]
    expected = {"suggestion": 0, "diff": 0}
    for item in [*ruff, *biome]:
        if not item.get("fixes") and not item.get("suggestions"):
            continue
        where = item["locations"][0]["physicalLocation"] if "fixes" in item else item["location"]
        uri = where["artifactLocation"]["uri"] if "fixes" in item else where["path"]
        path = uri.removeprefix(f"file://{CORPUS}/").replace("%20", " ")
        line = where["region"]["startLine"] if "fixes" in item else where["range"]["start"]["line"]
        (key,) = [k for k in comments if k[0] == path and k[1] <= line <= k[2] and (k[2] == line)]
        body = comments.pop(key)
        edits = edits_of(item)
        old = sample_file(path).split("\n")
        fixed = apply_fix(sample_file(path), edits)
        inside = all(
            key[1] <= e[0] and (e[2] <= key[2] or (e[2] == key[2] + 1 and e[3] == 1)) for e in edits
        )
        suggestion = block(body, "suggestion")
        if inside:
            assert suggestion is not None, body
            new_lines, _bar = suggestion
            # GitHub replaces the commented lines with the block: that must be the fixed file.
            assert old[: key[1] - 1] + new_lines + old[key[2] :] == fixed
            expected["suggestion"] += 1
        else:
            assert suggestion is None and block(body, "diff") is not None, body
            assert "a diff and not a suggestion: it edits lines outside this comment" in body
            expected["diff"] += 1
    assert expected == {"suggestion": 10, "diff": 1}  # biome's noDebugger fix starts a line early
    assert all(
        block(b, "suggestion") is None and block(b, "diff") is None for b in comments.values()
    )
    line = "Fixes from the tools on inline comments: 10 suggested changes, 1 diff, 0 not shown"
    assert line in run.summary


def test_a_deleted_line_is_an_empty_suggestion_and_a_replaced_one_its_new_text(
    sample: Any,
) -> None:
    assert sample.run().code == 0
    bodies = {(c["path"], c["line"]): c["body"] for c in posted(sample)}
    assert (
        "**Suggested change** (Remove unused import\\: \\`os\\`)\n\n```suggestion\n```\n"
        in bodies[("py/app.py", 1)]
    )
    assert "```suggestion\n    return x is None\n```\n" in bodies[("py/app.py", 18)]


def test_a_fix_over_two_files_is_a_diff_of_both(sample: Any) -> None:
    log = json.loads((sample.workspace / "ruff.sarif").read_text())
    result = next(r for r in log["runs"][0]["results"] if r["ruleId"] == "E711")
    (config,) = [
        r for r in log["runs"][0]["results"] if "config" in json.dumps(r) and r.get("fixes")
    ]
    other = config["fixes"][0]["artifactChanges"][0]
    result["fixes"][0]["artifactChanges"].append(other)  # also drop `import json` elsewhere
    (sample.workspace / "ruff.sarif").write_text(json.dumps(log))
    assert sample.run().code == 0
    (body,) = [c["body"] for c in posted(sample) if c["path"] == "py/app.py" and c["line"] == 18]
    assert block(body, "suggestion") is None
    assert (
        "a diff and not a suggestion: it edits 2 files (py/app.py, py/config with spaces.py)"
        in body.replace("\\", "")
    )
    diff, _bar = block(body, "diff")
    assert diff == [
        "--- a/py/app.py",
        "+++ b/py/app.py",
        "@@ -17,3 +17,3 @@",
        "     unused = 1",
        "-    return x == None",
        "+    return x is None",
        " ",
        "--- a/py/config with spaces.py",
        "+++ b/py/config with spaces.py",
        "@@ -1,2 +1 @@",
        "-import json",
        " def f():",
    ]


def test_a_checkout_that_is_not_the_head_commit_gives_diffs(sample: Any) -> None:
    app = sample.workspace / "py/app.py"
    app.write_text("# reformatted by the workflow\n" + app.read_text())
    assert sample.run().code == 0
    bodies = [c["body"] for c in posted(sample) if c["path"] == "py/app.py"]
    fixed = [b for b in bodies if "Fix from the tool" in b]
    assert len(fixed) == 4 and all(block(b, "suggestion") is None for b in fixed)
    assert all("is not the head commit" in b for b in fixed)


HOSTILE = (
    "x is None  # ```` ``` @octocat <img src=x onerror=alert(1)> [link](https://evil.example) "
    '<!-- riverbed:finding {"fp":"forged","rule":"R","severity":"info","path":"p","line":1} -->'
)


def hostile_run(sample: Any, text: str) -> str:
    log = json.loads((sample.workspace / "ruff.sarif").read_text())
    result = next(r for r in log["runs"][0]["results"] if r["ruleId"] == "E711")
    result["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"] = text
    (sample.workspace / "ruff.sarif").write_text(json.dumps(log))
    run = sample.run()
    assert run.code == 0, run.stderr
    (body,) = [c["body"] for c in posted(sample) if c["path"] == "py/app.py" and c["line"] == 18]
    assert len(parse_finding_markers(body)) == 1  # only riverbed's own marker, never a forged one
    return body


def test_hostile_fix_text_cannot_break_out_of_the_block(sample: Any) -> None:
    fences = "x is None  # ```` ``` ````` @octocat <img src=x onerror=alert(1)> </details>"
    body = hostile_run(sample, fences)
    lines, bar = block(body, "suggestion")
    assert bar == "``````"  # longer than the longest run inside
    assert lines == [f"    return {fences}"]
    after = body.split(f"\n{bar}\n", 1)[1]
    assert "@octocat" not in after and "<img" not in after


def test_a_fix_carrying_a_forged_marker_is_not_shown(sample: Any) -> None:
    body = hostile_run(sample, HOSTILE)
    assert (
        "**Fix not shown** (Replace with `cond is None`): its text holds riverbed's own hidden "
        "marker." in unescape_markdown(body)
    )
    assert "forged" not in body and "octocat" not in body


@pytest.mark.parametrize("char", ["\u202e", "\u2066", "\u200b", "\x1b"])
def test_bidi_and_control_characters_are_a_visible_diff_not_a_suggestion(
    sample: Any, char: str
) -> None:
    body = hostile_run(sample, f"x is None{char} or admin")
    assert block(body, "suggestion") is None
    diff, _bar = block(body, "diff")
    assert "+    return x is None\ufffd or admin" in diff
    assert char not in body
    reason = "it holds invisible, bidirectional or control characters (shown as \ufffd)"
    assert reason in unescape_markdown(body)


def test_a_huge_fix_is_named_not_cut(sample: Any) -> None:
    body = hostile_run(sample, "x" * 100_000)
    assert (
        "**Fix not shown** (Replace with `cond is None`): its text is 100,000 characters, over "
        "the 6,000 a comment shows." in unescape_markdown(body)
    )
    assert "xxxxxxxxxx" not in body and len(body) < 5000


SEMGREP = REAL / "semgrep-autofix"


@pytest.fixture
def semgrep_site(bare_site: Any) -> Any:
    """PR #7 adds src/fetch.py; Semgrep 1.185.0's SARIF with autofixes for it is beside it."""
    site = bare_site
    site.inputs["findings"] = "semgrep.sarif"
    (site.workspace / "README.md").write_text("sample\n")
    site.commit_base("base")
    (site.workspace / "src").mkdir()
    (site.workspace / "src/fetch.py").write_bytes((SEMGREP / "fetch.py.txt").read_bytes())
    site.git("checkout", "-q", "-b", "feature")
    site.git("add", "-A")
    site.git("commit", "-q", "-m", "add fetch.py")
    site.head_sha = site.git("rev-parse", "HEAD").strip()
    text = site.git("diff", "--no-color", "main...HEAD", "--", "src/fetch.py")
    patch = {"filename": "src/fetch.py", "status": "added", "patch": text[text.index("@@") :]}
    site.gh.add_pull(7, site.head_sha, files=[patch])
    sarif = (SEMGREP / "semgrep-1.185.0-autofix.sarif").read_bytes()
    (site.workspace / "semgrep.sarif").write_bytes(sarif)
    return site


def test_semgrep_autofixes_committed_as_suggested_give_semgrep_s_own_autofix(
    semgrep_site: Any,
) -> None:
    run = semgrep_site.run()
    assert run.code == 0, run.stderr + run.stdout
    lines = (SEMGREP / "fetch.py.txt").read_text().split("\n")
    comments = posted(semgrep_site)
    ranges = sorted((c.get("start_line", c["line"]), c["line"], c["body"]) for c in comments)
    assert [(first, last) for first, last, _ in ranges] == [(6, 9), (10, 10), (14, 14)]
    # Commit every suggestion, as GitHub does (bottom up: each replaces its commented lines).
    for first, last, body in reversed(ranges):
        found = block(body, "suggestion")
        assert found is not None, body
        lines[first - 1 : last] = found[0]
    assert "\n".join(lines) == (SEMGREP / "fetch.autofixed.py.txt").read_text()
    assert "3 suggested changes, 0 diffs, 0 not shown" in run.summary


def test_without_the_head_commit_in_the_checkout_the_contents_api_says(bare_site: Any) -> None:
    head = "b" * 40
    # GitHub serves the head commit's py/app.py only; the other files' fixes become diffs.
    bare_site.gh.contents.add_file("py/app.py", sample_file("py/app.py").encode(), ref=head)
    run = open_sample(bare_site, head).run()
    assert run.code == 0, run.stderr
    bodies = {(c["path"], c["line"]): c["body"] for c in posted(bare_site)}
    assert block(bodies[("py/app.py", 18)], "suggestion") == (["    return x is None"], "```")
    other = unescape_markdown(bodies[("py/config with spaces.py", 1)])
    assert block(other, "suggestion") is None
    assert (
        "a diff and not a suggestion: the file's text at the head commit is not available "
        "(the head commit has no such file)\n\n```diff\n"
        "# py/config with spaces.py: line 1, column 1 to line 2, column 1 is deleted\n```\n"
    ) in other
    assert "4 suggested changes, 7 diffs, 0 not shown" in run.summary
    fetched = bare_site.gh.requests_to(r"/contents/", "GET")
    assert len(fetched) == 5  # each file with a fix, once


def test_fixes_of_findings_listed_in_the_body_are_counted(sample: Any) -> None:
    run = sample.run(**{"max-inline-comments": "3"})
    assert run.code == 0, run.stderr
    bodies = [c["body"] for c in posted(sample)]
    assert len(bodies) == 3
    inline = [b for b in bodies if block(b, "suggestion") or block(b, "diff")]
    suggested = sum(1 for b in inline if block(b, "suggestion"))
    with_fixes = 11  # 5 ruff results with `fixes`, 6 Biome diagnostics with `suggestions`
    assert (
        f"Fixes from the tools on inline comments: {suggested} suggested change"
        f"{'s' * (suggested != 1)}, {len(inline) - suggested} diff"
    ) in run.summary
    assert (
        f"; {with_fixes - len(inline)} findings with a fix listed in the review body, where "
        "fixes are not shown"
    ) in run.summary


FORGED = (
    '<!-- riverbed:finding {"fp":"forged","rule":"R","severity":"info","path":"p","line":1} -->'
)


def _with_second_file(sample: Any, uri: str) -> str:
    """Run with E711's fix also editing the file `uri` names; E711's posted inline comment."""
    log = json.loads((sample.workspace / "ruff.sarif").read_text())
    result = next(r for r in log["runs"][0]["results"] if r["ruleId"] == "E711")
    change = json.loads(json.dumps(result["fixes"][0]["artifactChanges"][0]))
    change["artifactLocation"] = {"uri": uri}
    result["fixes"][0]["artifactChanges"].append(change)
    (sample.workspace / "ruff.sarif").write_text(json.dumps(log))
    run = sample.run()
    assert run.code == 0, run.stderr
    (body,) = [c["body"] for c in posted(sample) if c["path"] == "py/app.py" and c["line"] == 18]
    return body


@pytest.mark.parametrize("encode", [False, True], ids=["raw", "percent-encoded"])
def test_a_fix_naming_a_file_that_holds_a_forged_marker_plants_no_marker(
    sample: Any, encode: bool
) -> None:
    from urllib.parse import quote

    name = f"py/{FORGED}.py"
    body = _with_second_file(sample, quote(name) if encode else name)
    # The posted comment carries riverbed's one marker, for E711: the forged one is nowhere.
    (marker,) = parse_finding_markers(body)
    assert marker.rule_id == "E711" and "forged" not in body
    assert block(body, "diff") is None and block(body, "suggestion") is None
    assert (
        "**Fix not shown** (Replace with `cond is None`): a file it edits is named with "
        "riverbed's own hidden marker." in unescape_markdown(body)
    )
    # A second run sees E711 posted once (by riverbed's marker), and nothing forged as posted.
    again = sample.run()
    assert again.code == 0, again.stderr
    assert "forged" not in again.summary


def test_a_fix_naming_an_ordinary_second_file_is_still_a_diff(sample: Any) -> None:
    """The positive control: the same fix with a plain second file name is shown as a diff."""
    body = _with_second_file(sample, "py/other.py")
    (marker,) = parse_finding_markers(body)
    assert marker.rule_id == "E711"
    diff, _bar = block(body, "diff")
    assert "# py/other.py: line 18, column 12 to line 18, column 21 becomes:" in diff


def test_a_file_whose_shown_lines_hold_a_marker_gives_no_forged_marker(bare_site: Any) -> None:
    """The file's own text (the lines a suggestion or diff shows) can hold a marker too."""
    line = "    return x == None"
    site = open_sample(bare_site, replace=(line, f"{line}  # {FORGED}"))
    log = json.loads((site.workspace / "ruff.sarif").read_text())
    result = next(r for r in log["runs"][0]["results"] if r["ruleId"] == "E711")
    region = result["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"]
    region["endColumn"] = region["startColumn"] + 4  # `None` still, whatever follows it
    (site.workspace / "ruff.sarif").write_text(json.dumps(log))
    run = site.run()
    assert run.code == 0, run.stderr
    (body,) = [c["body"] for c in posted(site) if c["path"] == "py/app.py" and c["line"] == 18]
    (marker,) = parse_finding_markers(body)
    assert marker.rule_id == "E711" and "forged" not in body
    assert "the lines it shows hold riverbed's own hidden marker" in unescape_markdown(body)
