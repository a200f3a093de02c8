set(UNIT_LINK hamcp_home)
