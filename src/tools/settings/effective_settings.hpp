#pragma once
// hamcp's effective configuration as plain rows, built by the app layer after
// parsing (src/app/config_file.cpp) and shown by ha_get_settings. Plain data
// so src/tools never depends on src/app.

#include <string>
#include <vector>

namespace hamcp::tools {

struct SettingRow {
  std::string name;     // the flag's long name, also the config file key: "ha-url"
  std::string value;    // effective value as text (secrets: never read from here for output)
  std::string source;   // "flag", "env", "file" or "default"
  bool secret = false;  // shown as "***"
};

struct EffectiveSettings {
  std::string config_file;  // the file read, or the default path looked for
  bool config_file_read = false;
  std::vector<SettingRow> rows;
};

}  // namespace hamcp::tools
