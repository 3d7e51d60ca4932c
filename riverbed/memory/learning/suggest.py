"""The suggestion for a cluster: one narrowest common glob, the command, and tool config lines."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Sequence
from typing import Final

from riverbed.memory.globs import is_glob, normalize_path
from riverbed.memory.learning.model import ConfigLines, Suggestion

#: Name parts are cut at these characters so a glob reads as a pattern (`*_test.py`, not `*t.py`).
_SEPARATORS: Final = "._-"
_RUFF_RULE: Final = re.compile(r"[A-Z]{1,4}[0-9]{1,4}")
_ESLINT_RULE: Final = re.compile(r"(@[a-z0-9-]+/)?[a-z][a-z0-9-]*(/[a-z0-9-]+)?")
_SEMGREP_RULE: Final = re.compile(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+")


def _split(path: str) -> tuple[list[str], str]:
    """(directory parts, name); a glob keeps only its literal directories and `*` as name."""
    parts = normalize_path(path).split("/")
    if is_glob(path):
        literal: list[str] = []
        for part in parts:
            if is_glob(part):
                break
            literal.append(part)
        wild_dirs = len(literal) < len(parts) - 1 or parts[-1] == "**"
        return literal + (["**"] if wild_dirs else []), ("*" if is_glob(parts[-1]) else parts[-1])
    return parts[:-1], parts[-1]


def _common_prefix(items: Sequence[Sequence[str]]) -> list[str]:
    out: list[str] = []
    for column in zip(*items, strict=False):
        if any(part != column[0] for part in column):
            break
        out.append(column[0])
    return out


def _name_glob(names: Sequence[str]) -> str:
    if "*" in names:
        return "*"
    if all(n == names[0] for n in names):
        return names[0]
    prefix = names[0]
    for name in names[1:]:
        while not name.startswith(prefix):
            prefix = prefix[:-1]
    suffix = names[0]
    for name in names[1:]:
        while not name.endswith(suffix):
            suffix = suffix[1:]
    # Cut back to separators so the parts are whole words, and never let them overlap.
    while prefix and prefix[-1] not in _SEPARATORS:
        prefix = prefix[:-1]
    while suffix and suffix[0] not in _SEPARATORS:
        suffix = suffix[1:]
    if len(prefix) + len(suffix) > min(len(n) for n in names):
        suffix = ""
    return f"{prefix}*{suffix}"


def common_glob(paths: Sequence[str]) -> str:
    """The narrowest glob (riverbed's glob rules) that every path or glob in `paths` falls under."""
    if not paths:
        return "**"
    unique = sorted(dict.fromkeys(normalize_path(p) for p in paths))
    if len(unique) == 1 and not is_glob(unique[0]):
        return unique[0]
    split = [_split(p) for p in unique]
    dirs = [d for d, _ in split]
    common = _common_prefix([[p for p in d if p != "**"] for d in dirs])
    same_depth = all(d == dirs[0] for d in dirs) and "**" not in dirs[0]
    name = _name_glob([n for _, n in split])
    tail = [name] if same_depth else (["**"] if name == "*" else ["**", name])
    return "/".join([*common, *tail])


def _quote(value: str) -> str:
    return shlex.quote(value)


def config_lines(rule: str, glob: str) -> tuple[ConfigLines, ...]:
    """The config of each tool whose rule ids look like `rule` that turns it off under `glob`."""
    out: list[ConfigLines] = []
    if _RUFF_RULE.fullmatch(rule):
        text = f"[tool.ruff.lint.per-file-ignores]\n{json.dumps(glob)} = [{json.dumps(rule)}]"
        out.append(ConfigLines("ruff", "pyproject.toml", text))
    if _ESLINT_RULE.fullmatch(rule) and not _RUFF_RULE.fullmatch(rule):
        block = {"overrides": [{"files": [glob], "rules": {rule: "off"}}]}
        out.append(ConfigLines("eslint", ".eslintrc.json", json.dumps(block, indent=2)))
    if _SEMGREP_RULE.fullmatch(rule):
        text = (
            f"rules:\n  - id: {json.dumps(rule)}\n    # … the rule as it is …\n"
            f"    paths:\n      exclude:\n        - {json.dumps(glob)}"
        )
        out.append(ConfigLines("semgrep", "the rule's YAML file", text))
    return tuple(out)


def rule_suggestion(rule: str, files: Sequence[str], reason: str) -> Suggestion:
    """One `--rule R --path GLOB` suppression covering every file of a rule cluster."""
    glob = common_glob(files)
    command = (
        f"riverbed suppress --rule {_quote(rule)} --path {_quote(glob)} --reason {_quote(reason)}"
    )
    return Suggestion("suppression", rule, glob, command, config_lines(rule, glob))


def fingerprint_suggestion(fingerprint: str, rule: str | None, files: Sequence[str]) -> Suggestion:
    """A decision that one finding is accepted for good (its suppressions keep recurring)."""
    where = f" in {', '.join(files[:3])}" if files else ""
    title = f"Finding {fingerprint}{where} is accepted"
    command = f"riverbed add --type decision --title {_quote(title)} --content …"
    configs = config_lines(rule, common_glob(files)) if rule and files else ()
    return Suggestion("decision", rule, None, command, configs)
