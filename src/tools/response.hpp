#pragma once
// Response shaping shared by the entity tools: compact JSON without nulls,
// `fields` projection, and a per-response byte budget that cuts lists with an
// explicit truncation notice and the offset to continue from.

#include <boost/json.hpp>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/tool.hpp"

namespace hamcp::tools {

namespace json = boost::json;

// Default byte budget of one tool response (the structuredContent's JSON).
// ~16 KB ≈ 4k tokens: big enough for 50 search hits, small enough that a
// model's context never drowns (the peer returned 14-43 KB per search).
inline constexpr std::size_t kDefaultResponseBudget = std::size_t{16} * 1024;

// Removes null members from objects, recursively (arrays keep their length).
void drop_nulls(json::value& v);

// Keeps only the listed members of `item`. A dotted name ("attributes.brightness")
// keeps one member of a nested object. Unknown names are ignored.
json::object project(const json::object& item, const std::vector<std::string>& fields);

// Reads an argument that may be a string or an array of strings.
std::vector<std::string> string_list(const json::value* v);

// Size of v as compact JSON (serialises it: exact, and items are small).
std::size_t json_size(const json::value& v);

// Collects list items until the byte budget is spent. The first item is
// always taken (a response must make progress), later ones only if they fit.
class PageWriter {
 public:
  explicit PageWriter(std::size_t budget_bytes) : budget_(budget_bytes) {}
  // false: budget exhausted, item not added (and every later add() is refused).
  bool add(json::value item);
  bool budget_cut() const noexcept { return cut_; }
  std::size_t count() const noexcept { return items_.size(); }
  std::size_t bytes() const noexcept { return used_; }
  json::array take() { return std::move(items_); }

 private:
  std::size_t budget_;
  std::size_t used_ = 0;
  bool cut_ = false;
  json::array items_;
};

// Pagination members: total, offset (when > 0), has_more, next_offset (when
// more), and "truncated" + "notice" when the byte budget (not the limit) cut
// the page.
void put_page_info(json::object& body, std::size_t offset, std::size_t returned, std::size_t total, bool budget_cut);

// Successful result: nulls dropped, compact JSON text + structuredContent.
mcp::ToolResult ok(json::object body);

}  // namespace hamcp::tools
