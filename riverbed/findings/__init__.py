"""Findings from linters and reviewers: one model, SARIF/River/rdjson readers, a SARIF writer."""

from __future__ import annotations

from riverbed.findings.files import read_findings, read_findings_file, write_json_file
from riverbed.findings.formats import FORMATS, detect_format, parse_findings
from riverbed.findings.interface import Finding, max_severity, severity_at_least
from riverbed.findings.writer import FINGERPRINT_KEY, to_sarif
from riverbed.index.model import SEVERITY_RANK

__all__ = [
    "FINGERPRINT_KEY",
    "FORMATS",
    "SEVERITY_RANK",
    "Finding",
    "detect_format",
    "max_severity",
    "parse_findings",
    "read_findings",
    "read_findings_file",
    "severity_at_least",
    "to_sarif",
    "write_json_file",
]
