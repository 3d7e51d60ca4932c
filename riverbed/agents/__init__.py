"""Coding agents: the MCP server, agent hooks and their client config files."""
