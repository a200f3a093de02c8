#pragma once
// An add-on's configuration as ha_manage_app edits it: options, network,
// boot, auto_update, watchdog (the fields of POST /addons/<slug>/options).

#include <boost/json.hpp>
#include <string>

namespace hamcp::tools::addons {

namespace json = boost::json;

// The editable fields of /addons/<slug>/info (what config_hash covers).
json::object current_config(const json::value& info);

// `given` merged into `current`: objects key by key (null removes a key),
// anything else replaced; a masked secret ("**REDACTED**") keeps the current value.
json::value merge_options(const json::value& current, const json::value& given);

// The Supervisor's validation message split per option: [{"field", "problem"}]
// ("… option 'port' …", "… @ data['mqtt']['user'] …"); one entry with field
// "" when it names none.
json::array field_errors(const std::string& message);

}  // namespace hamcp::tools::addons
