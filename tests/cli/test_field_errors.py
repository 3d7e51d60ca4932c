"""Library errors name the field they are about; the CLI's one table turns it into its flag."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from riverbed import SuppressionSpec, create_suppression
from riverbed.cli.output import FIELD_FLAGS, error_text
from riverbed.errors import UsageError
from riverbed.memory.record_suppression import build_suppression_entry

NOW = datetime(2026, 3, 1, tzinfo=UTC)
FP = "0123456789abcdef"


def _error(spec: SuppressionSpec) -> UsageError:
    with pytest.raises(UsageError) as caught:
        build_suppression_entry(spec, now=NOW)
    return caught.value


def test_a_bad_choice_names_the_field_and_the_cli_names_the_flag() -> None:
    error = _error(SuppressionSpec(fingerprint=FP, reason="r", author="a", scope="repo"))
    assert error.field == "scope"
    assert str(error) == "scope 'repo' is not one of file, subsystem, global"
    assert error_text(error) == "--scope 'repo' is not one of file, subsystem, global"
    feedback = _error(SuppressionSpec(fingerprint=FP, reason="r", author="a", feedback_type="x"))
    assert feedback.field == "feedbackType" and str(feedback).startswith("feedbackType 'x'")
    assert error_text(feedback).startswith("--type 'x'")


def test_every_field_an_error_names_in_two_places_maps_each() -> None:
    error = _error(SuppressionSpec(fingerprint=FP, rule_id="E501", reason="r", author="a"))
    assert "ruleId 'E501'" in str(error) and "--" not in str(error)
    assert "give a fingerprint or --rule, not both" in error_text(error)
    assert "ruleId" not in error_text(error)


def test_an_error_without_a_field_is_shown_as_it_is() -> None:
    plain = UsageError("{scope} is kept as written")
    assert plain.field is None and error_text(plain) == "{scope} is kept as written"


def test_every_mapped_flag_is_a_flag() -> None:
    assert all(flag.startswith("--") for flag in FIELD_FLAGS.values())


def test_the_keyword_wrapper_and_the_spec_write_the_same_entry(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    entry = create_suppression(path, fingerprint=FP, reason="r", author="a", now=NOW)
    spec = SuppressionSpec(fingerprint=FP, reason="r", author="a")
    assert build_suppression_entry(spec, now=NOW) == entry


def test_braces_in_a_users_value_are_shown_as_given() -> None:
    # Only the known field names are placeholders: a rule id the user typed as `{x}` stays.
    error = _error(
        SuppressionSpec(fingerprint=FP, rule_id="{x}-{scope_of}", reason="r", author="a")
    )
    assert "'{x}-{scope_of}'" in str(error)
    assert "'{x}-{scope_of}'" in error_text(error)
    assert "--rule" in error_text(error)


def test_every_flag_the_cli_maps_is_a_field_the_library_knows() -> None:
    from riverbed.errors import FIELDS

    assert set(FIELD_FLAGS) <= FIELDS
