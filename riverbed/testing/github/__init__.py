"""A local GitHub REST stand-in that speaks the documented schemas (for tests and the demo)."""
