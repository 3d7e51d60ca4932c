"""An oversized findings file is refused with one clear line, counted while reading.

A FIFO has no size to stat and a file can grow after a stat: the cap must hold for both.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import reliability_support as support

from riverbed import read_findings
from riverbed.errors import InputFormatError


def _river(count: int) -> bytes:
    issues = [
        {"ruleId": "E501", "file": "src/a.py", "line": n + 1, "message": "x" * 80}
        for n in range(count)
    ]
    return json.dumps({"issues": issues}).encode()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "riverbed", *args]
    return subprocess.run(argv, capture_output=True, text=True, check=False)


def test_cli_refuses_a_findings_file_over_the_cap(tmp_path: Path) -> None:
    findings = tmp_path / "findings.json"
    findings.write_bytes(_river(200))
    index = tmp_path / "index.json"
    review = ["--index", str(index), "review", "--findings", str(findings)]
    review += ["--changed-files", "src/a.py"]
    result = _cli(*review)
    assert result.returncode == 0, result.stderr  # well under the 256 MiB default
    result = _cli(*review, "--max-findings-bytes", "4KiB")
    assert result.returncode == 2
    assert "larger than the cap of 4,096 bytes" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    bad = _cli(*review, "--max-findings-bytes", "lots")
    assert bad.returncode == 2 and "--max-findings-bytes: 'lots' is not a size" in bad.stderr
    support.count("findings files refused over the cap")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need POSIX")
@pytest.mark.timeout(60)
def test_an_endless_pipe_is_cut_at_the_cap(tmp_path: Path) -> None:
    pipe = tmp_path / "findings.json"
    os.mkfifo(pipe)
    written = []

    def feed() -> None:
        try:
            with pipe.open("wb") as handle:
                handle.write(b'{"issues": [')
                while sum(written) < 64 * 1024 * 1024:  # far beyond the cap, not endless
                    handle.write(b" " * 65536)
                    written.append(65536)
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    with pytest.raises(InputFormatError, match="larger than the cap of 1,048,576 bytes"):
        read_findings(pipe, max_bytes=1024 * 1024)
    writer.join(timeout=30)
    assert sum(written) < 8 * 1024 * 1024, "reading stopped near the cap"
    support.count("findings files refused over the cap")
