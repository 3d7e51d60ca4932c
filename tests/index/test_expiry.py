"""parse_expires_at: the acceptance table and properties of the one date rule."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from riverbed import InvalidExpiresAt, RiverbedError, parse_expires_at
from riverbed.index.dates import effective_expiry, expiry_status

ACCEPTED = [
    ("2027-01-01", datetime(2027, 1, 1, tzinfo=UTC)),
    ("2028-02-29", datetime(2028, 2, 29, tzinfo=UTC)),
    ("2026-08-04T10:00:00Z", datetime(2026, 8, 4, 10, tzinfo=UTC)),
    ("2026-08-04t10:00:00z", datetime(2026, 8, 4, 10, tzinfo=UTC)),
    ("2026-08-04T10:00:00.5Z", datetime(2026, 8, 4, 10, 0, 0, 500000, tzinfo=UTC)),
    ("2026-08-04T10:00:00.123456789Z", datetime(2026, 8, 4, 10, 0, 0, 123456, tzinfo=UTC)),
    ("2026-08-04T10:00:00+02:00", datetime(2026, 8, 4, 8, tzinfo=UTC)),
    ("2026-08-04T10:00:00-23:59", datetime(2026, 8, 5, 9, 59, tzinfo=UTC)),
    ("2026-12-31T23:59:59+00:00", datetime(2026, 12, 31, 23, 59, 59, tzinfo=UTC)),
    ("2026-01-01T00:30:00+01:00", datetime(2025, 12, 31, 23, 30, tzinfo=UTC)),
]

REJECTED = [
    ("2027-02-30", "impossible day"),
    ("2026-02-29", "not a leap year"),
    ("2027-13-01", "month 13"),
    ("2027-00-10", "month 0"),
    ("2027-01-00", "day 0"),
    ("0000-01-01", "year 0"),
    ("2026-08-04T24:00:00Z", "hour 24"),
    ("2026-08-04T10:60:00Z", "minute 60"),
    ("2026-08-04T23:59:60Z", "leap second"),
    ("2026-08-04T10:00:00+24:00", "offset hour beyond 23"),
    ("2026-08-04T10:00:00+05:60", "offset minute beyond 59"),
    ("2026-08-04T10:00:00", "missing offset"),
    ("2026-08-04 10:00:00Z", "space instead of T"),
    ("2026-08-04T10:00Z", "missing seconds"),
    (" 2026-08-04", "leading whitespace"),
    ("2026-08-04\n", "trailing newline"),
    ("2026", "year only"),
    ("2026-08", "year and month"),
    ("2026-08-04 10:00", "what Date would guess at"),
    ("Aug 4 2026", "prose date"),
    ("2026-8-4", "unpadded"),
    ("2026-08-04T10:00:00.Z", "empty fraction"),
    ("2026-08-04T10:00:00+0200", "offset without colon"),
    ("20260804", "basic format"),
    ("２０２６-08-04", "full-width digits"),
    ("", "empty"),
    ("2026-08-04T10:00:00Z" + "0" * 100, "overlong"),
]


@pytest.mark.parametrize(("value", "expected"), ACCEPTED)
def test_accepted(value: str, expected: datetime) -> None:
    parsed = parse_expires_at(value)
    assert parsed == expected
    assert parsed.tzinfo is UTC


@pytest.mark.parametrize(("value", "why"), REJECTED)
def test_rejected(value: str, why: str) -> None:
    with pytest.raises(InvalidExpiresAt) as info:
        parse_expires_at(value)
    assert isinstance(info.value, RiverbedError)
    assert isinstance(info.value, ValueError)
    assert repr(value[:20])[1:-1][:10] in str(info.value), why


def test_non_string_is_rejected() -> None:
    with pytest.raises(InvalidExpiresAt):
        parse_expires_at(20270101)  # type: ignore[arg-type]


moments = st.datetimes(
    min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.just(UTC)
)
offsets = st.integers(min_value=-(23 * 60 + 59), max_value=23 * 60 + 59)


def _render(moment: datetime, offset_minutes: int, fraction: bool) -> str:
    local = moment + timedelta(minutes=offset_minutes)
    sign = "+" if offset_minutes >= 0 else "-"
    hours, minutes = divmod(abs(offset_minutes), 60)
    frac = f".{local.microsecond:06d}" if fraction else ""
    day = f"{local.year:04d}-{local.month:02d}-{local.day:02d}"
    stamp = f"{day}T{local.hour:02d}:{local.minute:02d}:{local.second:02d}"
    return stamp + frac + f"{sign}{hours:02d}:{minutes:02d}"


@given(moments, offsets, st.booleans())
def test_accepted_strings_round_trip_through_fromisoformat(
    moment: datetime, offset: int, fraction: bool
) -> None:
    local = moment + timedelta(minutes=offset)
    if not datetime(1, 1, 1) < local.replace(tzinfo=None) < datetime(9999, 12, 31):
        return
    text = _render(moment, offset, fraction)
    parsed = parse_expires_at(text)
    assert parsed == datetime.fromisoformat(text.upper())
    if not fraction:
        assert parsed == moment.replace(microsecond=0)


@given(st.integers(1, 9999), st.integers(1, 12), st.integers(29, 40))
def test_impossible_days_are_rejected(year: int, month: int, day: int) -> None:
    try:
        datetime(year, month, day)
    except ValueError:
        with pytest.raises(InvalidExpiresAt):
            parse_expires_at(f"{year:04d}-{month:02d}-{day:02d}")
        with pytest.raises(InvalidExpiresAt):
            parse_expires_at(f"{year:04d}-{month:02d}-{day:02d}T00:00:00Z")
    else:
        assert parse_expires_at(f"{year:04d}-{month:02d}-{day:02d}").day == day


@given(st.text(max_size=40))
def test_anything_else_raises_only_invalid_expires_at(text: str) -> None:
    try:
        result = parse_expires_at(text)
    except InvalidExpiresAt:
        return
    assert result.tzinfo is UTC


def test_effective_expiry_prefers_entry_then_context() -> None:
    assert effective_expiry({"expiresAt": "2027-01-01", "context": {"expiresAt": "x"}}) == (
        "2027-01-01"
    )
    assert effective_expiry({"context": {"expiresAt": "2025-01-01T00:00:00Z"}}) == (
        "2025-01-01T00:00:00Z"
    )
    assert effective_expiry({"context": "not an object"}) is None


def test_unparseable_expiry_is_not_expired_and_warns() -> None:
    now = datetime(2030, 1, 1, tzinfo=UTC)
    expired, warning = expiry_status({"id": "w1", "expiresAt": "next week"}, now)
    assert not expired
    assert warning is not None
    assert "w1" in warning
    assert "next week" in warning
    assert expiry_status({"id": "d", "expiresAt": "2029-12-31"}, now) == (True, None)
    assert expiry_status({"id": "e", "expiresAt": "2030-01-01"}, now) == (True, None)
    assert expiry_status({"id": "f", "expiresAt": "2030-01-02"}, now) == (False, None)
