"""Combining indexes: merging two or three copies, and compacting into the cold archive."""
