set(UNIT_LINK hamcp_home hamcp_sim)
