set(UNIT_LINK hamcp_common)
