"""The `riverbed` command's verbs, one module per group."""
