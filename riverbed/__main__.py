"""Allow `python -m riverbed`."""

from riverbed.cli.main import main

raise SystemExit(main())
