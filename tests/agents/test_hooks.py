"""`riverbed hooks`: the printed snippets, and --write merging into real files."""

from __future__ import annotations

import copy
import json
import os
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from riverbed.agents.hooks import (
    codex_config_toml,
    hook_command,
    mcp_server_entry,
    merge_claude_settings,
    merge_mcp_json,
)
from riverbed.errors import InputFormatError

#: PATH without any `riverbed` on it (the test venv's bin is left out), python still there.
NO_RIVERBED_PATH = os.pathsep.join(
    d for d in os.environ["PATH"].split(os.pathsep) if d and not (Path(d) / "riverbed").exists()
)


def hooks_cli(
    root: Path, *args: str, check: bool = True, path: str = NO_RIVERBED_PATH
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "riverbed", "hooks", "--dir", str(root), *args],
        capture_output=True,
        text=True,
        check=check,
        cwd=root,
        env={**os.environ, "PATH": path},
    )


def _bin_with_riverbed(tmp_path: Path) -> Path:
    """A directory holding a `riverbed` that runs the code under test, as an install has."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "riverbed"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m riverbed "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    return bin_dir


def our_hooks(settings: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        h
        for g in settings["hooks"]["SessionStart"]
        for h in g["hooks"]
        if "riverbed" in h["command"]
    ]


def test_printing_writes_nothing_and_shows_every_snippet(tmp_path: Path) -> None:
    done = hooks_cli(tmp_path, "--json")
    data = json.loads(done.stdout)
    assert list(tmp_path.iterdir()) == []
    settings, mcp = (f["document"] for f in data["files"])
    assert settings["hooks"]["SessionStart"][0]["matcher"] == "startup|resume|clear|compact"
    hook = settings["hooks"]["SessionStart"][0]["hooks"][0]
    assert hook["type"] == "command" and "context" in hook["command"]
    assert settings["enabledMcpjsonServers"] == ["riverbed"]
    # Not on PATH: `python -m riverbed`, by name, so the files can be committed.
    python = data["launcher"][0]
    assert python in ("python", "python3") and data["launcher"][1:] == ["-m", "riverbed"]
    assert hook["command"] == (
        f'{python} -m riverbed --index "$CLAUDE_PROJECT_DIR"/.river/memory/index.json '
        "context --max-chars 4000"
    )
    assert mcp == {
        "mcpServers": {
            "riverbed": {"type": "stdio", "command": python, "args": ["-m", "riverbed", "mcp"]}
        }
    }
    assert data["claudeMcpAdd"] == (
        f"claude mcp add --scope project riverbed -- {python} -m riverbed mcp"
    )
    assert tomllib.loads(data["codexConfigToml"]) == {
        "mcp_servers": {"riverbed": {"command": python, "args": ["-m", "riverbed", "mcp"]}}
    }
    assert data["mcpJson"] == mcp
    assert data["agentsMd"].count(". ") >= 1 and "riverbed context" in data["agentsMd"]
    text = hooks_cli(tmp_path).stdout
    for needle in (
        "SessionStart",
        "AGENTS.md",
        "claude mcp add",
        "[mcp_servers.riverbed]",
        "mcpServers",
        "--write",
    ):
        assert needle in text


def test_write_creates_both_files_and_is_idempotent(tmp_path: Path) -> None:
    first = hooks_cli(tmp_path, "--write").stdout
    settings_path, mcp_path = tmp_path / ".claude" / "settings.json", tmp_path / ".mcp.json"
    assert "added SessionStart hook" in first and "registered MCP server" in first
    before = settings_path.read_bytes(), mcp_path.read_bytes()
    second = hooks_cli(tmp_path, "--write").stdout
    assert "(unchanged)" in second and "+ " not in second
    assert (settings_path.read_bytes(), mcp_path.read_bytes()) == before
    assert len(our_hooks(json.loads(before[0]))) == 1


def test_write_keeps_everything_already_there(tmp_path: Path) -> None:
    claude = tmp_path / ".claude"
    claude.mkdir()
    existing = {
        "permissions": {"allow": ["Bash(npm test:*)"], "deny": []},
        "env": {"FOO": "bär"},
        "hooks": {
            "SessionStart": [
                {"matcher": "startup", "hooks": [{"type": "command", "command": "cat NOTES.md"}]}
            ],
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}
            ],
        },
        "enabledMcpjsonServers": ["github"],
    }
    (claude / "settings.json").write_text(json.dumps(existing), encoding="utf-8")
    (claude / "settings.json").chmod(0o600)
    (tmp_path / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"github": {"command": "gh-mcp"}}}), encoding="utf-8"
    )
    hooks_cli(tmp_path, "--write")
    merged = json.loads((claude / "settings.json").read_text(encoding="utf-8"))
    assert merged["permissions"] == existing["permissions"] and merged["env"] == {"FOO": "bär"}
    assert merged["hooks"]["PreToolUse"] == existing["hooks"]["PreToolUse"]
    assert merged["hooks"]["SessionStart"][0] == existing["hooks"]["SessionStart"][0]
    assert len(our_hooks(merged)) == 1
    assert merged["enabledMcpjsonServers"] == ["github", "riverbed"]
    assert (claude / "settings.json").stat().st_mode & 0o777 == 0o600
    servers = json.loads((tmp_path / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]
    assert servers["github"] == {"command": "gh-mcp"}
    assert servers["riverbed"]["args"] == ["-m", "riverbed", "mcp"]
    assert not list(claude.glob(".*.tmp"))


def test_a_hand_written_riverbed_hook_is_not_duplicated() -> None:
    mine = {
        "hooks": {
            "SessionStart": [
                {"hooks": [{"type": "command", "command": "riverbed context --phase midstream"}]}
            ]
        }
    }
    merge = merge_claude_settings(mine)
    assert merge.document["hooks"] == mine["hooks"]
    assert any("already runs" in k for k in merge.kept)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"hooks": []}', "$.hooks must be a JSON object"),
        ('{"hooks": {"SessionStart": {}}}', "$.hooks.SessionStart must be a JSON array"),
        ('["a"]', "must be a JSON object"),
    ],
)
def test_a_malformed_settings_file_stops_everything(
    tmp_path: Path, content: str, message: str
) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(content, encoding="utf-8")
    done = hooks_cli(tmp_path, "--write", check=False)
    assert done.returncode == 2
    assert message in done.stderr and "settings.json" in done.stderr
    assert "Traceback" not in done.stderr
    assert (tmp_path / ".claude" / "settings.json").read_text(encoding="utf-8") == content
    assert not (tmp_path / ".mcp.json").exists()


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_symlinked_config_file_is_neither_read_nor_written(tmp_path: Path) -> None:
    # A checkout could point .mcp.json at another JSON file of the user's: merging would copy
    # its contents (a registry login, say) into the project.
    outside = tmp_path / "home" / "config.json"
    outside.parent.mkdir()
    outside.write_text('{"auths": {"registry": {"auth": "c2VjcmV0"}}}', encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    (project / ".mcp.json").symlink_to(outside)
    done = hooks_cli(project, "--write", check=False)
    assert done.returncode == 2, done.stderr
    assert "is a symlink or not a regular file" in done.stderr and "Traceback" not in done.stderr
    assert "c2VjcmV0" not in done.stderr + done.stdout
    assert (project / ".mcp.json").is_symlink()
    assert outside.read_text(encoding="utf-8") == '{"auths": {"registry": {"auth": "c2VjcmV0"}}}'
    assert not (project / ".claude").exists()


def test_custom_index_reaches_every_snippet() -> None:
    index = "memory dir/it's.json"
    words = shlex.split(hook_command(index))
    assert words[:2] == ["riverbed", "--index"]
    assert words[2] == "$CLAUDE_PROJECT_DIR/memory dir/it's.json"
    assert mcp_server_entry(index)["args"] == ["mcp", "--index", index]
    parsed = tomllib.loads(codex_config_toml(index))
    assert parsed["mcp_servers"]["riverbed"]["args"] == ["mcp", "--index", index]
    assert shlex.split(hook_command("/abs/i.json"))[2] == "/abs/i.json"


def test_merge_mcp_json_keeps_an_existing_riverbed_entry() -> None:
    custom = {"mcpServers": {"riverbed": {"command": "/opt/riverbed", "args": ["mcp"]}}}
    merge = merge_mcp_json(custom)
    assert merge.document == custom and merge.changes == ()
    with pytest.raises(InputFormatError, match=r"\$\.mcpServers"):
        merge_mcp_json({"mcpServers": []})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=10,
)


@given(
    st.dictionaries(
        st.text(max_size=10).filter(lambda k: k not in ("hooks", "enabledMcpjsonServers")),
        json_values,
        max_size=5,
    )
)
def test_merge_keeps_unrelated_settings_and_is_idempotent(other: dict[str, Any]) -> None:
    snapshot = copy.deepcopy(other)
    once = merge_claude_settings(other)
    for key, value in other.items():
        assert once.document[key] == value
    twice = merge_claude_settings(once.document)
    assert twice.document == once.document and twice.changes == ()
    assert other == snapshot  # the input is not mutated


def test_the_written_hook_runs_and_prints_the_memory(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    from riverbed.index.store import append_entry

    append_entry(
        project / ".river" / "memory" / "index.json",
        {
            "id": "wontfix-legacy-logging",
            "type": "wontfix",
            "title": "Legacy logging stays",
            "content": "Accepted until the v3 rewrite.",
            "metadata": {"createdAt": "2026-01-01T00:00:00.000Z", "author": "ana"},
        },
    )
    bin_dir = _bin_with_riverbed(tmp_path)
    hooks_cli(project, "--write", path=f"{bin_dir}:{NO_RIVERBED_PATH}")
    settings = json.loads((project / ".claude" / "settings.json").read_text(encoding="utf-8"))
    command = our_hooks(settings)[0]["command"]
    assert command.startswith("riverbed --index ")
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "CLAUDE_PROJECT_DIR": str(project),
    }
    done = subprocess.run(
        ["/bin/sh", "-c", command],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )  # not the project dir
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("## Review memory (riverbed)")
    assert "wontfix-legacy-logging" in done.stdout


def _console_script(tmp_path: Path, *, without_mcp: bool = False) -> Path:
    """A `riverbed` launcher script like pip writes into a venv's bin/, not on PATH.

    `without_mcp`: its interpreter cannot import the MCP SDK (None in sys.modules blocks it),
    as in a venv where riverbed was installed without the extra.
    """
    script = tmp_path / "venv-bin" / "riverbed"
    script.parent.mkdir()
    block = "sys.modules['mcp'] = None\n" if without_mcp else ""
    script.write_text(
        f"#!{sys.executable}\nimport sys\n{block}"
        "from riverbed.cli.main import main\nsys.exit(main())\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return script


def test_absolute_uses_the_running_executable_and_check_runs_it(tmp_path: Path) -> None:
    script = _console_script(tmp_path)
    project = tmp_path / "project"
    project.mkdir()
    env = {**os.environ, "PATH": "/usr/bin:/bin"}  # riverbed is not on PATH, as in a hook
    run = {"capture_output": True, "text": True, "check": False, "cwd": project, "env": env}
    init = subprocess.run([str(script), "init"], **run)
    assert init.returncode == 0, init.stderr
    done = subprocess.run([str(script), "hooks", "--write", "--absolute"], **run)
    assert done.returncode == 0, done.stderr
    assert f"start riverbed as `{script}`" in done.stdout and "do not commit" in done.stdout
    settings = json.loads((project / ".claude" / "settings.json").read_text(encoding="utf-8"))
    (hook,) = our_hooks(settings)
    assert hook["command"].startswith(f"{script} --index ")
    servers = json.loads((project / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]
    assert servers["riverbed"] == {"type": "stdio", "command": str(script), "args": ["mcp"]}

    check = subprocess.run([str(script), "hooks", "--check"], **run)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "SessionStart hook runs:" in check.stdout and "exit 0" in check.stdout
    assert f"MCP server starts: {script} mcp" in check.stdout
    assert "imports the MCP SDK" in check.stdout

    # A hook written for `riverbed` on PATH fails where Claude Code runs it: --check says so.
    hook["command"] = hook["command"].replace(str(script), "riverbed", 1)
    (project / ".claude" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    check = subprocess.run([str(script), "--json", "hooks", "--check"], **run)
    assert check.returncode == 1
    report = json.loads(check.stdout)
    assert report["ok"] is False
    assert report["hooks"][0]["runs"] is False
    assert report["hooks"][0]["detail"].startswith("exit 127")
    assert "put riverbed on PATH" in report["hooks"][0]["detail"]
    assert "`riverbed hooks --write --absolute`" in report["hooks"][0]["detail"]


def test_check_without_a_hook_fails_and_says_how_to_add_one(tmp_path: Path) -> None:
    done = hooks_cli(tmp_path, "--check", check=False)
    assert done.returncode == 1
    assert "no SessionStart hook running `riverbed context`" in done.stdout
    assert "riverbed hooks --write" in done.stdout


def test_python_m_hooks_are_recognised_as_ours() -> None:
    from riverbed.agents.hooks import is_riverbed_context_hook

    assert is_riverbed_context_hook("/v/bin/python -m riverbed --index x context")
    assert is_riverbed_context_hook("/opt/venv/bin/riverbed context")
    assert not is_riverbed_context_hook("python -m other context")


def test_written_files_name_no_machine_path_and_a_relative_index(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "memory").mkdir(parents=True)
    bin_dir = _bin_with_riverbed(tmp_path)
    index = project / "memory" / "team.json"
    done = hooks_cli(
        project, "--index", str(index), "--write", path=f"{bin_dir}:{NO_RIVERBED_PATH}"
    )
    assert "so teammates can commit them" in done.stdout
    settings_bytes = (project / ".claude" / "settings.json").read_bytes()
    mcp_bytes = (project / ".mcp.json").read_bytes()
    for data in (settings_bytes, mcp_bytes):
        assert str(tmp_path).encode() not in data and sys.executable.encode() not in data
    servers = json.loads(mcp_bytes)["mcpServers"]
    assert servers["riverbed"] == {
        "type": "stdio",
        "command": "riverbed",
        "args": ["mcp", "--index", "memory/team.json"],
    }
    (hook,) = our_hooks(json.loads(settings_bytes))
    assert shlex.split(hook["command"])[:3] == [
        "riverbed",
        "--index",
        "$CLAUDE_PROJECT_DIR/memory/team.json",
    ]


def test_check_fails_when_the_registered_server_cannot_import_the_sdk(tmp_path: Path) -> None:
    script = _console_script(tmp_path, without_mcp=True)
    project = tmp_path / "project"
    project.mkdir()
    env = {**os.environ, "PATH": NO_RIVERBED_PATH}
    run = {"capture_output": True, "text": True, "check": False, "cwd": project, "env": env}
    assert subprocess.run([str(script), "init"], **run).returncode == 0
    assert subprocess.run([str(script), "hooks", "--write", "--absolute"], **run).returncode == 0
    check = subprocess.run([str(script), "--json", "hooks", "--check"], **run)
    report = json.loads(check.stdout)
    # The hook itself runs (context needs no SDK); the server it registered cannot start.
    assert report["hooks"][0]["runs"] is True
    assert report["mcpServer"]["runs"] is False and report["ok"] is False
    assert check.returncode == 1
    detail = report["mcpServer"]["detail"]
    assert detail.startswith("exit 2: riverbed: error:") and "Model Context Protocol SDK" in detail
    assert "pip install '.[mcp]'" in detail
    text = subprocess.run([str(script), "hooks", "--check"], **run)
    assert text.returncode == 1 and f"MCP server FAILS: {script} mcp" in text.stdout


def test_from_a_subdirectory_write_goes_to_the_repository_root(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / ".river" / "memory").mkdir(parents=True)
    (project / ".river" / "memory" / "index.json").write_text(
        '{"entries": [], "version": "1"}\n', encoding="utf-8"
    )
    sub = project / "src" / "pkg"
    sub.mkdir(parents=True)
    done = subprocess.run(
        [sys.executable, "-m", "riverbed", "hooks", "--write"],
        capture_output=True,
        text=True,
        check=False,
        cwd=sub,
        env={**os.environ, "PATH": NO_RIVERBED_PATH},
    )
    assert done.returncode == 0, done.stderr
    assert not (sub / ".mcp.json").exists() and not (sub / ".claude").exists()
    servers = json.loads((project / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]
    assert servers["riverbed"]["args"][-1] == "mcp"  # the default index: found, not named
    (hook,) = our_hooks(json.loads((project / ".claude" / "settings.json").read_text("utf-8")))
    assert '"$CLAUDE_PROJECT_DIR"/.river/memory/index.json' in hook["command"]
    assert str(tmp_path) not in hook["command"]
