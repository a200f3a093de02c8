#pragma once
// The HTTP server's pre-auth logging lives with the server skeleton
// (net/guarded_log.hpp); these names keep the transport code unchanged.

#include "net/guarded_log.hpp"

namespace hamcp::mcp::http {

using net::guarded_log;
using net::guarded_warn;
using net::GuardedLog;
using net::pre_auth_log;
using net::printable;

}  // namespace hamcp::mcp::http
