set(UNIT_LINK hamcp_yaml)
