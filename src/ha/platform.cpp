#include "ha/platform.hpp"

#include <atomic>

namespace hamcp::ha {
namespace {
#if defined(__APPLE__)
constexpr bool kCompiledForMacos = true;
#else
constexpr bool kCompiledForMacos = false;
#endif
// -1 = no override, 0/1 = forced value.
std::atomic<int> g_macos_override{-1};
}  // namespace

bool platform_is_macos() noexcept {
  const int forced = g_macos_override.load(std::memory_order_relaxed);
  return forced < 0 ? kCompiledForMacos : forced == 1;
}

void set_platform_is_macos_for_testing(std::optional<bool> value) noexcept {
  g_macos_override.store(value ? (*value ? 1 : 0) : -1, std::memory_order_relaxed);
}

bool is_private_lan_address(const boost::asio::ip::address& address) noexcept {
  if (address.is_v6()) {
    const auto v6 = address.to_v6();
    if (v6.is_v4_mapped()) {
      return is_private_lan_address(boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, v6));
    }
    const auto bytes = v6.to_bytes();
    if ((bytes[0] & 0xfe) == 0xfc) return true;                      // fc00::/7 unique local
    if (bytes[0] == 0xfe && (bytes[1] & 0xc0) == 0x80) return true;  // fe80::/10 link local
    return false;
  }
  const auto b = address.to_v4().to_bytes();
  if (b[0] == 10) return true;                          // 10/8
  if (b[0] == 172 && (b[1] & 0xf0) == 16) return true;  // 172.16/12
  if (b[0] == 192 && b[1] == 168) return true;          // 192.168/16
  if (b[0] == 169 && b[1] == 254) return true;          // 169.254/16
  return false;
}

}  // namespace hamcp::ha

#include <mutex>

namespace hamcp::ha {
namespace {
std::mutex g_hook_mutex;
ConnectHook g_connect_hook;
}  // namespace

void set_connect_hook_for_testing(ConnectHook hook) {
  std::lock_guard lock(g_hook_mutex);
  g_connect_hook = std::move(hook);
}

boost::system::error_code run_connect_hook(const boost::asio::ip::tcp::endpoint& endpoint) {
  std::lock_guard lock(g_hook_mutex);
  if (!g_connect_hook) return {};
  return g_connect_hook(endpoint);
}

}  // namespace hamcp::ha
