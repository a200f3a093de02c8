set(UNIT_LINK hamcp_search hamcp_sim)
