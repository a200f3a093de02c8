#include "sim/supervisor/addon_options.hpp"

#include <regex>

namespace hamcp::sim {
namespace {

namespace json = boost::json;

struct Invalid {
  std::string message;
};

class OptionsCheck {
 public:
  OptionsCheck(const std::string& name, const std::string& slug) : suffix_(" in " + name + " (" + slug + ")") {}

  json::object dict(const json::object& schema, const json::object& data, const std::string& root) const {
    json::object out;
    for (const auto& [key, value] : data) {
      const json::value* type = schema.if_contains(key);
      if (!type) continue;  // the Supervisor drops unknown options (with a warning)
      out[key] = element(*type, value, std::string(key));
    }
    for (const auto& [key, type] : schema) {
      if (out.contains(key)) continue;
      const json::value* inner = type.is_array() && !type.get_array().empty() ? &type.get_array()[0] : &type;
      if (inner->is_string() && !inner->get_string().empty() && inner->get_string().back() == '?') continue;
      throw Invalid{"Missing option '" + std::string(key) + "' in " + root + suffix_};
    }
    return out;
  }

 private:
  json::value element(const json::value& type, const json::value& value, const std::string& key) const {
    if (type.is_array()) {
      if (!value.is_array()) throw Invalid{"Invalid list for option '" + key + "'" + suffix_};
      json::array out;
      for (const auto& item : value.get_array()) out.push_back(element(type.get_array().at(0), item, key));
      return out;
    }
    if (type.is_object()) {
      if (!value.is_object()) throw Invalid{"Invalid dict for option '" + key + "'" + suffix_};
      return dict(type.get_object(), value.get_object(), key);
    }
    return single(std::string(type.as_string()), value, key);
  }

  static std::string got(const json::value& v) {
    return v.is_string() ? "'" + std::string(v.get_string()) + "'" : json::serialize(v);
  }

  // vol's messages, with the option named (the real Supervisor reports these through humanize_error).
  Invalid coerce_failure(const std::string& what, const json::value& v, const std::string& key) const {
    return Invalid{what + " for option '" + key + "'" + suffix_ + ". Got " + got(v)};
  }

  json::value number(const std::string& type, const json::value& value, const std::string& key, bool integer) const {
    double n = 0;
    if (value.is_number()) {
      n = value.to_number<double>();
    } else if (value.is_string()) {
      try {
        std::size_t used = 0;
        n = std::stod(std::string(value.get_string()), &used);
        if (used != value.get_string().size()) throw std::invalid_argument("trailing text");
      } catch (const std::exception&) {
        throw coerce_failure(integer ? "expected int" : "expected float", value, key);
      }
    } else {
      throw coerce_failure(integer ? "expected int" : "expected float", value, key);
    }
    static const std::regex range(R"(\((-?[0-9.]*),(-?[0-9.]*)\))");
    std::smatch m;
    if (std::regex_search(type, m, range)) {
      if (m[1].length() && n < std::stod(m[1]))
        throw coerce_failure("value must be at least " + m[1].str(), value, key);
      if (m[2].length() && n > std::stod(m[2])) throw coerce_failure("value must be at most " + m[2].str(), value, key);
    }
    if (integer) return static_cast<std::int64_t>(n);
    return n;
  }

  json::value single(std::string type, const json::value& value, const std::string& key) const {
    if (value.is_null()) throw Invalid{"Missing required option '" + key + "'" + suffix_};
    if (!type.empty() && type.back() == '?') type.pop_back();
    if (type.rfind("str", 0) == 0 || type.rfind("password", 0) == 0 || type.rfind("device", 0) == 0 ||
        type.rfind("email", 0) == 0 || type.rfind("url", 0) == 0) {
      if (!value.is_string()) throw coerce_failure("expected str", value, key);
      return value;
    }
    if (type.rfind("int", 0) == 0) return number(type, value, key, true);
    if (type.rfind("float", 0) == 0) return number(type, value, key, false);
    if (type == "port") {
      json::value port = number("int(1,65535)", value, key, true);
      return port;
    }
    if (type == "bool") {
      if (value.is_bool()) return value;
      if (value.is_string() && (value.get_string() == "true" || value.get_string() == "on")) return true;
      if (value.is_string() && (value.get_string() == "false" || value.get_string() == "off")) return false;
      throw coerce_failure("expected boolean", value, key);
    }
    if (type.rfind("list(", 0) == 0) {
      const std::string choices = type.substr(5, type.size() - 6);
      const std::string text = value.is_string() ? std::string(value.get_string()) : json::serialize(value);
      if (("|" + choices + "|").find("|" + text + "|") == std::string::npos)
        throw coerce_failure("value must be one of [" + choices + "]", value, key);
      return json::value(text);
    }
    if (type.rfind("match(", 0) == 0) {
      const std::string text = value.is_string() ? std::string(value.get_string()) : json::serialize(value);
      if (!std::regex_match(text, std::regex(type.substr(6, type.size() - 7))))
        throw coerce_failure("does not match regular expression", value, key);
      return json::value(text);
    }
    throw Invalid{"Unknown type '" + type + "'" + suffix_};
  }

  std::string suffix_;
};

}  // namespace

std::variant<json::object, OptionsInvalid> validate_addon_options(const json::object& schema,
                                                                  const json::object& options, const std::string& name,
                                                                  const std::string& slug) {
  try {
    return OptionsCheck(name, slug).dict(schema, options, "root");
  } catch (const Invalid& e) {
    return OptionsInvalid{e.message};
  }
}

}  // namespace hamcp::sim
