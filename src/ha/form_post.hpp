#pragma once
// One application/x-www-form-urlencoded POST to Home Assistant without a
// token: what HA's OAuth2 endpoints (/auth/token, /auth/revoke) take. Kept
// apart from RestClient (JSON, authenticated, pooled) on purpose: these calls
// are rare and must never carry the server's own token.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <string>

#include "ha/connection_config.hpp"
#include "ha/rest_client.hpp"

namespace hamcp::ha {

// Throws HaException-free std::runtime_error on connection failures; any HTTP
// status comes back in the Response.
boost::asio::awaitable<Response> post_form(const ConnectionSettings& ha, std::string path, std::string form);

}  // namespace hamcp::ha
