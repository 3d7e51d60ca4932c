"""Review-path cases: apply_suppressions at scale, review memory, status, the persist action."""

from __future__ import annotations

import functools
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import riverbed
from benchmarks.cases import Row, _size
from benchmarks.generate import AREAS, RULES, WORDS, file_path
from benchmarks.timing import measure, measure_pair

NOW = datetime(2026, 11, 30, tzinfo=UTC)


def _findings(count: int, seed: int = 11) -> list[riverbed.Finding]:
    rng = random.Random(seed)
    findings = []
    for n in range(count):
        findings.append(
            riverbed.Finding(
                rule_id=rng.choice(RULES),
                file=file_path(rng),
                severity=rng.choice(("info", "minor", "minor", "major")),
                message=f"{rng.choice(WORDS)} {rng.choice(WORDS)} issue number {n}",
                line=rng.randrange(1, 400),
            )
        )
    return findings


def _suppressions(findings: list[riverbed.Finding], count: int, seed: int = 12) -> list[Any]:
    """Half by fingerprint (a quarter hitting real findings), half by rule + path glob."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for n in range(count):
        context: dict[str, Any] = {
            "active": True,
            "scope": "file",
            "feedbackType": rng.choice(("false_positive", "accepted_risk")),
        }
        if n % 2:
            hit = n % 4 == 1
            context["fingerprint"] = findings[n % len(findings)].fingerprint if hit else f"{n:016x}"
        else:
            context["match"] = {
                "ruleId": rng.choice(RULES),
                "paths": [f"src/{rng.choice(AREAS)}/{rng.choice(WORDS)}_*.py"],
            }
        out.append(
            {
                "id": f"suppression-{n:06d}",
                "type": "suppression",
                "content": "bench",
                "metadata": {"createdAt": "2026-01-01T00:00:00.000Z", "author": "bench"},
                "context": context,
            }
        )
    return out


def apply_at_scale(runs: int, size: int) -> Row:
    """apply_suppressions with `size` findings × `size` suppressions (fingerprints precomputed)."""
    findings = _findings(size)
    for finding in findings:
        _ = finding.fingerprint  # computed by the readers when findings are loaded
    suppressions = _suppressions(findings, size)
    counts: dict[str, int] = {}

    def ours() -> None:
        result = riverbed.apply_suppressions(findings, suppressions, now=NOW)
        counts["kept"], counts["suppressed"] = len(result.kept), len(result.suppressed)

    sample = measure(ours, runs=runs)
    per_finding = sample.median / size * 1e6
    return Row(
        f"apply_suppressions ({size:,} findings × {size:,} suppressions)",
        size,
        sample.median,
        "-",
        None,
        "≤ 50 ms",
        max_seconds=0.050,
        note=f"{per_finding:.1f} µs/finding; {counts['suppressed']} suppressed",
    )


def review_memory(path: Path, runs: int) -> Row:
    """load_memory + load_review_memory (one phase, 50 changed files) vs load_memory alone."""
    rng = random.Random(5)
    changed = [file_path(rng) for _ in range(50)]
    found: dict[str, int] = {}

    def load() -> Any:
        return riverbed.load_memory(path, on_warning=lambda _m: None)

    def ours() -> None:
        memory = riverbed.load_review_memory(
            load(), phase="midstream", changed_files=changed, now=NOW
        )
        found["entries"] = len(memory.entries)

    sample, floor = measure_pair(ours, load, runs=runs)
    return Row(
        "load_review_memory (midstream, 50 files)",
        _size(path),
        sample.median,
        "load_memory",
        floor.median,
        "≤ 1.2×",
        max_ratio=1.2,
        note=f"{found['entries']} entries apply",
    )


def status_view(path: Path, runs: int) -> Row:
    """`riverbed status` after the load (view, tensions, learning section, text) vs load_memory."""
    from riverbed.cli.commands.status import render_status
    from riverbed.memory.status import status_data

    index = riverbed.load_memory(path, on_warning=lambda _m: None)
    # What the CLI does once the index is loaded: the data (learning section included), then
    # the text (the JSON form costs the same few milliseconds).
    sample = measure(
        lambda: render_status(status_data(index, NOW, path=str(path))),
        runs=max(1, runs // 2),
        warmup=0,
    )
    floor = measure(lambda: riverbed.load_memory(path, on_warning=lambda _m: None), runs=runs)
    return Row(
        "status_data (orientation)",
        _size(path),
        sample.median,
        "load_memory",
        floor.median,
        "≤ 1 s",
        max_seconds=1.0,
    )


def persist_end_to_end(path: Path, work: Path, runs: int) -> list[Row]:
    """The action's persist mode as a process, restoring a trusted artifact of `path`."""
    import os
    import subprocess
    import sys

    from riverbed.testing.events import push_event, write_event
    from riverbed.testing.github.server import FakeGitHub

    root = Path(__file__).resolve().parents[1]
    data = path.read_bytes()
    box = work / "persist"
    box.mkdir(parents=True, exist_ok=True)
    with FakeGitHub(owner="octo", repo="bench", repository_id=4242) as fake:
        run_id = fake.add_run(event="push", head_repository_id=4242)
        fake.add_artifact(name="riverbed-memory", run_id=run_id, files={"index.json": data})
        event = write_event(
            push_event(owner="octo", repo="bench", repository_id=4242, api_url=fake.api_url),
            box / "event.json",
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith(("INPUT_", "GITHUB_"))}
        env.update(
            {
                "GITHUB_API_URL": fake.api_url,
                "GITHUB_REPOSITORY": "octo/bench",
                "GITHUB_EVENT_NAME": "push",
                "GITHUB_WORKFLOW_REF": "octo/bench/.github/workflows/riverbed.yml@refs/heads/main",
                "GITHUB_EVENT_PATH": str(event),
                "GITHUB_WORKSPACE": str(box / "workspace"),
                "RUNNER_TEMP": str(box / "runner-temp"),
                "GITHUB_OUTPUT": str(box / "output.txt"),
                "GITHUB_STEP_SUMMARY": str(box / "summary.md"),
                "INPUT_MODE": "persist",
                "INPUT_GITHUB_TOKEN": fake.token,
                "PYTHONPATH": os.pathsep.join([str(root), env.get("PYTHONPATH", "")]),
            }
        )
        (box / "workspace").mkdir(parents=True, exist_ok=True)

        def ours() -> None:
            for name in ("output.txt", "summary.md"):
                (box / name).write_text("")  # the runner creates both before a step
            done = subprocess.run(
                [sys.executable, str(root / "entrypoint.py")],
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            staged = box / "runner-temp" / "riverbed-artifact" / "index.json"
            if done.returncode != 0 or not staged.exists():
                raise RuntimeError(
                    f"persist run failed: {done.stdout[-2000:]}{done.stderr[-2000:]}"
                )

        sample = measure(ours, runs=runs)
    script = (
        "import json,sys; d=json.load(open(sys.argv[1])); "
        "json.dump(d, open(sys.argv[2], 'w'), indent=2, ensure_ascii=False)"
    )

    def floor() -> None:
        subprocess.run(
            [sys.executable, "-c", script, str(path), str(box / "floor.json")], check=True
        )

    floor_sample = measure(floor, runs=runs)
    return [
        Row(
            "action persist mode, end to end (process)",
            _size(path),
            sample.median,
            "python json load+dump process",
            floor_sample.median,
            "-",
            note="download, extract, validate, expire, re-list, stage",
        ),
    ]


def hostile_globs(runs: int) -> list[Row]:
    """Issue 14's backtracking globs on long paths an outsider can name (was 0.7 s and > 10 s)."""
    from riverbed.memory.globs import glob_match

    cases = [
        # Each path fails only at its end: a backtracking matcher tries every split first.
        ("**/*_*_*_*.py", "a" * 245 + "_b.py", "4 wildcards, 250-char path"),
        ("**/*_*_*_*_*_*_*.py", "x/" + "a" * 4000 + "_.py", "8 wildcards, 4,000-char path"),
    ]
    rows = []
    for pattern, path, label in cases:
        sample = measure(functools.partial(glob_match, pattern, path), runs=runs)
        rows.append(
            Row(
                f"glob_match {pattern} ({label})",
                len(path),
                sample.median,
                "-",
                None,
                "≤ 10 ms",
                max_seconds=0.010,
            )
        )
    return rows
