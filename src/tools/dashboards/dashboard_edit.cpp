#include "tools/dashboards/dashboard_edit.hpp"

#include "home/config_json.hpp"
#include "tools/dashboards/card_finder.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::dashboards {

namespace {

json::value apply(const json::value& document, const json::array& ops, std::string_view field) {
  try {
    return home::apply_json_patch(document, ops);
  } catch (const home::PatchError& e) {
    throw ToolException(ToolError{"patch_failed",
                                  std::string(field) + " does not apply: " + e.what() + ". Nothing was written.",
                                  "Read the dashboard again (ha_get_dashboard) for its current paths.",
                                  {{"op_index", e.op_index}, {"path", e.path}, {"written", false}}});
  }
}

// The index an "add" at ".../-" got: the last one of that array.
std::string resolved_pointer(const json::value& next, const std::string& pointer) {
  if (pointer.size() < 2 || pointer.compare(pointer.size() - 2, 2, "/-") != 0) return pointer;
  const std::string parent = pointer.substr(0, pointer.size() - 2);
  boost::system::error_code ec;
  const json::value* array = next.find_pointer(parent, ec);
  if (!array || !array->is_array() || array->get_array().empty()) return pointer;
  return parent + "/" + std::to_string(array->get_array().size() - 1);
}

Edit one_op(const Args& args, const json::value& current) {
  const std::string op = args.str("op");
  if (!args.has("path"))
    throw ToolException(
        bad_argument("path", "op needs a path", "Write e.g. views[0].cards[2] (from ha_get_dashboard)."));
  const std::string pointer = to_pointer(args.str("path"), "path");
  json::object operation{{"op", op}, {"path", pointer}};
  if (op == "add" || op == "replace") {
    const json::value* value = args.get("value");
    if (!value || !value->is_object())
      throw ToolException(bad_argument("value", op + " needs the card or view as an object", "Pass value: {...}."));
    operation["value"] = *value;
  } else if (op == "move") {
    if (!args.has("from"))
      throw ToolException(bad_argument("from", "move needs from (where the card is now)", "Pass from and path."));
    operation["from"] = to_pointer(args.str("from"), "from");
  }
  Edit edit;
  edit.needs_hash = true;
  const json::value base = current.is_null() ? json::value(json::object{{"views", json::array()}}) : current;
  edit.next = apply(base, json::array{operation}, "op " + op + " at " + args.str("path"));
  const std::string landed = resolved_pointer(edit.next, pointer);
  edit.answer["path"] = to_card_path(landed);
  edit.answer["op"] = op;
  if (op != "remove") {
    boost::system::error_code ec;
    if (const json::value* card = edit.next.find_pointer(landed, ec)) edit.answer["card"] = *card;
  }
  return edit;
}

Edit one_view(const Args& args, const json::value& current, const json::object& view) {
  const std::string name = args.str("view_path");
  const std::optional<std::size_t> index = find_view(current, name);
  if (!index)
    throw ToolException(ToolError{"view_not_found",
                                  "The dashboard has no view '" + name + "'. Nothing was written.",
                                  "Use a view's path or index from `views`, or add one with op=add path=views[-].",
                                  {{"views", view_names(current)}, {"written", false}}});
  Edit edit;
  edit.next = current;
  edit.next.as_object()["views"].as_array()[*index] = view;
  edit.answer["path"] = "views[" + std::to_string(*index) + "]";
  edit.answer["diff"] = home::short_diff(current, edit.next);
  return edit;
}

}  // namespace

Edit plan_edit(const Args& args, const json::value& current) {
  if (args.has("op")) return one_op(args, current);
  if (const json::value* patch = args.get("patch"); patch && patch->is_array()) {
    Edit edit;
    edit.needs_hash = true;
    const json::value base = current.is_null() ? json::value(json::object{{"views", json::array()}}) : current;
    edit.next = apply(base, patch->get_array(), "patch");
    edit.answer["diff"] = home::short_diff(base, edit.next);
    return edit;
  }
  const json::object* config = args.object("config");
  if (!config)
    throw ToolException(bad_argument("config", "must be an object", "Pass the dashboard config {views:[...]}."));
  if (args.has("view_path")) return one_view(args, current, *config);
  Edit edit;
  edit.next = *config;
  edit.answer["diff"] = home::short_diff(current, edit.next);
  return edit;
}

}  // namespace hamcp::tools::dashboards
