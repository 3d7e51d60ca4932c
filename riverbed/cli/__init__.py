"""The `riverbed` command: argument parsing, dispatch and human/JSON output."""
