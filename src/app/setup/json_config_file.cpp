#include "app/setup/json_config_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "app/setup/config_text.hpp"

namespace hamcp::app::setup {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

[[noreturn]] void refuse(const fs::path& file, const std::string& why) {
  throw std::runtime_error(file.string() + ": " + why + "; nothing was written");
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) refuse(file, std::string("cannot be read (") + std::strerror(errno) + ")");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Strict JSON first; JSONC (comments, trailing commas) parses but is refused: rewriting it would
// drop the user's comments.
json::object parse_config(const fs::path& file, const std::string& text) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return {};
  std::error_code error;
  json::value value = json::parse(text, error);
  if (error) {
    json::parse_options lenient;
    lenient.allow_comments = true;
    lenient.allow_trailing_commas = true;
    std::error_code lenient_error;
    (void)json::parse(text, lenient_error, {}, lenient);
    if (!lenient_error)
      refuse(file, "has comments or trailing commas, which a rewrite would drop; add the entry by hand");
    refuse(file, "is not valid JSON (" + error.message() + "); fix it or move it away");
  }
  if (!value.is_object()) refuse(file, "is not a JSON object");
  return std::move(value.as_object());
}

void merge_inputs(const fs::path& file, json::object& root, const json::array& inputs) {
  if (inputs.empty()) return;
  json::value& slot = root["inputs"];
  if (slot.is_null()) slot = json::array{};
  if (!slot.is_array()) refuse(file, "\"inputs\" is not an array");
  json::array& existing = slot.as_array();
  for (const json::value& input : inputs) {
    const json::value* id = input.as_object().if_contains("id");
    const auto same_id = [id](const json::value& old) {
      const json::object* fields = old.if_object();
      const json::value* old_id = fields == nullptr ? nullptr : fields->if_contains("id");
      return old_id != nullptr && id != nullptr && *old_id == *id;
    };
    if (std::none_of(existing.begin(), existing.end(), same_id)) existing.push_back(input);
  }
}

void write_atomically(const fs::path& file, const std::string& text) {
  const fs::path temp = file.string() + ".hamcp-new";
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) refuse(file, std::string("cannot write ") + temp.string() + " (" + std::strerror(errno) + ")");
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  ::close(fd);
  if (!written || ::rename(temp.c_str(), file.c_str()) != 0) {
    ::unlink(temp.c_str());
    refuse(file, std::string("cannot be replaced (") + std::strerror(errno) + ")");
  }
}

}  // namespace

WriteResult merge_into_json_file(const fs::path& file, std::string_view servers_key, std::string_view name,
                                 const json::object& entry, const json::array& inputs) {
  WriteResult result;
  std::error_code error;
  result.created = !fs::exists(fs::symlink_status(file, error));
  if (!result.created && !fs::is_regular_file(fs::symlink_status(file, error))) refuse(file, "is not a regular file");
  json::object root = result.created ? json::object{} : parse_config(file, read_file(file));

  json::value& servers = root[servers_key];
  if (servers.is_null()) servers = json::object{};
  if (!servers.is_object()) refuse(file, "\"" + std::string(servers_key) + "\" is not an object");
  result.replaced = servers.as_object().contains(name);
  servers.as_object()[name] = entry;
  merge_inputs(file, root, inputs);

  if (result.created) {
    fs::create_directories(file.parent_path(), error);
  } else {
    const fs::path backup = file.string() + ".bak";
    fs::copy_file(file, backup, fs::copy_options::overwrite_existing, error);
    if (error) refuse(file, "cannot be backed up to " + backup.string() + " (" + error.message() + ")");
    fs::permissions(backup, fs::perms::owner_read | fs::perms::owner_write, error);
    result.backup = backup;
  }
  write_atomically(file, pretty_json(root));
  return result;
}

}  // namespace hamcp::app::setup
