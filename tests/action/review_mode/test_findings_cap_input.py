"""The `max-findings-bytes` input: an oversized findings file fails the step with one error."""

from __future__ import annotations

from typing import Any


def test_a_findings_file_over_the_input_cap_fails_the_step(site: Any) -> None:
    site.write_findings([site.issue("E501", 2, "long line " + "x" * 200) for _ in range(20)])
    run = site.run(**{"max-findings-bytes": "2KiB"})
    assert run.code == 2, run.stdout + run.stderr
    assert "::error::" in run.stdout and "larger than the cap of 2,048 bytes" in run.stdout
    assert "Traceback" not in run.stdout + run.stderr
    assert run.outputs.get("posted") != "true"
    assert site.gh.reviews.get(7, []) == []


def test_a_bad_cap_is_a_clear_input_error(site: Any) -> None:
    site.write_findings([site.issue("E501", 2, "long line")])
    run = site.run(**{"max-findings-bytes": "big"})
    assert run.code == 2
    assert "input max-findings-bytes: 'big' is not a size in bytes" in run.stdout
