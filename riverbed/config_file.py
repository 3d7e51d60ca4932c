"""The project's riverbed settings file, `.river/config.toml`, read by the CLI and the action.

```toml
[severity-overrides]
"ruff:E*" = "minor"
"ruff:S*" = "major"
```

Only reading happens here (I/O by name); what the settings mean lives in pure modules.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from riverbed.errors import UsageError
from riverbed.memory.severity import SeverityOverride, overrides_from_table

#: Where the settings live, relative to the repository root (beside `.river/memory/`).
CONFIG_PATH: Final = ".river/config.toml"
_KNOWN: Final = ("severity-overrides",)
_MAX_BYTES: Final = 256 * 1024


@dataclass(frozen=True)
class ProjectConfig:
    """What the settings file holds (empty when there is none) and where it was read."""

    path: str | None = None
    severity_overrides: tuple[SeverityOverride, ...] = ()


def read_project_config(root: str | Path = ".", *, relative: bool = False) -> ProjectConfig:
    """`ROOT/.river/config.toml` parsed and checked; no file means no settings.

    `relative` names the file as `.river/config.toml` in messages (the action: a runner's
    absolute workspace path means nothing to the pull request's readers).
    """
    path = Path(root) / CONFIG_PATH
    shown = CONFIG_PATH if relative else str(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return ProjectConfig()
    except OSError as exc:
        raise UsageError(f"{shown}: cannot be read: {exc.strerror}") from None
    if len(data) > _MAX_BYTES:
        raise UsageError(
            f"{shown}: {len(data):,} bytes; a settings file holds at most {_MAX_BYTES:,}"
        )
    try:
        document = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise UsageError(f"{shown}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{shown}: not valid TOML: {exc}") from None
    unknown = sorted(set(document) - set(_KNOWN))
    if unknown:
        raise UsageError(
            f"{shown}: unknown setting(s) {', '.join(repr(k) for k in unknown)}; "
            f"riverbed reads {', '.join(_KNOWN)} (see docs/REVIEW.md)"
        )
    overrides = overrides_from_table(document.get("severity-overrides", {}), shown)
    return ProjectConfig(shown, overrides)
