#pragma once
// Facts about the machine that change how connection failures are explained.
// Tests flip the platform to exercise the macOS diagnosis on Linux, without
// ever touching a LAN address.

#include <boost/asio/ip/address.hpp>
#include <optional>

namespace hamcp::ha {

// True on macOS (compile time) unless overridden.
bool platform_is_macos() noexcept;
// Test hook: force the answer (nullopt restores the compile-time value).
void set_platform_is_macos_for_testing(std::optional<bool> value) noexcept;

// 10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7, fe80::/10 (and IPv4-mapped
// forms): the addresses macOS "Local Network" privacy guards.
bool is_private_lan_address(const boost::asio::ip::address& address) noexcept;

}  // namespace hamcp::ha

#include <boost/asio/ip/tcp.hpp>
#include <boost/system/error_code.hpp>
#include <functional>

namespace hamcp::ha {

// Test hook: consulted before every TCP connect. Returning an error makes the
// connect fail with it without touching the network, so tests can reproduce
// LAN failures (EHOSTUNREACH to 192.168.x.y) on loopback-only machines.
using ConnectHook = std::function<boost::system::error_code(const boost::asio::ip::tcp::endpoint&)>;
void set_connect_hook_for_testing(ConnectHook hook);
boost::system::error_code run_connect_hook(const boost::asio::ip::tcp::endpoint& endpoint);

}  // namespace hamcp::ha
