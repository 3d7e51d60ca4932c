"""Allow `python -m riverbed.cli`."""

from riverbed.cli.main import main

raise SystemExit(main())
