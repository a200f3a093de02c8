#include "net/http_connection.hpp"

namespace hamcp::net {

std::string bad_framing(const bhttp::fields& headers) {
  const auto count = headers.count(bhttp::field::transfer_encoding);
  if (count == 0) return {};
  if (count > 1) return "several Transfer-Encoding headers";
  std::string_view te = headers[bhttp::field::transfer_encoding];
  while (!te.empty() && (te.front() == ' ' || te.front() == '\t')) te.remove_prefix(1);
  while (!te.empty() && (te.back() == ' ' || te.back() == '\t')) te.remove_suffix(1);
  if (!beast::iequals(te, "chunked"))
    return "Transfer-Encoding '" + printable(te, 40) + "' (only chunked is supported)";
  if (headers.count(bhttp::field::content_length) != 0) return "both Transfer-Encoding and Content-Length";
  return {};
}

}  // namespace hamcp::net
