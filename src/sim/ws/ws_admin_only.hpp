#pragma once
// Which requests Home Assistant 2026.2 lets only an admin user make: the
// WebSocket commands decorated @require_admin in HA's source (plus
// config/auth/list, registered with require_admin) and the services
// registered with async_register_admin_service. A non-admin connection gets
// HA's {"code": "unauthorized", "message": "Unauthorized"} for them.

#include <string_view>

namespace hamcp::sim {

bool ws_command_requires_admin(std::string_view type);
bool service_requires_admin(std::string_view domain, std::string_view service);

}  // namespace hamcp::sim
