"""The memory file: entries, schema, dates, lifecycle, merge, query; store.py does its I/O."""
