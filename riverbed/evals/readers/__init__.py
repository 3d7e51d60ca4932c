"""One reader module per eval-results format (JUnit, promptfoo, River Reviewer, minimal)."""
