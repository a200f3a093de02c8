set(UNIT_LINK hamcp_tools hamcp_sim)
