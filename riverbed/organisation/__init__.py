"""The organisation layer: a central policy repository's memory, read-only, under a repository's."""
