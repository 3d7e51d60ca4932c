"""What `--out` repairs so a log built from an off-spec input is valid SARIF 2.1.0 (pure).

The writer keeps a producer's locations, rules and driver as written, so a producer's
mistakes would reach the file a user uploads to code scanning, which refuses a log the
OASIS schema refuses. Each repair here drops or re-encodes one value the schema forbids,
never anything valid, and is counted by kind so the caller can say what it changed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from riverbed.findings.uris import has_scheme, is_uri_reference, to_uri_reference
from riverbed.index.paths import normalize_path

#: Integer properties with a lower bound in the schema, by name (the same bound wherever
#: the name appears). `id` is only a number in a location; elsewhere it is a string.
_MINIMUM: Final[Mapping[str, int]] = {
    "startLine": 1,
    "startColumn": 1,
    "endLine": 1,
    "endColumn": 1,
    "charOffset": -1,
    "byteOffset": -1,
    "charLength": 0,
    "byteLength": 0,
    "index": -1,
    "parentIndex": -1,
    "id": -1,
    "occurrenceCount": 1,
    "nestingLevel": 0,
    "executionOrder": -1,
}
#: Properties whose value must be an absolute URI (`format: uri`).
_ABSOLUTE_URIS: Final = frozenset({"helpUri", "downloadUri", "informationUri", "hostedViewerUri"})
#: Keys whose object value is a region (it needs startLine, charOffset or byteOffset).
_REGIONS: Final = frozenset({"region", "contextRegion"})
#: What a region must hold one of (§3.30.2).
_REGION_START: Final = ("startLine", "charOffset", "byteOffset")
#: Values SARIF does not constrain here (property bags, text) or that riverbed writes itself
#: (fingerprints, the result's message): not walked, which halves the walk of a large log.
_OPAQUE: Final = frozenset(
    {"properties", "text", "markdown", "snippet", "arguments", "message"}
    | {"partialFingerprints", "fingerprints", "ruleId", "level", "baselineState", "kind"}
)
_DROP: Final = object()


@dataclass(frozen=True)
class Repairs:
    """What was repaired, by kind: `helpUri not an absolute URI (dropped)` → count."""

    counts: Mapping[str, int]

    @property
    def total(self) -> int:
        """How many values were repaired."""
        return sum(self.counts.values())

    def text(self) -> str:
        """`2 × helpUri not an absolute URI (dropped), 1 × …` (kinds sorted by name)."""
        return ", ".join(f"{n} × {kind}" for kind, n in sorted(self.counts.items()))


def _is_count(value: Any, minimum: int) -> bool:
    return type(value) is int and value >= minimum


def _absolute_uri(value: Any) -> bool:
    return isinstance(value, str) and has_scheme(value) and is_uri_reference(value)


def _uri_reference(value: str) -> str:
    """A producer's artifact URI made an RFC 3986 reference (raw paths percent-encoded)."""
    return to_uri_reference(value if has_scheme(value) else normalize_path(value))


class _Repairer:
    """One walk over a log: copy-on-write, so an untouched object is returned as it was."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def value(self, value: Any, key: str | None) -> Any:
        if isinstance(value, dict):
            return self.mapping(value, key)
        if isinstance(value, list):
            return self.items(value, key)
        return value

    def items(self, values: list[Any], key: str | None) -> list[Any]:
        # `annotations` holds regions; everything else holds objects walked as they are.
        item_key = "region" if key == "annotations" else None
        out = [self.value(v, item_key) for v in values]
        kept = [v for v in out if v is not _DROP]
        if len(kept) == len(values) and all(a is b for a, b in zip(kept, values, strict=True)):
            return values
        return kept

    def mapping(self, obj: dict[str, Any], key: str | None) -> Any:
        out: dict[str, Any] = {}
        changed = False
        for name, child in obj.items():
            fixed = self.child(name, child)
            if fixed is _DROP:
                changed = True
                continue
            changed = changed or fixed is not child
            out[name] = fixed
        if key in _REGIONS and not any(name in out for name in _REGION_START):
            self.counts["region with no startLine, charOffset or byteOffset (dropped)"] += 1
            return _DROP
        return out if changed else obj

    def child(self, name: str, child: Any) -> Any:
        if name in _OPAQUE:
            return child
        if name in _REGIONS and not isinstance(child, dict):
            self.counts[f"{name} not an object (dropped)"] += 1
            return _DROP
        if name in _MINIMUM and type(child) in (int, float, bool):
            if _is_count(child, _MINIMUM[name]):
                return child
            what = "not an integer" if type(child) is not int else f"below {_MINIMUM[name]}"
            self.counts[f"{name} {what} (dropped)"] += 1
            return _DROP
        if name in _ABSOLUTE_URIS and not _absolute_uri(child):
            self.counts[f"{name} not an absolute URI (dropped)"] += 1
            return _DROP
        if name == "uri" and isinstance(child, str) and not is_uri_reference(child):
            self.counts["artifact uri not a URI reference (percent-encoded)"] += 1
            return _uri_reference(child)
        return self.value(child, name)


def repair_sarif(log: Mapping[str, Any]) -> tuple[dict[str, Any], Repairs]:
    """The log with every value SARIF 2.1.0 forbids dropped or re-encoded, and what changed.

    Nothing is mutated: repaired objects are copies, the rest is shared with `log`.
    """
    repairer = _Repairer()
    fixed = repairer.mapping(dict(log), None)
    return fixed, Repairs(dict(repairer.counts))


def repairs_warning(out: str, source: str, repairs: Repairs) -> str | None:
    """The one warning of an input whose off-spec values the output repaired, or None."""
    if not repairs.total:
        return None
    values = "value" if repairs.total == 1 else "values"
    return (
        f"{out}: repaired {repairs.total} {values} of {source} that SARIF 2.1.0 forbids, so "
        f"the log is valid (code scanning refuses an invalid one): {repairs.text()}"
    )
