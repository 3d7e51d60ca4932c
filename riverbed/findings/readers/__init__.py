"""One reader module per findings format (SARIF, River Reviewer, rdjson)."""
