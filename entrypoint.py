"""GitHub Action entry point: build the config from the runner environment and run one mode.

Everything else lives in the library (`riverbed.action`); this file only maps a
RiverbedError to an `::error::` line and its exit code.
"""

from __future__ import annotations

import os
import sys


def main() -> int:
    """Run the action; returns the process exit code."""
    from riverbed.action.config import build_config
    from riverbed.action.main import run_action
    from riverbed.action.runner import Runner
    from riverbed.errors import RiverbedError

    runner = Runner()
    runner.mask(runner.get_input("github-token"))
    runner.mask(runner.get_input("shared-memory-token"))
    try:
        config = build_config(runner.get_input, os.environ)
        return run_action(config, runner)
    except RiverbedError as exc:
        runner.error(str(exc))
        if "upload" not in runner.outputs and os.environ.get("GITHUB_OUTPUT"):
            try:
                runner.set_output("upload", False)
            except RiverbedError as output_error:
                # GITHUB_OUTPUT itself is broken (only outside a real runner); say so, once.
                runner.error(str(output_error))
        return exc.exit_code


if __name__ == "__main__":
    sys.exit(main())
