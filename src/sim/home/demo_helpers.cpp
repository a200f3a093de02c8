// The demo home's flow-made helpers, an old-style group and its open repairs.
#include "sim/core/time_util.hpp"
#include "sim/flows/flow_engine.hpp"
#include "sim/home/home_builder.hpp"

namespace hamcp::sim {

// Helpers made through config flows (a utility meter, a template sensor) and an
// old-style group, as a home that has used the helper UI and group.set has.
void add_flow_helpers_and_groups(HomeBuilder& b) {
  struct FlowHelper {
    const char* domain;
    const char* entry_id;
    const char* name;
    const char* state;
    json::object options;
  };
  const FlowHelper helpers[] = {{"utility_meter",
                                 "01JDEMOUTILITYMETER0000001",
                                 "Grid Energy Daily",
                                 "4.2",
                                 {{"name", "Grid Energy Daily"},
                                  {"source", "sensor.grid_meter_energy_import"},
                                  {"cycle", "daily"},
                                  {"offset", 0},
                                  {"tariffs", json::array{}},
                                  {"net_consumption", false},
                                  {"delta_values", false},
                                  {"periodically_resetting", true}}},
                                {"template",
                                 "01JDEMOTEMPLATESENSOR00001",
                                 "Lights On Count",
                                 "2",
                                 {{"template_type", "sensor"},
                                  {"name", "Lights On Count"},
                                  {"state", "{{ states.light | selectattr('state','eq','on') | list | count }}"}}}};
  for (const auto& h : helpers) {
    EntitySpec s;
    s.domain = "sensor";
    s.object_id = slugify(h.name);
    s.original_name = h.name;
    s.state = h.state;
    s.platform = h.domain;
    const std::string eid = b.add_entity(std::move(s));
    for (auto& e : b.home().entities)
      if (e.entity_id == eid) e.config_entry_id = h.entry_id;
    b.home().config_entries.push_back(
        json::object{{"entry", flows::entry_json(h.domain, h.name, h.entry_id, kHomeEpoch)}, {"options", h.options}});
  }
  EntitySpec group;
  group.domain = "group";
  group.object_id = "family";
  group.original_name = "Family";
  group.state = "home";
  group.registry = false;  // group.set makes no registry entry
  group.attributes = {
      {"entity_id", json::array{"person.alex", "person.sam", "person.emma"}}, {"order", 0}, {"auto", true}};
  b.add_entity(std::move(group));
}

// Two open repairs issues, as HA's issue registry lists them.
void add_demo_repairs(Home& home) {
  const std::string created = iso_time(kHomeEpoch - 3 * 86400.0);
  home.system.repairs.push_back(
      json::object{{"breaks_in_ha_version", "2026.8.0"},
                   {"created", created},
                   {"dismissed_version", nullptr},
                   {"domain", "homeassistant"},
                   {"ignored", false},
                   {"is_fixable", false},
                   {"issue_domain", "sonos"},
                   {"issue_id", "deprecated_yaml_sonos"},
                   {"learn_more_url", "https://www.home-assistant.io/integrations/sonos"},
                   {"severity", "warning"},
                   {"translation_key", "deprecated_yaml"},
                   {"translation_placeholders", json::object{{"domain", "sonos"}, {"integration_title", "Sonos"}}}});
  home.system.repairs.push_back(json::object{{"breaks_in_ha_version", nullptr},
                                             {"created", created},
                                             {"dismissed_version", nullptr},
                                             {"domain", "recorder"},
                                             {"ignored", false},
                                             {"is_fixable", false},
                                             {"issue_domain", nullptr},
                                             {"issue_id", "maria_db_range_index_regression"},
                                             {"learn_more_url", "https://www.home-assistant.io/integrations/recorder"},
                                             {"severity", "critical"},
                                             {"translation_key", "maria_db_range_index_regression"},
                                             {"translation_placeholders", json::object{{"min_version", "10.11.3"}}}});
}

}  // namespace hamcp::sim
