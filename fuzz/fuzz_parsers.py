"""Coverage-guided fuzzing of riverbed's parsers with atheris (optional; CI does not run it).

    python fuzz/fuzz_parsers.py seed                      # write seed corpora from tests/fixtures
    python fuzz/fuzz_parsers.py TARGET fuzz/corpus/TARGET -max_total_time=300

TARGET is one of: index, expires, findings, evals, comments, zip. The rule is the same as in
tests/reliability: a RiverbedError is a fine answer to garbage; any other exception is a bug
(libFuzzer stops and writes the input as crash-<sha1>). Needs `pip install atheris` (Linux).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _targets() -> dict[str, Callable[[bytes], object]]:
    from riverbed.comments.parser import parse_comment
    from riverbed.evals.formats import parse_eval_bytes
    from riverbed.findings.formats import parse_findings
    from riverbed.github.artifact_zip import ZipLimits, extract_index
    from riverbed.index.dates import parse_expires_at
    from riverbed.index.storage import parse_index_bytes

    def text(data: bytes) -> str:
        return data.decode("utf-8", errors="replace") if data else ""

    return {
        "index": lambda data: parse_index_bytes(data, "fuzz.json"),
        "expires": lambda data: parse_expires_at(text(data)[:80]),
        "findings": lambda data: parse_findings(data, source="fuzz", on_warning=lambda _m: None),
        "evals": lambda data: parse_eval_bytes(data, "fuzz"),
        "comments": lambda data: parse_comment(text(data)),
        "zip": lambda data: extract_index(data, limits=ZipLimits(max_uncompressed_bytes=1 << 20)),
    }


def _seeds() -> dict[str, list[bytes]]:
    fixtures = ROOT / "tests" / "fixtures"
    rr = fixtures / "river-reviewer-v1"
    evals = fixtures / "evals"
    return {
        "index": [
            b'{"version": "1", "entries": [' + (rr / "adr-example.json").read_bytes() + b"]}"
        ],
        "expires": [b"2027-01-31", b"2027-01-31T12:00:00.5+05:30", b"2026-02-29"],
        "findings": [
            b'{"issues": [{"ruleId": "r", "message": "m", "file": "a.py", "line": 1}]}',
            b'{"diagnostics": [{"message": "m", "location": {"path": "a"}}]}',
        ],
        "evals": [p.read_bytes() for p in sorted(evals.glob("*.json"))]
        + [p.read_bytes() for p in sorted(evals.glob("*.xml"))],
        "comments": [
            b'/riverbed suppress 0123456789abcdef --reason "x" --expires 2027-01-01',
            b"> quoted\n/riverbed archive p1 --reason r\n```\n/riverbed show\n```",
        ],
        "zip": [],
    }


def main() -> None:
    """`seed`, or run one target under atheris with the remaining libFuzzer arguments."""
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    target = sys.argv[1]
    if target == "seed":
        for name, seeds in _seeds().items():
            folder = ROOT / "fuzz" / "corpus" / name
            folder.mkdir(parents=True, exist_ok=True)
            for number, data in enumerate(seeds):
                (folder / f"seed-{number}").write_bytes(data)
        return
    import atheris

    with atheris.instrument_imports(include=["riverbed"]):
        targets = _targets()
    from riverbed.errors import RiverbedError

    if target not in targets:
        raise SystemExit(f"unknown target {target!r}; use one of {', '.join(targets)}")
    call = targets[target]

    def one_input(data: bytes) -> None:
        with contextlib.suppress(RiverbedError):
            call(data)

    atheris.Setup([sys.argv[0], *sys.argv[2:]], one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
