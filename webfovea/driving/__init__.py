"""The task driver: what every driver of one task shares (the agent loop, the MCP server)."""
