#include "app/home.hpp"

#include "home/search_feed.hpp"
#include "mcp/registry.hpp"
#include "prompts/prompts.hpp"
#include "resources/home_resources.hpp"
#include "skills/skill_resources.hpp"
#include "tools/addons/addons_tools.hpp"
#include "tools/backup/backup_tools.hpp"
#include "tools/config/config_tools.hpp"
#include "tools/dashboards/dashboard_tools.hpp"
#include "tools/energy/energy_tools.hpp"
#include "tools/entities/entity_tools.hpp"
#include "tools/everyday/everyday_tools.hpp"
#include "tools/helpers/helper_tools.hpp"
#include "tools/integrations/integration_tools.hpp"
#include "tools/radio/radio_tools.hpp"
#include "tools/registry/registry_tools.hpp"
#include "tools/safety/safety_tools.hpp"
#include "tools/settings/settings_tools.hpp"
#include "tools/skills/skill_tools.hpp"
#include "tools/system/system_tools.hpp"
#include "tools/updates/updates_tools.hpp"
#include "tools/voice/voice_tools.hpp"

namespace hamcp::app {

Home::Home(boost::asio::any_io_executor executor, const ha::ConnectionInput& input, HomeOptions options)
    : ha_(ha::HaClient::from_input(executor, input, options.client)),
      index_(std::make_unique<search::EntityIndex>()),
      search_feed_(std::make_unique<home::SearchFeed>(*ha_, *index_)),
      tools_env_(std::make_shared<tools::ToolEnv>(*ha_, *index_, options.tools)),
      executor_(executor),
      client_options_(options.client),
      filter_(std::move(options.filter)),
      settings_(std::move(options.settings)) {
  tools_env_->configs.start(std::move(executor));  // fetches once the mirror has synced
}

Home::~Home() { stop(); }

void Home::register_tools(mcp::Registry& registry) {
  std::vector<tools::ToolFamily> families;
  // The tools a family registers, by name, so filters can switch off a family.
  const auto family = [&](std::string name, auto register_family) {
    const std::size_t before = registry.tools().size();
    register_family(registry, tools_env_);
    tools::ToolFamily f{std::move(name), {}};
    for (std::size_t i = before; i < registry.tools().size(); ++i) f.tools.push_back(registry.tools()[i]->tool.name);
    families.push_back(std::move(f));
  };
  family("entities", tools::register_entity_tools);
  family("config", tools::register_config_tools);
  family("helpers", tools::register_helper_tools);
  family("system", tools::register_system_tools);
  family("registry", tools::register_registry_tools);
  family("dashboards", tools::register_dashboard_tools);
  family("everyday", tools::register_everyday_tools);
  family("safety", tools::register_safety_tools);
  family("backup", tools::register_backup_tools);
  family("updates", tools::register_updates_tools);
  family("integrations", tools::register_integration_tools);
  family("energy", tools::register_energy_tools);
  family("voice", tools::register_voice_tools);
  family("addons", tools::register_addons_tools);
  family("skills", tools::register_skill_tools);
  family("radio", tools::register_radio_tools);
  family("settings", [this](mcp::Registry& r, std::shared_ptr<tools::ToolEnv> env) {
    tools::register_settings_tools(r, std::move(env), settings_);
  });
  tools::apply_tool_filter(registry, families, filter_);
  prompts::register_prompts(registry, tools_env_);
  skills::register_skill_guide(registry);
}

void Home::register_resources(mcp::Server& server) {
  resource_feed_ = resources::register_home_resources(server, *ha_);
}

void Home::start() { ha_->start(); }

std::shared_ptr<home::UserConnections> Home::act_as_users(home::UserConnections::TokenSource tokens) {
  if (ha_->settings() == nullptr) return nullptr;
  users_ = std::make_shared<home::UserConnections>(executor_, *ha_->settings(), client_options_);
  users_->set_token_source(std::move(tokens));
  tools_env_->set_user_connections(users_);
  return users_;
}

void Home::stop() {
  if (stopped_) return;
  stopped_ = true;
  // Tool handlers may outlive this object (the server owns them): detach the
  // environment so no late mirror event reaches it through the client.
  tools_env_->detach();
  if (resource_feed_) resource_feed_->detach();
  search_feed_.reset();
  tools_env_->set_user_connections(nullptr);
  users_.reset();  // closes the signed-in users' connections
  ha_->stop();
}

}  // namespace hamcp::app
