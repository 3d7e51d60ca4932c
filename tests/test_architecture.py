"""The import rules and size limits of docs/ARCHITECTURE.md, on the tree and on planted trees."""

from __future__ import annotations

from pathlib import Path

import architecture as rules
import pytest

ROOT = Path(__file__).resolve().parents[1] / "riverbed"


def plant(root: Path, files: dict[str, str]) -> Path:
    """A fake `riverbed` package under `root` holding `files` (path → source)."""
    package = root / "riverbed"
    for name, text in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        for parent in path.relative_to(package).parents:
            init = package / parent / "__init__.py"
            if not init.exists():
                init.write_text("", encoding="utf-8")
        path.write_text(text, encoding="utf-8")
    return package


def test_index_imports_only_errors_and_text() -> None:
    assert rules.index_violations(ROOT) == []


def test_merging_imports_only_the_store() -> None:
    assert rules.merging_violations(ROOT) == []


def test_core_packages_import_no_host() -> None:
    assert rules.core_violations(ROOT) == []


def test_only_the_demo_imports_the_kit_and_the_kit_only_github() -> None:
    assert rules.kit_violations(ROOT) == []


def test_no_import_cycle_between_packages() -> None:
    assert rules.cycles(rules.package_graph(ROOT)) == []


def test_no_module_or_function_too_long_without_a_reason() -> None:
    assert {**rules.long_modules(ROOT), **rules.long_functions(ROOT)} == {}


def test_a_planted_index_import_is_found(tmp_path: Path) -> None:
    root = plant(
        tmp_path,
        {
            "errors.py": "",
            "text.py": "",
            "memory/select.py": "",
            "index/ok.py": "from riverbed.errors import X\nfrom riverbed import text\n"
            "from . import ok\nfrom riverbed.index.ok import y\n",
            "index/bad.py": "import json\n\n\ndef f():\n    from ..memory import select\n",
            "index/worse.py": "import riverbed.memory.select\n",
        },
    )
    assert rules.index_violations(root) == [
        "index.bad:5 imports memory.select",
        "index.worse:1 imports memory.select",
    ]


@pytest.mark.parametrize("host", rules.HOSTS)
@pytest.mark.parametrize("core", rules.CORE)
def test_a_planted_host_import_in_the_core_is_found(tmp_path: Path, core: str, host: str) -> None:
    root = plant(
        tmp_path,
        {f"{host}/client.py": "", f"{core}/pure.py": f"from riverbed.{host}.client import C\n"},
    )
    assert rules.core_violations(root) == [f"{core}.pure:1 imports {host}.client"]


def test_planted_kit_imports_are_found(tmp_path: Path) -> None:
    root = plant(
        tmp_path,
        {
            "errors.py": "",
            "github/client.py": "",
            "action/config.py": "",
            "testing/fake.py": "import json\nfrom riverbed.github import client\n"
            "from riverbed.errors import E\nfrom riverbed.testing import fake\n",
            "testing/leak.py": "from riverbed.action.config import input_variable\nimport yaml\n",
            "demo/story.py": "from riverbed.testing.fake import F\n",
            "cli/main.py": "from riverbed.testing import fake\n",
        },
    )
    assert rules.kit_violations(root) == [
        "cli.main:1 imports testing.fake",
        "testing.leak:1 imports action.config",
        "testing.leak:2 imports yaml",
    ]


def test_a_planted_cycle_is_found(tmp_path: Path) -> None:
    root = plant(
        tmp_path,
        {
            "a/x.py": "from riverbed.b import y\n",
            "b/y.py": "def f():\n    from riverbed.c.z import q\n",
            "c/z.py": "from riverbed import a\n",
            "d/w.py": "from riverbed.a.x import p\n",
            "__init__.py": "from riverbed.d import w\nfrom riverbed.a import x\n",
        },
    )
    graph = rules.package_graph(root)
    assert graph["d"] == {"a"}
    assert rules.cycles(graph) == [["a", "b", "c"]]


def _function(header: str, lines: int, indent: str = "") -> str:
    """A function of exactly `lines` lines (its def line included)."""
    body = "".join(f"{indent}    x{i} = {i}\n" for i in range(lines - 1))
    return f"{indent}{header}\n{body}\n"


def test_planted_long_code_is_found_unless_it_gives_a_reason(tmp_path: Path) -> None:
    limit = rules.MAX_FUNCTION_LINES
    root = plant(
        tmp_path,
        {
            "big.py": "\n" * rules.MAX_MODULE_LINES + "x = 1\n",
            "fine.py": _function("def f():", limit)
            + "x = 1\n" * (rules.MAX_MODULE_LINES - limit - 1),
            "long.py": "class C:\n"
            + _function("def method(self):", limit + 1, indent="    ")
            + "# long: one table; split, it reads worse\n@staticmethod\n"
            + _function("def told():", limit + 1)
            + _function("def said():  # long: the same", limit + 1)
            + _function("def untold():  # long", limit + 1),
        },
    )
    assert rules.long_modules(root) == {"big": rules.MAX_MODULE_LINES + 1}
    assert rules.long_functions(root) == {"long.C.method": limit + 1, "long.untold": limit + 1}
