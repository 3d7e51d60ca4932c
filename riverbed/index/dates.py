"""The one definition of a valid date (`parse_expires_at`) and of an entry's effective expiry."""

from __future__ import annotations

import functools
import re
from datetime import UTC, datetime, timedelta, timezone

from riverbed.errors import InvalidExpiresAt
from riverbed.index.model import Entry

# ASCII digits only: `\d` would accept Arabic-Indic and other Unicode digits.
_FULL_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_DATE_TIME = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]"
    r"([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?"
    r"([Zz]|[+-][0-9]{2}:[0-9]{2})"
)
_MAX_LEN = 64


def _calendar_date(value: str, year: str, month: str, day: str) -> tuple[int, int, int]:
    y, m, d = int(year), int(month), int(day)
    if y == 0:
        raise InvalidExpiresAt(value, "year 0000 is out of range")
    if not 1 <= m <= 12:
        raise InvalidExpiresAt(value, f"month {month} does not exist")
    try:
        datetime(y, m, d)
    except ValueError:
        raise InvalidExpiresAt(value, f"day {year}-{month}-{day} does not exist") from None
    return y, m, d


def _offset(value: str, text: str) -> timezone:
    if text in ("Z", "z"):
        return UTC
    hours, minutes = int(text[1:3]), int(text[4:6])
    if hours > 23 or minutes > 59:
        raise InvalidExpiresAt(value, f"offset {text} is beyond ±23:59")
    delta = timedelta(hours=hours, minutes=minutes)
    return timezone(-delta if text[0] == "-" else delta)


def parse_expires_at(value: str) -> datetime:
    """Parse an RFC 3339 full-date or date-time into an aware UTC datetime, or raise."""
    if not isinstance(value, str):
        raise InvalidExpiresAt(value, "not a string")
    return _parse(value)


# Cached: an index repeats the same timestamps, and sorting or filtering parses them often.
@functools.lru_cache(maxsize=65536)
def _parse(value: str) -> datetime:
    if len(value) > _MAX_LEN:
        raise InvalidExpiresAt(value[:_MAX_LEN] + "…", "too long")
    match = _FULL_DATE.fullmatch(value)
    if match:
        y, m, d = _calendar_date(value, *match.groups())
        return datetime(y, m, d, tzinfo=UTC)
    match = _DATE_TIME.fullmatch(value)
    if not match:
        raise InvalidExpiresAt(value, "expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)")
    year, month, day, hh, mm, ss, frac, off = match.groups()
    y, m, d = _calendar_date(value, year, month, day)
    hour, minute, second = int(hh), int(mm), int(ss)
    if hour > 23:
        raise InvalidExpiresAt(value, f"hour {hh} is out of range")
    if minute > 59:
        raise InvalidExpiresAt(value, f"minute {mm} is out of range")
    if second > 59:
        raise InvalidExpiresAt(value, f"second {ss} is out of range (leap seconds are refused)")
    micro = int((frac[1:] + "000000")[:6]) if frac else 0
    local = datetime(y, m, d, hour, minute, second, micro, tzinfo=_offset(value, off))
    try:
        return local.astimezone(UTC)
    except OverflowError:
        raise InvalidExpiresAt(value, "instant is out of range") from None


@functools.lru_cache(maxsize=8192)
def _valid_date_string(value: str) -> bool:
    try:
        parse_expires_at(value)
    except InvalidExpiresAt:
        return False
    return True


def instant_or_none(value: object) -> datetime | None:
    """A date or date-time string as aware UTC; None when absent, not a string or unparseable."""
    if not isinstance(value, str):
        return None
    try:
        return parse_expires_at(value)
    except InvalidExpiresAt:
        return None


def is_valid_date(value: object) -> bool:
    """True when `value` is a string `parse_expires_at` accepts."""
    # Cached because an index repeats the same dates many times (full-dates above all).
    return isinstance(value, str) and _valid_date_string(value)


def is_valid_date_time(value: object) -> bool:
    """True for an RFC 3339 date-time (not a bare full-date): the schema's `date-time` format."""
    return isinstance(value, str) and "T" in value.upper() and is_valid_date(value)


def is_valid_full_date(value: object) -> bool:
    """True for an RFC 3339 full-date: the schema's `date` format."""
    return isinstance(value, str) and len(value) == 10 and is_valid_date(value)


def effective_expiry(entry: Entry) -> str | None:
    """The entry's `expiresAt`, else the `context.expiresAt` older suppressions carry."""
    value = entry.get("expiresAt")
    if value is None:
        context = entry.get("context")
        if isinstance(context, dict):
            value = context.get("expiresAt")
    return value if isinstance(value, str) else None


def expiry_status(entry: Entry, now: datetime) -> tuple[bool, str | None]:
    """(expired?, warning): an unparseable expiry counts as not expired and yields a warning."""
    value = effective_expiry(entry)
    if value is None:
        return False, None
    try:
        deadline = parse_expires_at(value)
    except InvalidExpiresAt:
        return False, unparseable_expiry_warning(entry, value)
    return deadline <= now, None


def unparseable_expiry_warning(entry: Entry, value: str) -> str:
    """The one wording of the warning for an expiry that is not a date (every reader uses it)."""
    return (
        f"entry {entry.get('id')!r}: unparseable expiry {value!r} "
        "(treated as not expired, entry kept active; fix it with an RFC 3339 date)"
    )


def is_expired(entry: Entry, now: datetime) -> bool:
    """True when the entry's effective expiry is parseable and at or before `now`."""
    return expiry_status(entry, now)[0]


def utc_now() -> datetime:
    """The current instant, aware UTC (the edges call this; the core takes `now`)."""
    return datetime.now(UTC)


def format_timestamp(moment: datetime) -> str:
    """An instant as JavaScript's `toISOString()` writes it (millisecond precision, `Z`)."""
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
