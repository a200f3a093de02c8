set(UNIT_LINK hamcp_ha hamcp_sim)
