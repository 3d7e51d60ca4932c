"""A real git repository in a temporary directory, isolated from the user's git config."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from riverbed.testing.cli_run import run_riverbed

INDEX = ".river/memory/index.json"


def git_env(home: Path) -> dict[str, str]:
    """An environment where git reads no global or system config and commits as a tester."""
    env = dict(os.environ)
    env.update(
        HOME=str(home),
        GIT_CONFIG_GLOBAL=str(home / "gitconfig"),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="tester",
        GIT_AUTHOR_EMAIL="tester@example.com",
        GIT_COMMITTER_NAME="tester",
        GIT_COMMITTER_EMAIL="tester@example.com",
    )
    env.pop("RIVERBED_INDEX", None)
    return env


class Repo:
    """A git repository at `root` with a `riverbed` and a `git` that run inside it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.env = git_env(root.parent)
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run git in the repository (raises on failure when `check`)."""
        done = subprocess.run(
            ["git", *args],
            cwd=self.root,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if check and done.returncode != 0:
            raise AssertionError(f"git {' '.join(args)} failed: {done.stdout}{done.stderr}")
        return done

    def riverbed(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run `riverbed ARGS` in the repository."""
        return run_riverbed(*args, cwd=self.root, env={"HOME": self.env["HOME"]})

    def ok(self, *args: str) -> str:
        """Run `riverbed ARGS`, assert exit 0, return stdout."""
        done = self.riverbed(*args)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def commit_all(self, message: str) -> None:
        """Stage everything and commit."""
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)

    def index_at(self, revision: str) -> dict[str, Any]:
        """The index as committed at `revision` (read by git, not by riverbed)."""
        shown = self.git("show", f"{revision}:{INDEX}").stdout
        loaded: dict[str, Any] = json.loads(shown)
        return loaded

    def entries(self) -> dict[str, dict[str, Any]]:
        """The work tree's index entries by id (read as plain JSON)."""
        data = json.loads((self.root / INDEX).read_text(encoding="utf-8"))
        return {e["id"]: e for e in data["entries"]}
