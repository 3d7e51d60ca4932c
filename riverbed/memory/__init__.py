"""Applying memory: selection, suppressions, the review pipeline, status, tensions, learning."""
