"""`suppress --findings`: refuse what the guard would skip, count what it matches; overrides."""

from __future__ import annotations

import json
from pathlib import Path

from review_helpers import riverbed, run_ruff_sarif

LONG = "x = '" + "a" * 100 + "'\n"  # the same E501 message on every such line
SOURCE = "import os\n" + LONG + LONG + LONG


def ruff_sarif(directory: Path) -> Path:
    return run_ruff_sarif(directory, SOURCE, "long.py")


def fingerprints(cwd: Path, sarif: Path) -> dict[str, str]:
    done = riverbed(
        "--json", "review", "--findings", "ruff.sarif", "--changed-files", "long.py", cwd=cwd
    )
    assert done.returncode == 0, done.stderr
    return {f["ruleId"]: f["fingerprint"] for f in json.loads(done.stdout)["kept"]}


def test_suppress_refuses_what_the_guard_would_skip(tmp_path: Path) -> None:
    assert riverbed("init", cwd=tmp_path).returncode == 0
    sarif = ruff_sarif(tmp_path)
    fp = fingerprints(tmp_path, sarif)["E501"]
    done = riverbed(
        "suppress", fp, "--reason", "generated", "--findings", "ruff.sarif", cwd=tmp_path
    )
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert "refused: the severity guard never lets a false_positive suppression hide" in line
    assert "this major finding" in line
    assert f"run `riverbed suppress {fp} --reason generated --type accepted_risk`" in line
    assert "re-grade the rule with --severity-override 'ruff:E501=minor'" in line
    index = json.loads((tmp_path / ".river" / "memory" / "index.json").read_text())
    assert index["entries"] == []  # nothing written


def test_suppress_counts_matches_and_overrides_make_it_work(tmp_path: Path) -> None:
    assert riverbed("init", cwd=tmp_path).returncode == 0
    sarif = ruff_sarif(tmp_path)
    fp = fingerprints(tmp_path, sarif)["E501"]
    done = riverbed(
        "suppress",
        fp,
        "--reason",
        "generated",
        "--findings",
        "ruff.sarif",
        "--severity-override",
        "ruff:E*=minor",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert (
        "severity override ruff:E*=minor (from --severity-override): 3 findings set to minor "
        "(were 3 major)" in done.stdout
    )
    assert (
        "it matches 3 of the 4 current findings in ruff.sarif at long.py:2, long.py:3, long.py:4 "
        "(fingerprints ignore line numbers)" in done.stdout
    )
    # The same override from the config file the CLI and the action both read.
    config = tmp_path / ".river" / "config.toml"
    config.write_text('[severity-overrides]\n"ruff:E5*" = "minor"\n')
    other = riverbed(
        "--json", "suppress", fp, "--reason", "again", "--findings", "ruff.sarif", cwd=tmp_path
    )
    assert other.returncode == 0, other.stderr
    matches = json.loads(other.stdout)["matches"]
    assert (matches["matched"], matches["hidden"], matches["lines"]) == (3, 3, [2, 3, 4])
    assert matches["severityOverrides"][0]["source"] == str(Path(".river") / "config.toml")
    # `review` applies the same overrides before the guard: the suppression now hides them.
    review = riverbed(
        "--json", "review", "--findings", "ruff.sarif", "--changed-files", "long.py", cwd=tmp_path
    )
    data = json.loads(review.stdout)
    assert (data["summary"]["kept"], data["summary"]["suppressed"]) == (1, 3)
    (used,) = data["summary"]["severityOverrides"]
    assert (used["pattern"], used["findings"], used["was"]) == ("ruff:E5*", 3, {"major": 3})
    text = riverbed(
        "review",
        "--findings",
        "ruff.sarif",
        "--changed-files",
        "long.py",
        "--severity-override",
        "ruff:F401=info",
        cwd=tmp_path,
    ).stdout
    assert (
        "severity override ruff:F401=info (from --severity-override): 1 finding set to info" in text
    )
    assert "severity override ruff:E5*=minor (from .river/config.toml): 3 findings" in text


def test_suppress_without_findings_says_how_to_check(tmp_path: Path) -> None:
    assert riverbed("init", cwd=tmp_path).returncode == 0
    done = riverbed("suppress", "0123456789abcdef", "--reason", "r", cwd=tmp_path)
    assert done.returncode == 0
    assert "fingerprints ignore line numbers" in done.stdout
    assert "give --findings FILE to see how many current findings it matches" in done.stdout
    assert "Linters such as ruff report every rule as error (major)" in done.stderr
    assert "--type accepted_risk" in done.stderr
