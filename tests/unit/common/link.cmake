set(UNIT_LINK hamcp_asio)
