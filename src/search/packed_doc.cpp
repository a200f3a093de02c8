#include "search/packed_doc.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

namespace hamcp::search {
namespace {

// Length prefix: one byte below 255, else 255 and four bytes.
void put_text(std::string& out, std::string_view s) {
  if (s.size() < 255) {
    out.push_back(static_cast<char>(s.size()));
  } else {
    out.push_back(static_cast<char>(255));
    const auto n = static_cast<std::uint32_t>(s.size());
    out.append(reinterpret_cast<const char*>(&n), sizeof n);
  }
  out.append(s);
}

void put_list(std::string& out, const std::vector<std::string>& v) {
  const auto n = static_cast<std::uint32_t>(v.size());
  out.append(reinterpret_cast<const char*>(&n), sizeof n);
  for (const auto& s : v) put_text(out, s);
}

class Reader {
 public:
  explicit Reader(std::string_view bytes) : at_(bytes.data()) {}
  std::string_view text() {
    std::uint32_t n = static_cast<unsigned char>(*at_++);
    if (n == 255) {
      std::memcpy(&n, at_, sizeof n);
      at_ += sizeof n;
    }
    std::string_view s(at_, n);
    at_ += n;
    return s;
  }
  std::vector<std::string> list() {
    std::uint32_t n;
    std::memcpy(&n, at_, sizeof n);
    at_ += sizeof n;
    std::vector<std::string> v;
    v.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) v.emplace_back(text());
    return v;
  }

 private:
  const char* at_;  // our own packing: every read stays inside it
};

}  // namespace

PackedDoc::PackedDoc(const EntityDoc& d) : hidden_(d.hidden), disabled_(d.disabled) {
  std::string out;
  out.reserve(64 + d.entity_id.size() + d.friendly_name.size() + d.area_name.size() + d.device_name.size());
  for (const std::string* s : {&d.entity_id, &d.domain, &d.friendly_name, &d.registry_name, &d.original_name})
    put_text(out, *s);
  put_list(out, d.aliases);
  put_text(out, d.area_id);
  put_text(out, d.area_name);
  put_list(out, d.area_aliases);
  put_text(out, d.floor_id);
  put_text(out, d.floor_name);
  put_list(out, d.floor_aliases);
  for (const std::string* s : {&d.device_id, &d.device_name, &d.manufacturer, &d.model}) put_text(out, *s);
  put_list(out, d.labels);
  put_text(out, d.device_class);
  put_text(out, d.state);
  out.shrink_to_fit();
  bytes_ = std::move(out);
}

EntityDoc PackedDoc::unpack() const {
  EntityDoc d;
  if (bytes_.empty()) return d;
  Reader r(bytes_);
  for (std::string* s : {&d.entity_id, &d.domain, &d.friendly_name, &d.registry_name, &d.original_name}) *s = r.text();
  d.aliases = r.list();
  d.area_id = r.text();
  d.area_name = r.text();
  d.area_aliases = r.list();
  d.floor_id = r.text();
  d.floor_name = r.text();
  d.floor_aliases = r.list();
  for (std::string* s : {&d.device_id, &d.device_name, &d.manufacturer, &d.model}) *s = r.text();
  d.labels = r.list();
  d.device_class = r.text();
  d.state = r.text();
  d.hidden = hidden_;
  d.disabled = disabled_;
  return d;
}

std::string_view PackedDoc::entity_id() const {
  if (bytes_.empty()) return {};
  return Reader(bytes_).text();
}

}  // namespace hamcp::search
