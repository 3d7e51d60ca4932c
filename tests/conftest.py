"""Fixtures shared by every test area."""

from __future__ import annotations

import json
import os
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# Helpers shared by every area (histories.py…), imported by bare name: with
# --import-mode=importlib no test directory is on sys.path by itself.
sys.path.insert(0, str(Path(__file__).parent / "support"))

import figures
from review_helpers import run_ruff_sarif

from riverbed.testing import FakeGitHub
from riverbed.testing.github.openapi import OpenAPISubset

FIXTURES = Path(__file__).parent / "fixtures"


#: The folder the xdist workers of this run leave their figures in (made by the controller).
_FOLDER = pytest.StashKey[str]()


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Tell each xdist worker where to leave its figures (one folder per run)."""
    if _FOLDER not in node.config.stash:
        node.config.stash[_FOLDER] = figures.new_folder()
    node.workerinput[figures.FOLDER_KEY] = node.config.stash[_FOLDER]


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker leaves the figures it counted for the controller to add up."""
    workerinput = getattr(session.config, "workerinput", None)
    if workerinput is not None:
        figures.write_worker_file(workerinput[figures.FOLDER_KEY], workerinput["workerid"])


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the run's reliability figures (and write them to $RIVERBED_FIGURES when set)."""
    config = terminalreporter.config
    if hasattr(config, "workerinput"):
        return
    merged = figures.merged(config.stash.get(_FOLDER, None))
    if not merged:
        return
    mode = figures.mode()
    terminalreporter.section(f"riverbed reliability figures ({mode})")
    for name, value in merged.items():
        terminalreporter.write_line(f"{name}: {value}")
    target = os.environ.get("RIVERBED_FIGURES")
    if target:
        document = {"mode": mode, **merged}
        Path(target).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


@pytest.fixture
def fixtures_dir() -> Path:
    """The folder of committed test data."""
    return FIXTURES


@pytest.fixture(scope="session")
def openapi() -> OpenAPISubset:
    """GitHub's REST description, trimmed to the operations the stand-in serves."""
    return OpenAPISubset.from_file(FIXTURES / "github-openapi-subset.json")


@pytest.fixture(scope="session")
def graphql_schema() -> Any:
    """GitHub's GraphQL schema, trimmed to what riverbed's documents select (a GraphQLSubset).

    Without graphql-core (a venv from before it joined the test extra) the exchanges go
    unchecked with a warning; tests/github/test_graphql_schema.py fails outright then.
    """
    try:
        from graphql_schema import GraphQLSubset
    except ImportError:
        warnings.warn(
            "graphql-core is not installed: GraphQL exchanges are not checked against "
            "GitHub's schema; run pip install -e '.[test]'",
            stacklevel=1,
        )
        return None
    return GraphQLSubset.from_file()


@pytest.fixture
def gh(openapi: OpenAPISubset, graphql_schema: Any) -> Iterator[FakeGitHub]:
    """A running stand-in for octo/demo (id 1001) checking every exchange against the subsets."""
    with FakeGitHub(
        owner="octo", repo="demo", repository_id=1001, openapi=openapi, graphql_check=graphql_schema
    ) as fake:
        yield fake
    assert fake.server_errors == []


@pytest.fixture
def index_path(tmp_path: Path) -> Path:
    """Where a test's index lives (not created yet)."""
    return tmp_path / ".river" / "memory" / "index.json"


@pytest.fixture
def ruff_sarif(tmp_path: Path) -> Path:
    """A fresh real ruff SARIF log (and mod.py) in tmp_path."""
    return run_ruff_sarif(tmp_path)


@pytest.fixture
def make_entry() -> Callable[..., dict[str, Any]]:
    """Build a minimal valid entry; keyword arguments override top-level fields."""

    def build(entry_id: str = "e1", **fields: Any) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "id": entry_id,
            "type": fields.pop("type", "pattern"),
            "title": fields.pop("title", f"Title of {entry_id}"),
            "content": fields.pop("content", f"Content of {entry_id}"),
            "metadata": {
                "createdAt": "2026-01-01T00:00:00.000Z",
                "author": "tester",
                **fields.pop("metadata", {}),
            },
        }
        entry.update(fields)
        return entry

    return build


def load_json(path: Path) -> Any:
    """Read a JSON fixture."""
    return json.loads(path.read_text(encoding="utf-8"))
