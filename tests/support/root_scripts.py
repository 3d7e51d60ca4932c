"""The repository's top-level scripts (action_install.py, action_uv.py, …) loaded as modules."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def root_script(name: str) -> Any:
    """The repository's top-level `<name>.py`, loaded as a fresh module named `name`."""
    spec = importlib.util.spec_from_file_location(name, ROOT / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
