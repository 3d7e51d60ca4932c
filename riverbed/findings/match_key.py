"""The baseline match key: what makes two findings "the same" between a base and a head (pure).

Fingerprint v1 (rule + file + the first 60 characters of the message) is kept for
suppressions and River Reviewer; it cannot count copies and it merges messages that differ
only after character 60. A baseline matches on this key instead, as a multiset: rule +
path + the tool's own `partialFingerprints` when the SARIF result carries them (the way
GitHub code scanning matches alerts), else the whole message, lower-cased with whitespace
collapsed. No line number: a finding that only moved is the same finding.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping

from riverbed.findings.interface import Finding

#: The name stored beside keys kept in memory (a new algorithm gets a new name).
MATCH_KEY_ALGO = "rule-path-message-v1"


def _partial(finding: Finding) -> str | None:
    """The tool's stable fingerprint of the result, if its SARIF carries one."""
    prints = finding.original.get("partialFingerprints") if finding.original else None
    if not isinstance(prints, Mapping) or not prints:
        return None
    items = sorted((str(k), str(v)) for k, v in prints.items() if isinstance(v, str))
    return "|".join(f"{k}={v}" for k, v in items) or None


def has_partial_fingerprints(finding: Finding) -> bool:
    """True when the finding's SARIF carries the tool's own stable fingerprint."""
    return _partial(finding) is not None


def match_key(finding: Finding, path: str | None = None) -> str:
    """The finding's match key (`path` stands in for its file: a renamed file's old path)."""
    where = finding.file if path is None else path
    partial = _partial(finding)
    detail = f"pf:{partial}" if partial else "msg:" + " ".join(finding.text.lower().split())
    raw = f"{finding.rule_id or 'unknown'}\0{where or ''}\0{detail}"
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def key_counts(findings: Iterable[Finding]) -> Counter[str]:
    """How many findings share each match key (the base's multiset)."""
    return Counter(match_key(f) for f in findings)
