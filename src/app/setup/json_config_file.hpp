#pragma once
// `hamcp setup --write`: adds hamcp to a client's JSON config file without losing anything else in
// it. The old file is kept as <file>.bak; the new one replaces it atomically (0600, as it may hold
// a token). A file hamcp cannot rewrite faithfully (not JSON, comments that a rewrite would drop,
// servers that are not an object) is left untouched and the error says why.

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <filesystem>
#include <optional>
#include <string_view>

namespace hamcp::app::setup {

struct WriteResult {
  bool created = false;                         // the file did not exist
  bool replaced = false;                        // an entry of that name was there and is replaced
  std::optional<std::filesystem::path> backup;  // the previous file
};

// Sets `<servers_key>.<name>` = entry in `file` (and VS Code's `inputs`, matched by "id").
// Throws std::runtime_error naming the file and the fix; nothing is written then.
WriteResult merge_into_json_file(const std::filesystem::path& file, std::string_view servers_key, std::string_view name,
                                 const boost::json::object& entry, const boost::json::array& inputs);

}  // namespace hamcp::app::setup
