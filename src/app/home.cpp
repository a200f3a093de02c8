#include "app/home.hpp"

#include "home/search_feed.hpp"
#include "mcp/registry.hpp"
#include "tools/config/config_tools.hpp"
#include "tools/entities/entity_tools.hpp"
#include "tools/everyday/everyday_tools.hpp"
#include "tools/helpers/helper_tools.hpp"

namespace hamcp::app {

Home::Home(boost::asio::any_io_executor executor, const ha::ConnectionInput& input, HomeOptions options)
    : ha_(ha::HaClient::from_input(executor, input, options.client)),
      index_(std::make_unique<search::EntityIndex>()),
      search_feed_(std::make_unique<home::SearchFeed>(*ha_, *index_)),
      tools_env_(std::make_shared<tools::ToolEnv>(*ha_, *index_, options.tools)) {
  tools_env_->configs.start(std::move(executor));  // fetches once the mirror has synced
}

Home::~Home() { stop(); }

void Home::register_tools(mcp::Registry& registry) {
  tools::register_entity_tools(registry, tools_env_);
  tools::register_config_tools(registry, tools_env_);
  tools::register_helper_tools(registry, tools_env_);
  tools::register_everyday_tools(registry, tools_env_);
}

void Home::start() { ha_->start(); }

void Home::stop() {
  if (stopped_) return;
  stopped_ = true;
  // Tool handlers may outlive this object (the server owns them): detach the
  // environment so no late mirror event reaches it through the client.
  tools_env_->detach();
  search_feed_.reset();
  ha_->stop();
}

}  // namespace hamcp::app
