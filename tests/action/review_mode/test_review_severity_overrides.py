"""Severity overrides in review mode: the input and .river/config.toml, before the guard."""

from __future__ import annotations

import json
from typing import Any


def _setup(site: Any) -> None:
    guarded = site.issue("R-major", 32, "major finding stays", severity="major")
    site.write_findings([guarded])
    site.write_memory([site.suppression("supp-fp", fp=site.fingerprint(guarded), phase=None)])


def _bodies(site: Any) -> list[str]:
    return [
        json.loads(r.body)["body"]
        for r in site.gh.requests
        if r.method == "POST" and r.path.endswith("/pulls/7/reviews")
    ]


def test_without_override_the_guard_keeps_the_finding(site: Any) -> None:
    _setup(site)
    run = site.run(fail_on="major")
    assert run.code == 1
    assert run.outputs["findings-kept"] == "1"


def test_the_input_regrades_before_the_guard_and_is_reported(site: Any) -> None:
    _setup(site)
    run = site.run(fail_on="major", severity_overrides="river-reviewer:R-*=minor, ruff:E*=info")
    assert run.code == 0, run.stdout + run.stderr
    assert (run.outputs["findings-kept"], run.outputs["findings-suppressed"]) == ("0", "1")
    (body,) = _bodies(site)
    assert (
        "severity override river\\-reviewer\\:R\\-\\*\\=minor \\(from input "
        "severity\\-overrides\\)\\: 1 finding set to minor \\(were 1 major\\)" in body
    )


def test_the_config_file_in_the_workspace_is_read_too(site: Any) -> None:
    _setup(site)
    config = site.workspace / ".river" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[severity-overrides]\n"river-reviewer:R-major" = "minor"\n')
    run = site.run(fail_on="major")
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["findings-suppressed"] == "1"
    assert "\\(from \\.river/config\\.toml\\)" in _bodies(site)[0]


def test_a_bad_override_fails_the_step_naming_the_input(site: Any) -> None:
    _setup(site)
    run = site.run(severity_overrides="ruff:E*=loud")
    assert run.code == 2
    assert (
        "::error::input severity-overrides: severity 'loud' in 'ruff:E*=loud' is not one of "
        "info, minor, major, critical" in run.stdout
    )
