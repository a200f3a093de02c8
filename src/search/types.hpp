#pragma once
// Input and output types of the entity search engine. hamcp's own document
// type, independent of the HA mirror (src/ha converts its records into it).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace hamcp::search {

struct EntityDoc {
  std::string entity_id;             // "light.bed_light" (required, unique key)
  std::string domain;                // empty: taken from entity_id
  std::string friendly_name;         // state attribute friendly_name
  std::string registry_name;         // entity registry "name" (user override)
  std::string original_name;         // entity registry "original_name" (integration default)
  std::vector<std::string> aliases;  // entity registry aliases
  std::string area_id;
  std::string area_name;
  std::vector<std::string> area_aliases;
  std::string floor_id;
  std::string floor_name;
  std::vector<std::string> floor_aliases;
  std::string device_id;
  std::string device_name;  // name_by_user, else name
  std::string manufacturer;
  std::string model;
  std::vector<std::string> labels;  // label names (ids are accepted by filters too if given here)
  std::string device_class;
  std::string state;
  bool hidden = false;
  bool disabled = false;
};

// Which part of a document a hit matched, reported in Hit::matched_field.
enum class Field : unsigned char {
  entity_id,  // exact entity_id
  object_id,  // entity_id split into words ("bed light") and joined ("bedlight")
  friendly_name,
  registry_name,
  original_name,
  alias,
  area,    // area name and area aliases
  floor,   // floor name and floor aliases
  device,  // device name
  manufacturer,
  model,
  label,
  domain,
  device_class,
};
inline constexpr int kFieldCount = 14;

const char* field_name(Field f);

struct Query {
  std::string text;                   // free text; empty = list by filters
  std::optional<std::string> domain;  // exact filters (case/diacritic-insensitive)
  std::optional<std::string> area;    // area id, name or alias
  std::optional<std::string> floor;   // floor id, name or alias
  std::optional<std::string> label;   // label name
  std::optional<std::string> state;
  std::optional<std::string> device_class;
  std::size_t limit = 10;
  std::size_t offset = 0;
  bool include_hidden = false;  // hidden and disabled entities are skipped unless set
};

struct Hit {
  std::string entity_id;
  double score = 0;           // 0..100; 100 only for an exact entity_id; rounded to 0.01
  std::string matched_field;  // field_name() of the field that matched best ("" for filter-only listing)
  std::string matched_text;   // that field's original text
};

struct Result {
  std::vector<Hit> hits;
  std::size_t total = 0;  // every entity that matched (before offset/limit)
  bool has_more = false;  // offset + hits.size() < total
};

}  // namespace hamcp::search
