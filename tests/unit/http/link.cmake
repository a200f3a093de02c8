# The HTTP transport tests need only the protocol core (src/mcp, incl. src/mcp/http).
set(UNIT_LINK hamcp_mcp)
