"""The MCP server (`pip install "gm-tags[mcp]"`, then `gm-tags mcp`): the tools a model or an
agent calls to play a chat kept in the store, on the official `mcp` SDK, over stdio or
streamable HTTP. docs/mcp.md describes the tools.

Not named `gm_tags.mcp`: a reader seeing `import mcp` beside it should never wonder which one.
The command (`gm-tags mcp`) is gm_tags/cli/mcp_server.py."""
