#pragma once
// The composition root of the home side: one object that owns the Home
// Assistant client (REST + WebSocket + live mirror), the search index, the feed
// that keeps the index equal to the mirror, and the environment the tools share.
// It builds them in dependency order and tears them down in reverse, so the
// runtime, the unit tests and the benchmarks all wire hamcp the same way.
//
// Threading: everything here runs on the executor it is given (the MCP core's
// single I/O thread); stop() and the destructor must run on that thread too.

#include <boost/asio/any_io_executor.hpp>
#include <memory>

#include "ha/connection_config.hpp"
#include "ha/ha_client.hpp"
#include "home/user_connections.hpp"
#include "search/entity_index.hpp"
#include "tools/gate/tool_filter.hpp"
#include "tools/settings/effective_settings.hpp"
#include "tools/tool_env.hpp"

namespace hamcp::mcp {
class Registry;
class Server;
}  // namespace hamcp::mcp
namespace hamcp::resources {
class ResourceFeed;
}
namespace hamcp::home {
class SearchFeed;
}

namespace hamcp::app {

struct HomeOptions {
  ha::HaClientOptions client;
  tools::EntityToolsOptions tools;
  tools::ToolFilter filter;  // tools and families switched off (--disable-tools, --enable-tools)
  std::shared_ptr<const tools::EffectiveSettings> settings;  // for ha_get_settings (null: no rows)
};

class Home {
 public:
  // Never throws for a bad or unreachable HA: the client then reports the
  // diagnosis on every call (see ha::HaClient::from_input).
  Home(boost::asio::any_io_executor executor, const ha::ConnectionInput& input, HomeOptions options = {});
  ~Home();
  Home(const Home&) = delete;
  Home& operator=(const Home&) = delete;

  // Adds every tool family to `registry`, then switches off what the filter
  // names (throws std::invalid_argument for an unknown name). The handlers
  // keep the tool environment alive; stop() unhooks it from the client first.
  void register_tools(mcp::Registry& registry);
  // The home as resources (src/resources/) with their completion, and the
  // feed that sends resources/updated to subscribers; stop() detaches it.
  void register_resources(mcp::Server& server);

  // Starts connecting and mirroring in the background; never blocks.
  void start();
  // Unhooks the tools and the index feed from the client, then stops it.
  // Idempotent; the destructor calls it.
  void stop();

  ha::HaClient& ha() { return *ha_; }
  search::EntityIndex& index() { return *index_; }
  tools::ToolEnv& tools_env() { return *tools_env_; }
  // hamcp --auth oauth: tool calls of signed-in users (SessionInfo::principal)
  // go through their own HA connections, with tokens from `tokens`. Null when
  // HA is not configured.
  std::shared_ptr<home::UserConnections> act_as_users(home::UserConnections::TokenSource tokens);

 private:
  // Declaration order is construction order; destruction runs in reverse
  // (the feed and the tool environment go before the client they listen to).
  std::unique_ptr<ha::HaClient> ha_;
  std::unique_ptr<search::EntityIndex> index_;
  std::unique_ptr<home::SearchFeed> search_feed_;
  std::shared_ptr<tools::ToolEnv> tools_env_;
  std::unique_ptr<resources::ResourceFeed> resource_feed_;
  boost::asio::any_io_executor executor_;
  ha::HaClientOptions client_options_;
  std::shared_ptr<home::UserConnections> users_;
  tools::ToolFilter filter_;
  std::shared_ptr<const tools::EffectiveSettings> settings_;
  bool stopped_ = false;
};

}  // namespace hamcp::app
