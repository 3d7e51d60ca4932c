"""Fixtures shared by every test area."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fixtures_dir() -> Path:
    """The folder of committed test data."""
    return FIXTURES


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
