"""The GitHub Action: config from the runner environment, runner I/O, and one module per mode."""

from __future__ import annotations
