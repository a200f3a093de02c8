# The protocol core's tests need only the core.
set(UNIT_LINK hamcp_mcp)
