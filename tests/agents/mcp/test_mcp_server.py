"""The real `riverbed mcp` process, driven over stdio by the `mcp` SDK's own client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from riverbed.index.jsonbytes import dumps_js
from riverbed.index.store import load_memory

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


@asynccontextmanager
async def session(
    index: Path | None,
    *args: str,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> AsyncIterator[ClientSession]:
    """An initialized client session against a freshly started `riverbed mcp --index INDEX`.

    With `index` None the server gets no `--index` and finds the index itself from `cwd`.
    """
    # The SDK hands the server only a safe subset of the environment; PYTHONPATH must travel,
    # and the test's state directory (so the server's note key is not in the real home).
    server_env = {
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
        **(env or {}),
    }
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "riverbed", "mcp", *(["--index", str(index)] if index else []), *args],
        env=server_env,
        cwd=cwd,
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        yield client


def run(
    index: Path | None, body: Callable[[ClientSession], Awaitable[Any]], *args: str, **kw: Any
) -> Any:
    """Start a server, run `body` against it, stop it; returns what `body` returned."""

    async def main() -> Any:
        async with session(index, *args, **kw) as client:
            return await body(client)

    return anyio.run(main)


def text_of(result: Any) -> str:
    return "".join(block.text for block in result.content if getattr(block, "type", "") == "text")


def data_of(result: Any) -> Any:
    assert not result.is_error, text_of(result)
    return json.loads(text_of(result))


def seed(index: Path, *entries: dict[str, Any]) -> None:
    """Write an index as another tool might have (bad dates included), bypassing validation."""
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_bytes(dumps_js({"version": "1", "entries": list(entries)}))


def entry(entry_id: str, type_: str = "decision", **extra: Any) -> dict[str, Any]:
    meta = {"createdAt": "2026-01-01T00:00:00.000Z", "author": "test", **extra.pop("meta", {})}
    return {
        "id": entry_id,
        "type": type_,
        "title": entry_id,
        "content": f"body of {entry_id}",
        "metadata": meta,
        **extra,
    }


@pytest.fixture
def index_path(index_path: Path) -> Path:
    """The test's index, created empty: a server refuses to serve or deposit without one."""
    seed(index_path)
    return index_path


def test_lists_four_tools_with_schemas_and_one_line_descriptions(index_path: Path) -> None:
    tools = run(index_path, lambda c: c.list_tools()).tools
    by_name = {t.name: t for t in tools}
    assert set(by_name) == {"context", "query", "deposit", "status"}
    for tool in tools:
        assert tool.description and "\n" not in tool.description
        assert tool.input_schema["type"] == "object"
    deposit = by_name["deposit"].input_schema
    assert deposit["required"] == ["type", "title", "content"]
    assert set(deposit["properties"]) == {
        "type",
        "title",
        "content",
        "phase",
        "tags",
        "files",
        "expires",
        "links",
    }
    assert "suppression" not in deposit["properties"]["type"]["enum"]
    query = by_name["query"].input_schema["properties"]
    assert set(query) == {"type", "tags", "phase", "text", "include_inactive", "limit"}
    assert query["limit"]["maximum"] == 100
    assert set(by_name["context"].input_schema["properties"]) == {"phase", "files", "max_chars"}


def test_deposit_then_query_round_trip(index_path: Path) -> None:
    async def body(client: ClientSession) -> tuple[Any, Any]:
        added = data_of(
            await client.call_tool(
                "deposit",
                {
                    "type": "pattern",
                    "title": "Wrap fetches in useQuery",
                    "content": "Components never call fetch directly; see ADR-7.",
                    "phase": "midstream",
                    "tags": ["react", "data"],
                    "files": ["src/**/*.tsx"],
                    "expires": "2099-01-01",
                    "links": ["https://example.test/pr/7"],
                },
            )
        )
        found = data_of(await client.call_tool("query", {"tags": ["react"], "phase": "midstream"}))
        return added, found

    added, found = run(index_path, body)
    assert added["appended"] is True
    assert found["count"] == 1 and found["leftOut"] == 0
    assert found["entries"][0]["id"] == added["id"]
    stored = load_memory(index_path)["entries"]
    assert [e["id"] for e in stored] == [added["id"]]
    meta = stored[0]["metadata"]
    assert meta["author"] == "mcp"
    assert meta["relatedFiles"] == ["src/**/*.tsx"] and meta["tags"] == ["react", "data"]
    assert stored[0]["expiresAt"] == "2099-01-01"


@pytest.mark.parametrize(
    ("args", "env", "author"),
    [((), {"RIVERBED_AUTHOR": "claude"}, "claude"), (("--author", "codex"), {}, "codex")],
)
def test_deposit_author(
    index_path: Path, args: tuple[str, ...], env: dict[str, str], author: str
) -> None:
    async def body(client: ClientSession) -> Any:
        return data_of(
            await client.call_tool("deposit", {"type": "decision", "title": "t", "content": "c"})
        )

    run(index_path, body, *args, env=env)
    assert load_memory(index_path)["entries"][0]["metadata"]["author"] == author


REFUSALS: list[tuple[dict[str, Any], str]] = [
    ({"type": "decision", "title": "t", "content": f"token {TOKEN}"}, "looks like a GitHub"),
    ({"type": "decision", "title": "t", "content": "c", "expires": "2026-02-29"}, "2026-02-29"),
    ({"type": "decision", "title": "t", "content": "c", "expires": "next week"}, "RFC 3339"),
    ({"type": "suppression", "title": "t", "content": "c"}, "type"),
    ({"type": "decision", "title": " ", "content": "c"}, "title"),
    ({"type": "decision", "content": "c"}, "title"),
    ({"type": "decision", "title": "t", "content": "c", "phase": "sideways"}, "phase"),
]


def test_deposit_refusals_are_readable_tool_errors(index_path: Path) -> None:
    async def body(client: ClientSession) -> list[Any]:
        return [await client.call_tool("deposit", arguments) for arguments, _ in REFUSALS]

    before = index_path.read_bytes()
    results = run(index_path, body)
    for (arguments, expected), result in zip(REFUSALS, results, strict=True):
        message = text_of(result)
        assert result.is_error, arguments
        assert expected in message, (arguments, message)
        assert "Traceback" not in message and 'File "' not in message
    assert index_path.read_bytes() == before  # nothing written


def test_deposit_errors_name_fields_not_cli_flags(index_path: Path) -> None:
    async def body(client: ClientSession) -> Any:
        return await client.call_tool("deposit", {"type": "decision", "title": "t", "content": " "})

    message = text_of(run(index_path, body))
    assert "an entry needs content (content)" in message, message
    assert "--content" not in message


def test_query_limit_counts_what_it_left_out_and_trims_content(index_path: Path) -> None:
    long = entry("decision-long", content="x" * 5000)
    seed(
        index_path,
        *(entry(f"decision-{n}") for n in range(5)),
        long,
        entry("decision-old", status="archived"),
    )

    async def body(client: ClientSession) -> tuple[Any, Any, Any]:
        limited = data_of(await client.call_tool("query", {"limit": 2}))
        everything = data_of(
            await client.call_tool("query", {"include_inactive": True, "limit": 100})
        )
        bad = await client.call_tool("query", {"limit": 0})
        return limited, everything, bad

    limited, everything, bad = run(index_path, body)
    assert (limited["count"], limited["shown"], limited["leftOut"]) == (6, 2, 4)
    assert "4 more of 6" in limited["note"]
    assert everything["count"] == 7 and "note" not in everything
    trimmed = next(e for e in everything["entries"] if e["id"] == "decision-long")
    assert len(trimmed["content"]) == 401 and "4600 of 5000" in trimmed["contentTruncated"]
    assert bad.is_error


def test_context_is_the_prompt_memory_for_a_phase_and_files(index_path: Path) -> None:
    seed(
        index_path,
        entry(
            "wontfix-api-logging",
            "wontfix",
            meta={"phase": "midstream", "relatedFiles": ["src/api/**"]},
        ),
        entry("pattern-upstream-only", "pattern", meta={"phase": "upstream"}),
        {
            **entry("suppression-any-phase", "suppression"),
            "context": {"scope": "file", "active": True, "fingerprint": "0123456789abcdef"},
        },
        *(entry(f"decision-{n}", content="why " * 60) for n in range(30)),
    )

    async def body(client: ClientSession) -> list[Any]:
        return [
            await client.call_tool(
                "context", {"phase": "midstream", "files": ["src/api/handler.py"]}
            ),
            await client.call_tool("context", {"phase": "midstream", "files": ["README.md"]}),
            await client.call_tool("context", {"max_chars": 600}),
            await client.call_tool("context", {"max_chars": 10}),
        ]

    api, readme, small, too_small = run(index_path, body)
    text = text_of(api)
    assert not api.is_error and text.startswith("## Review memory (riverbed)")
    assert "wontfix-api-logging" in text and "suppression-any-phase" in text
    assert "pattern-upstream-only" not in text
    assert "wontfix-api-logging" not in text_of(readme)
    assert len(text_of(small)) <= 600 and "left out by the 600-character budget" in text_of(small)
    assert too_small.is_error


def test_status_is_the_same_data_as_the_cli(index_path: Path) -> None:
    seed(index_path, entry("decision-a"), entry("wontfix-b", "wontfix", expiresAt="not a date"))
    data = run(index_path, lambda c: c.call_tool("status", {}))
    from_tool = data_of(data)
    cli = subprocess.run(
        [sys.executable, "-m", "riverbed", "status", "--json", "--index", str(index_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    from_cli = json.loads(cli.stdout)
    assert from_tool.pop("warnings") and "not a date" in " ".join(data_of(data)["warnings"])
    for volatile in ("now",):
        from_tool.pop(volatile), from_cli.pop(volatile)
    from_tool.pop("path"), from_cli.pop("path")
    assert from_tool == from_cli


def test_read_only_server_has_no_deposit(index_path: Path) -> None:
    async def body(client: ClientSession) -> tuple[Any, Any]:
        names = {t.name for t in (await client.list_tools()).tools}
        attempt = await client.call_tool(
            "deposit", {"type": "decision", "title": "t", "content": "c"}
        )
        return names, attempt

    before = index_path.read_bytes()
    names, attempt = run(index_path, body, "--read-only")
    assert names == {"context", "query", "status"}
    assert attempt.is_error and "deposit" in text_of(attempt)
    assert index_path.read_bytes() == before


def test_corrupt_index_is_a_tool_error_not_a_crash(index_path: Path) -> None:
    index_path.write_text('{"version": "1", "entries": [', encoding="utf-8")

    async def body(client: ClientSession) -> tuple[Any, Any]:
        return (
            await client.call_tool("query", {}),
            await client.call_tool("deposit", {"type": "decision", "title": "t", "content": "c"}),
        )

    query, deposit = run(index_path, body)
    for result in (query, deposit):
        assert result.is_error and "corrupt memory index" in text_of(result)
    assert index_path.read_text(encoding="utf-8") == '{"version": "1", "entries": ['


STRESS = pytest.mark.skipif(
    os.environ.get("RIVERBED_STRESS") != "1", reason="long run: set RIVERBED_STRESS=1"
)


@pytest.mark.parametrize(
    ("servers", "per_client"),
    [(2, 15), pytest.param(4, 60, marks=[pytest.mark.stress, STRESS])],
)
def test_servers_depositing_at_once_lose_nothing(
    index_path: Path, servers: int, per_client: int
) -> None:
    async def client_run(name: str, ids: list[str]) -> None:
        async with session(index_path, "--author", name) as client:
            for n in range(per_client):
                result = data_of(
                    await client.call_tool(
                        "deposit",
                        {
                            "type": "pattern",
                            "title": f"{name} lesson {n}",
                            "content": f"learned by {name}, number {n}",
                        },
                    )
                )
                ids.append(result["id"])

    async def main() -> list[list[str]]:
        collected: list[list[str]] = [[] for _ in range(servers)]
        async with anyio.create_task_group() as group:
            for k in range(servers):
                group.start_soon(client_run, f"agent{k}", collected[k])
        return collected

    collected = anyio.run(main)
    stored = load_memory(index_path)["entries"]
    assert len(stored) == servers * per_client
    assert {e["id"] for e in stored} == {i for ids in collected for i in ids}
    assert {e["metadata"]["author"] for e in stored} == {f"agent{k}" for k in range(servers)}


def test_without_the_sdk_the_error_says_how_to_install(tmp_path: Path) -> None:
    # A real process in which `import mcp` is impossible (None in sys.modules blocks it).
    code = (
        "import sys; sys.modules['mcp'] = None\n"
        "from riverbed.cli.main import main\nsys.exit(main(['mcp']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ},
        check=False,
    )
    assert done.returncode == 2
    assert "pip install '.[mcp]' in a clone of riverbed" in done.stderr
    assert "riverbed[mcp] @ git+https://github.com/" in done.stderr
    assert "Traceback" not in done.stderr


def test_tool_schemas_use_the_model_s_names() -> None:
    from typing import get_args

    from riverbed.agents.mcp import server, tools
    from riverbed.index.model import ENTRY_TYPES, PHASES

    assert get_args(server.EntryType) == ENTRY_TYPES
    assert get_args(server.Phase) == PHASES
    assert get_args(server.DepositType) == tools.DEPOSIT_TYPES


def test_query_shows_a_revoked_suppression_as_revoked(index_path: Path) -> None:
    suppression = entry(
        "suppression-x",
        "suppression",
        context={"active": True, "scope": "file", "fingerprint": "0123456789abcdef"},
    )
    revocation = entry(
        "resurface-revoke-suppression-x",
        "resurface",
        context={"action": "revoke", "suppressionId": "suppression-x"},
        meta={"createdAt": "2026-03-04T05:06:07.000Z"},
    )
    seed(index_path, suppression, revocation)

    async def body(client: ClientSession) -> Any:
        return data_of(await client.call_tool("query", {"type": "suppression"}))

    (found,) = run(index_path, body)["entries"]
    assert found["status"] == "active"
    assert found["effectiveState"] == {
        "state": "revoked",
        "detail": "revoked by resurface-revoke-suppression-x on 2026-03-04",
        "by": "resurface-revoke-suppression-x",
        "at": "2026-03-04T05:06:07.000Z",
    }


def test_argument_errors_are_one_riverbed_line(index_path: Path) -> None:
    seed(index_path)
    calls = [
        ("status", {"bogus": 1}),
        ("query", {"limit": "x"}),
        ("query", {"limit": 0}),
        ("query", {"type": "nope", "colour": "red"}),
        ("deposit", {"type": "nope", "title": "t", "content": "c"}),
        ("deposit", {"type": "decision", "title": "t" * 5000, "content": "c"}),
        ("deposit", {"type": "decision", "title": "t", "content": "c" * 200_000}),
        ("deposit", {"type": "decision", "title": "t", "content": "é" * 9000}),
        ("deposit", {"type": "decision", "content": "c"}),
    ]

    async def body(client: ClientSession) -> list[Any]:
        return [await client.call_tool(name, args) for name, args in calls]

    results = run(index_path, body)
    texts = [text_of(r) for r in results]
    assert all(r.is_error for r in results), texts
    for text in texts:
        assert "\n" not in text and "pydantic" not in text and "http" not in text, text
        assert "validation error" not in text
    assert texts == [
        "status: unknown argument 'bogus'; status takes no arguments",
        "query: limit must be a whole number, not 'x' (see the tool's input schema)",
        "query: limit must be at least 1, not 0 (see the tool's input schema)",
        "query: unknown argument 'colour'; query takes include_inactive, limit, phase, "
        "tags, text, type",
        "deposit: type must be one of 'decision', 'pattern', 'wontfix', 'adr', 'review' or "
        "'promotion_candidate', not 'nope' (see the tool's input schema)",
        "deposit: title must be at most 200 characters, not 5000 (see the tool's input schema)",
        "deposit: content must be at most 16384 characters, not 200000 "
        "(see the tool's input schema)",
        "deposit: content is 18,000 bytes of UTF-8; at most 16,384 (16 KiB): record the "
        "decision and link the long document with links",
        "deposit: title is required (see the tool's input schema)",
    ]
    assert load_memory(index_path)["entries"] == []


def test_deposit_limits_are_published_and_the_edge_is_accepted(index_path: Path) -> None:
    seed(index_path)

    async def body(client: ClientSession) -> tuple[Any, Any]:
        listed = await client.list_tools()
        done = await client.call_tool(
            "deposit", {"type": "decision", "title": "t" * 200, "content": "c" * 16384}
        )
        return listed, done

    listed, done = run(index_path, body)
    schema = next(t for t in listed.tools if t.name == "deposit").input_schema
    assert schema["properties"]["title"]["maxLength"] == 200
    assert schema["properties"]["content"]["maxLength"] == 16384
    assert data_of(done)["appended"] is True


ALL_CALLS = (
    ("context", {}),
    ("query", {}),
    ("status", {}),
    ("deposit", {"type": "decision", "title": "t", "content": "c"}),
)


async def _call_all(client: ClientSession) -> list[Any]:
    return [await client.call_tool(name, arguments) for name, arguments in ALL_CALLS]


def test_outside_any_project_every_tool_says_so_and_nothing_is_created(tmp_path: Path) -> None:
    missing = tmp_path / "elsewhere" / ".river" / "memory" / "index.json"
    results = run(missing, _call_all)
    for (name, _), result in zip(ALL_CALLS, results, strict=True):
        message = text_of(result)
        assert result.is_error, name
        assert message.startswith(f"{name}: no memory index at {missing}"), message
        assert "outside any riverbed project" in message
        assert "--index FILE" in message and "$RIVERBED_INDEX" in message
        assert "riverbed init" in message
    assert not (tmp_path / "elsewhere").exists()  # deposit made no index, no directory


def test_started_without_index_in_a_directory_with_no_project(tmp_path: Path) -> None:
    nowhere = tmp_path / "scratch"
    nowhere.mkdir()
    results = run(None, _call_all, cwd=nowhere)
    for (name, _), result in zip(ALL_CALLS, results, strict=True):
        assert result.is_error, name
        assert "no memory index at" in text_of(result)
        assert f"started in {nowhere}" in text_of(result)
    assert sorted(p.name for p in nowhere.iterdir()) == []


def test_mcp_check_says_whether_the_server_can_serve(tmp_path: Path, index_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "riverbed", "mcp", "--index", str(index_path), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert f"{sys.executable} imports the MCP SDK (mcp " in done.stdout
    assert f"memory at {index_path} (0 entries)" in done.stdout
    missing = tmp_path / "none.json"
    done = subprocess.run(
        [sys.executable, "-m", "riverbed", "mcp", "--index", str(missing), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and f"no memory index at {missing}" in done.stderr
    assert not missing.exists()


def test_without_index_the_server_finds_the_project_s_as_the_cli_does(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)  # a repository root, as git marks one
    index = project / ".river" / "memory" / "index.json"
    seed(index, entry("decision-found"))
    deep = project / "src" / "pkg"
    deep.mkdir(parents=True)

    async def body(client: ClientSession) -> tuple[Any, Any]:
        found = data_of(await client.call_tool("query", {}))
        added = data_of(
            await client.call_tool("deposit", {"type": "pattern", "title": "t", "content": "c"})
        )
        return found, added

    found, added = run(None, body, cwd=deep)
    assert [e["id"] for e in found["entries"]] == ["decision-found"]
    assert added["index"] == str(index)
    assert {e["id"] for e in load_memory(index)["entries"]} == {"decision-found", added["id"]}
    assert not (deep / ".river").exists()
    cli = subprocess.run(
        [sys.executable, "-m", "riverbed", "query", "--json"],
        cwd=deep,
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if k != "RIVERBED_INDEX"},
    )
    assert json.loads(cli.stdout)["count"] == 2  # the CLI, from the same place, sees the same
    # $RIVERBED_INDEX wins over what the walk would find.
    other = tmp_path / "other.json"
    seed(other, entry("decision-other"))
    named = run(
        None, lambda c: c.call_tool("query", {}), cwd=deep, env={"RIVERBED_INDEX": str(other)}
    )
    assert [e["id"] for e in data_of(named)["entries"]] == ["decision-other"]


def _project_with_models(tmp_path: Path) -> tuple[Path, Path]:
    """A git repository with `src/pkg/models.py` and an index holding a decision about it
    and one about an unrelated file: (root, the `src/pkg/` directory)."""
    project = tmp_path / "project"
    deep = project / "src" / "pkg"
    deep.mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (deep / "models.py").write_text("x = 1\n")
    (project / "README.md").write_text("# p\n")
    seed(
        project / ".river" / "memory" / "index.json",
        entry("decision-models", meta={"relatedFiles": ["src/pkg/models.py"]}),
        entry("decision-readme", meta={"relatedFiles": ["README.md"]}),
    )
    return project, deep


def test_the_tools_read_files_as_every_verb_does_from_a_subdirectory(tmp_path: Path) -> None:
    project, deep = _project_with_models(tmp_path)
    assert (project / "src" / "pkg") == deep
    typed = ["models.py", "src/pkg/models.py", str(deep / "models.py"), "src\\pkg\\models.py"]

    async def body(client: ClientSession) -> tuple[list[Any], Any, Any, Any]:
        answers = [await client.call_tool("context", {"files": [name]}) for name in typed]
        outside = await client.call_tool("context", {"files": [str(tmp_path / "x.py")]})
        missing = await client.call_tool("context", {"files": ["nope.py"]})
        deposit = await client.call_tool(
            "deposit", {"type": "pattern", "title": "t", "content": "c", "files": ["models.py"]}
        )
        return answers, outside, missing, deposit

    answers, outside, missing, deposit = run(None, body, cwd=deep)
    texts = [text_of(a) for a in answers]
    for text in texts:
        assert "decision-models" in text and "decision-readme" not in text
    assert texts[0] == texts[2]  # relative to the server's directory, absolute: no warning
    assert "read from the root: 'src/pkg/models.py'" in texts[1]
    assert outside.is_error and "outside the repository root" in text_of(outside)
    assert "decision-models" not in text_of(missing)
    assert "files: 1 path names no file under" in text_of(missing)
    added = data_of(deposit)
    assert added["entry"]["relatedFiles"] == ["src/pkg/models.py"]
    assert "warnings" not in added
