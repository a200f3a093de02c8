#include "yaml/yaml_json.hpp"

#include <yaml.h>

#include <boost/json/serialize.hpp>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

namespace hamcp::yaml {

namespace json = boost::json;

YamlError::YamlError(std::string message, std::size_t line, std::size_t column)
    : std::runtime_error(std::move(message)), line_(line), column_(column) {}

namespace {

bool is_one_of(std::string_view s, std::initializer_list<std::string_view> words) {
  for (auto w : words)
    if (s == w) return true;
  return false;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// What a plain (unquoted, untagged) scalar means to HA's YAML 1.1 loader.
json::value resolve_plain(std::string_view s) {
  if (s.empty() || is_one_of(s, {"~", "null", "Null", "NULL"})) return nullptr;
  if (is_one_of(s, {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"})) return true;
  if (is_one_of(s, {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"})) return false;
  std::string_view digits = (s.front() == '-' || s.front() == '+') ? s.substr(1) : s;
  if (all_digits(digits) && digits.size() <= 18 && (digits.size() == 1 || digits.front() != '0'))
    return json::value(std::strtoll(std::string(s).c_str(), nullptr, 10));
  if (is_one_of(s, {".inf", ".Inf", ".INF", "+.inf", "-.inf", ".nan", ".NaN", ".NAN"})) return json::string(s);
  const bool looks_float = s.find_first_of(".eE") != std::string_view::npos &&
                           s.find_first_not_of("0123456789+-.eE") == std::string_view::npos &&
                           s.find_first_of("0123456789") != std::string_view::npos;
  if (looks_float) {
    const std::string text(s);
    char* end = nullptr;
    const double d = std::strtod(text.c_str(), &end);
    if (end == text.c_str() + text.size() && std::isfinite(d)) return d;
  }
  return json::string(s);
}

std::string text_of(const unsigned char* p, std::size_t n) { return std::string(reinterpret_cast<const char*>(p), n); }
std::string text_of(const yaml_char_t* p) { return p ? std::string(reinterpret_cast<const char*>(p)) : std::string(); }

// Tags that only restate the type a scalar already has.
bool is_core_tag(std::string_view tag) { return tag == "!" || tag.rfind("tag:yaml.org,2002:", 0) == 0; }

class Parser {
 public:
  Parser(std::string_view text, ParseLimits limits) : limits_(limits) {
    yaml_parser_initialize(&parser_);
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  }
  ~Parser() { yaml_parser_delete(&parser_); }
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  json::value document() {
    Event ev = next();  // STREAM_START
    ev = next();
    if (ev.e.type == YAML_STREAM_END_EVENT) return nullptr;
    ev = next();  // first node (after DOCUMENT_START)
    if (ev.e.type == YAML_DOCUMENT_END_EVENT) return nullptr;
    return node(ev, 0);
  }

 private:
  struct Event {
    yaml_event_t e{};
    Event() = default;
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    Event& operator=(Event&& o) noexcept {
      yaml_event_delete(&e);
      e = o.e;
      o.e = yaml_event_t{};
      return *this;
    }
    Event(Event&& o) noexcept : e(o.e) { o.e = yaml_event_t{}; }
    ~Event() { yaml_event_delete(&e); }
  };
  struct Anchored {
    json::value value;
    std::size_t nodes;
  };

  Event next() {
    Event ev;
    if (!yaml_parser_parse(&parser_, &ev.e)) {
      const std::string what = parser_.problem ? parser_.problem : "invalid YAML";
      const std::string ctx = parser_.context ? std::string(" ") + parser_.context : std::string();
      throw YamlError(what + ctx, parser_.problem_mark.line + 1, parser_.problem_mark.column + 1);
    }
    return ev;
  }

  [[noreturn]] void fail(const yaml_event_t& e, const std::string& what) {
    throw YamlError(what, e.start_mark.line + 1, e.start_mark.column + 1);
  }

  void count(const yaml_event_t& e, std::size_t n) {
    nodes_ += n;
    if (nodes_ > limits_.max_nodes) fail(e, "too many nodes (aliases expand past the limit)");
  }

  json::value scalar(const yaml_event_t& e) {
    std::string value = text_of(e.data.scalar.value, e.data.scalar.length);
    const std::string tag = text_of(e.data.scalar.tag);
    if (!tag.empty() && !is_core_tag(tag)) return json::object{{tag, std::move(value)}};
    if (tag == "tag:yaml.org,2002:str" || tag == "!") return json::value(std::move(value));
    if (e.data.scalar.style != YAML_PLAIN_SCALAR_STYLE) return json::value(std::move(value));
    return resolve_plain(value);
  }

  json::value tagged(const yaml_char_t* tag, json::value v) {
    const std::string t = text_of(tag);
    if (t.empty() || is_core_tag(t)) return v;
    return json::object{{t, std::move(v)}};
  }

  json::value sequence(const yaml_event_t& start, std::size_t depth) {
    json::array out;
    for (Event ev = next(); ev.e.type != YAML_SEQUENCE_END_EVENT; ev = next()) out.push_back(node(ev, depth + 1));
    return tagged(start.data.sequence_start.tag, std::move(out));
  }

  json::value mapping(const yaml_event_t& start, std::size_t depth) {
    json::object out;
    for (Event key = next(); key.e.type != YAML_MAPPING_END_EVENT; key = next()) {
      std::string name;
      if (key.e.type == YAML_SCALAR_EVENT) {
        name = text_of(key.e.data.scalar.value, key.e.data.scalar.length);
      } else if (key.e.type == YAML_ALIAS_EVENT) {
        json::value k = alias(key.e);
        if (!k.is_string()) fail(key.e, "a mapping key must be a scalar");
        name = std::string(k.get_string());
      } else {
        fail(key.e, "a mapping key must be a scalar");
      }
      Event val = next();
      out[name] = node(val, depth + 1);
    }
    return tagged(start.data.mapping_start.tag, std::move(out));
  }

  json::value alias(const yaml_event_t& e) {
    auto it = anchors_.find(text_of(e.data.alias.anchor));
    if (it == anchors_.end()) fail(e, "unknown alias *" + text_of(e.data.alias.anchor));
    count(e, it->second.nodes);
    return it->second.value;
  }

  json::value node(Event& ev, std::size_t depth) {
    const yaml_event_t& e = ev.e;
    if (depth > limits_.max_depth) fail(e, "nested too deeply");
    const std::size_t before = nodes_;
    count(e, 1);
    json::value v;
    const yaml_char_t* anchor = nullptr;
    switch (e.type) {
      case YAML_SCALAR_EVENT:
        v = scalar(e);
        anchor = e.data.scalar.anchor;
        break;
      case YAML_SEQUENCE_START_EVENT:
        v = sequence(e, depth);
        anchor = e.data.sequence_start.anchor;
        break;
      case YAML_MAPPING_START_EVENT:
        v = mapping(e, depth);
        anchor = e.data.mapping_start.anchor;
        break;
      case YAML_ALIAS_EVENT:
        return alias(e);
      default:
        fail(e, "unexpected YAML event");
    }
    if (anchor) anchors_[text_of(anchor)] = Anchored{v, nodes_ - before};
    return v;
  }

  yaml_parser_t parser_{};
  ParseLimits limits_;
  std::size_t nodes_ = 0;
  std::map<std::string, Anchored> anchors_;
};

// --- emitting ---------------------------------------------------------------

int append_output(void* data, unsigned char* buffer, size_t size) {
  static_cast<std::string*>(data)->append(reinterpret_cast<const char*>(buffer), size);
  return 1;
}

class Emitter {
 public:
  Emitter() {
    yaml_emitter_initialize(&emitter_);
    yaml_emitter_set_output(&emitter_, append_output, &out_);
    yaml_emitter_set_unicode(&emitter_, 1);
    yaml_emitter_set_width(&emitter_, 120);
  }
  ~Emitter() { yaml_emitter_delete(&emitter_); }
  Emitter(const Emitter&) = delete;
  Emitter& operator=(const Emitter&) = delete;

  std::string run(const json::value& v) {
    yaml_event_t e;
    yaml_stream_start_event_initialize(&e, YAML_UTF8_ENCODING);
    emit(e);
    yaml_document_start_event_initialize(&e, nullptr, nullptr, nullptr, 1);
    emit(e);
    value(v);
    yaml_document_end_event_initialize(&e, 1);
    emit(e);
    yaml_stream_end_event_initialize(&e);
    emit(e);
    return std::move(out_);
  }

 private:
  void emit(yaml_event_t& e) {
    if (!yaml_emitter_emit(&emitter_, &e))
      throw std::runtime_error(std::string("YAML emitter: ") + (emitter_.problem ? emitter_.problem : "failed"));
  }

  void scalar(std::string_view text, const char* tag, yaml_scalar_style_t style) {
    yaml_event_t e;
    auto* t = reinterpret_cast<yaml_char_t*>(const_cast<char*>(tag));
    auto* v = reinterpret_cast<yaml_char_t*>(const_cast<char*>(text.data()));
    const int implicit = tag ? 0 : 1;
    yaml_scalar_event_initialize(&e, nullptr, t, v, static_cast<int>(text.size()), implicit, implicit, style);
    emit(e);
  }

  void string(std::string_view s) {
    yaml_scalar_style_t style = YAML_ANY_SCALAR_STYLE;
    if (!resolve_plain(s).is_string() || s.front() == ' ' || s.back() == ' ') style = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
    if (s.find('\n') != std::string_view::npos) style = YAML_LITERAL_SCALAR_STYLE;
    scalar(s, nullptr, style);
  }

  void value(const json::value& v) {
    if (const std::string_view tag = tag_of(v); !tag.empty()) {
      const std::string t(tag);
      const std::string text(v.get_object().begin()->value().get_string());
      return scalar(text, t.c_str(), YAML_PLAIN_SCALAR_STYLE);
    }
    yaml_event_t e;
    switch (v.kind()) {
      case json::kind::object:
        yaml_mapping_start_event_initialize(&e, nullptr, nullptr, 1, YAML_BLOCK_MAPPING_STYLE);
        emit(e);
        for (const auto& kv : v.get_object()) {
          string(kv.key());
          value(kv.value());
        }
        yaml_mapping_end_event_initialize(&e);
        return emit(e);
      case json::kind::array:
        yaml_sequence_start_event_initialize(&e, nullptr, nullptr, 1, YAML_BLOCK_SEQUENCE_STYLE);
        emit(e);
        for (const auto& item : v.get_array()) value(item);
        yaml_sequence_end_event_initialize(&e);
        return emit(e);
      case json::kind::string:
        return v.get_string().empty() ? scalar("", nullptr, YAML_DOUBLE_QUOTED_SCALAR_STYLE) : string(v.get_string());
      case json::kind::null:
        return scalar("null", nullptr, YAML_PLAIN_SCALAR_STYLE);
      default:
        return scalar(json::serialize(v), nullptr, YAML_PLAIN_SCALAR_STYLE);
    }
  }

  yaml_emitter_t emitter_{};
  std::string out_;
};

}  // namespace

json::value parse_yaml(std::string_view text, ParseLimits limits) {
  Parser parser(text, limits);
  return parser.document();
}

std::string emit_yaml(const json::value& value) {
  Emitter emitter;
  return emitter.run(value);
}

std::string_view tag_of(const json::value& value) {
  const json::object* o = value.if_object();
  if (!o || o->size() != 1) return {};
  const auto& kv = *o->begin();
  if (kv.key().empty() || kv.key().front() != '!' || !kv.value().is_string()) return {};
  return kv.key();
}

}  // namespace hamcp::yaml
