"""A comment command added to the `Command` union but not handled fails mypy (assert_never)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import riverbed.comments.commands as commands_module

api = pytest.importorskip("mypy.api")

_NEW = '''

@dataclass(frozen=True)
class ForgetCommand:
    """A command no dispatch site handles yet."""

    verb: ClassVar[str] = "forget"
    entry_id: str
'''


def _mypy(source: str, tmp_path: Path) -> tuple[str, int]:
    module = tmp_path / "commands_copy.py"
    module.write_text(source, encoding="utf-8")
    out, err, status = api.run(
        ["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(module)]
    )
    return out + err, status


def test_an_unhandled_command_fails_type_checking(tmp_path: Path) -> None:
    source = Path(commands_module.__file__).read_text(encoding="utf-8")
    union = re.compile(r"(Command: TypeAlias = \(\n(?:    .*\n)*?)\)")
    assert union.search(source), "the Command union moved; update this test"
    extended = union.sub(lambda m: m.group(1) + "    | ForgetCommand\n)", source, count=1)
    extended = extended.replace("\n_USAGE: Final", _NEW + "\n\n_USAGE: Final", 1)
    output, status = _mypy(extended, tmp_path)
    assert status == 1  # and only for the missing cases: the unchanged module is clean in CI
    assert re.search(r'Argument 1 to "assert_never" has incompatible type "ForgetCommand"', output)
