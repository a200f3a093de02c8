#include "tools/tool_env.hpp"

#include "tools/tool_error.hpp"

namespace hamcp::tools {

ToolEnv::ToolEnv(ha::HaClient& ha_client, search::EntityIndex& idx, EntityToolsOptions opts)
    : ha(ha_client), index(idx), options(opts), watch(ha_client) {}

boost::asio::awaitable<ha::SnapshotPtr> ToolEnv::snapshot() {
  ha::SnapshotPtr snap = ha.snapshot();
  if (snap && snap->version > 0) co_return snap;
  if (ha.configured()) {
    const auto wait = options.first_sync_wait;
    co_await ha.wait_synced(wait);
    snap = ha.snapshot();
    if (snap && snap->version > 0) co_return snap;
  }
  if (auto failure = ha.last_failure()) throw ToolException(from_ha_error(*failure));
  throw ToolException("ha_not_connected", "hamcp has not received Home Assistant's state yet (still connecting).",
                      "Retry in a few seconds; if it persists run `hamcp doctor` to diagnose the connection.");
}

}  // namespace hamcp::tools
