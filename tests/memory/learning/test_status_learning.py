"""The learning section of `riverbed status` and of the MCP `status` tool."""

from __future__ import annotations

import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
import pytest
from histories import days_before, index_of, reference_suppression

from riverbed.memory.learning.analysis import cluster_id
from riverbed.memory.learning.candidate_store import decline_candidate, write_candidates
from riverbed.testing.cli_run import run_riverbed

NOW = datetime(2026, 12, 1, tzinfo=UTC)
CLUSTER = cluster_id("rule", "S101")


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    entries = [
        reference_suppression(f"s{pr}", rule="S101", paths=(f"tests/t{pr}.py",), pr=pr)
        for pr in (1, 2, 3)
    ]
    entries.append(
        reference_suppression(
            "risk",
            fingerprint="00000000000000aa",
            severity="major",
            feedback_type="accepted_risk",
            created=days_before(NOW, 30),
        )
    )
    path = tmp_path / "index.json"
    path.write_text(json.dumps(index_of(*entries)), encoding="utf-8")
    write_candidates(path, now=NOW)
    decline_candidate(path, CLUSTER, reason="tests assert", author="maria", now=NOW)
    return path


def test_status_text_has_the_learning_section(memory: Path) -> None:
    done = run_riverbed("--index", memory, "status", "--now", "2026-12-02T00:00:00Z")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Learning (min-prs 3 · stale-days 14 · drift-runs 5 · tolerance 0.01):" in out
    assert "repeated suppressions: 1 cluster(s) (1 declined); 1 below min-prs" in out
    assert f"rule S101: weight 3, 1 author(s) — {CLUSTER}: declined: tests assert" in out
    assert "stale accepted risks: 1 (0 younger, 0 undated)" in out
    assert "risk: major, 31 days" in out


def test_status_json_and_the_mcp_tool_carry_the_same_section(memory: Path) -> None:
    pytest.importorskip("mcp")
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    cli = run_riverbed("--index", memory, "status", "--json")
    section = json.loads(cli.stdout)["learning"]
    assert section["repeated"]["candidates"]["declined"] == 1
    assert section["stale"]["count"] == 1

    async def main() -> Any:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "riverbed", "mcp", "--index", str(memory)],
            env={
                "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
            },
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            return await client.call_tool("status", {})

    result = anyio.run(main)
    assert not result.is_error
    text = "".join(b.text for b in result.content if getattr(b, "type", "") == "text")
    assert json.loads(text)["learning"] == section
