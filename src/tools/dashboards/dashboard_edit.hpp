#pragma once
// The next config of an ha_set_dashboard call, computed locally from the
// current one (nothing is sent here): a full config, one view replaced
// (config + view_path), an RFC 6902 patch, or one op at one path (a card or a
// view). `answer` is what the call returns beside config_hash: for a
// per-card edit only that card, for the others a short diff.

#include <boost/json.hpp>

#include "tools/tool_spec.hpp"

namespace hamcp::tools::dashboards {

struct Edit {
  json::value next;
  json::object answer;
  bool needs_hash = false;  // patch and op depend on the version they were made on
};

// Throws bad_argument naming the field (patch, path, from, view_path, value).
Edit plan_edit(const Args& args, const json::value& current);

}  // namespace hamcp::tools::dashboards
