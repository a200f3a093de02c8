#include "mcp/http/generated_token.hpp"

#include <spdlog/spdlog.h>

#include "mcp/http/data_dir.hpp"
#include "mcp/http/session_token.hpp"

namespace hamcp::mcp::http {

GeneratedToken load_or_generate_token(const std::filesystem::path& data_dir) {
  GeneratedToken out;
  out.path = data_dir / "auth-token";
  auto secret = load_or_create_secret(out.path, [] {
    unsigned char raw[32];
    random_bytes(raw, sizeof raw);
    return base64url_encode(raw, sizeof raw);
  });
  out.token = std::move(secret.contents);
  out.created = secret.created;
  while (!out.token.empty() && (out.token.back() == '\n' || out.token.back() == '\r' || out.token.back() == ' ')) {
    out.token.pop_back();
  }
  return out;
}

void announce_token(const GeneratedToken& token, std::string_view bind_host, std::FILE* terminal,
                    bool terminal_is_tty) {
  if (token.created && terminal_is_tty) {
    // Shown exactly once, on the terminal, never through the logger.
    std::fprintf(terminal,
                 "\nhamcp: %.*s is not a loopback address, so clients must authenticate.\n"
                 "hamcp: generated bearer token (stored in %s, shown only now):\n\n    %s\n\n"
                 "hamcp: clients send it as: Authorization: Bearer <token>\n\n",
                 static_cast<int>(bind_host.size()), bind_host.data(), token.path.string().c_str(),
                 token.token.c_str());
    std::fflush(terminal);
    return;
  }
  if (token.created) {
    spdlog::warn(
        "http: {} is not a loopback address; generated a bearer token for clients and stored it in {} "
        "(mode 0600, not printed because stderr is not a terminal): cat {}",
        bind_host, token.path.string(), token.path.string());
    return;
  }
  spdlog::info("http: {} is not a loopback address; clients must send the bearer token stored in {}", bind_host,
               token.path.string());
}

}  // namespace hamcp::mcp::http
