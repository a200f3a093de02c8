set(UNIT_LINK hamcp_sim)
