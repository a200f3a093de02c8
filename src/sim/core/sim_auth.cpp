#include "sim/core/sim_auth.hpp"

#include <random>

namespace hamcp::sim {
namespace {

std::string random_hex(std::size_t bytes) {
  static thread_local std::random_device device;
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < bytes; ++i) {
    const auto b = static_cast<unsigned>(device()) & 0xffu;
    out += digits[b >> 4];
    out += digits[b & 0xfu];
  }
  return out;
}

}  // namespace

SimAuth::SimAuth() {
  // The demo's people: the owner (admin) and a family member without admin rights.
  add_user({"c0ffee00000000000000000000000001", "Owner", "owner", "owner-password", true});
  add_user({"c0ffee00000000000000000000000002", "Guest", "guest", "guest-password", false});
}

void SimAuth::add_user(SimUser user) {
  std::lock_guard lock(mutex_);
  users_[user.username] = std::move(user);
}

std::string SimAuth::start_flow(std::string client_id, std::string redirect_uri) {
  std::lock_guard lock(mutex_);
  std::string id = random_hex(16);
  flows_[id] = Flow{std::move(client_id), std::move(redirect_uri)};
  return id;
}

std::optional<SimAuth::Flow> SimAuth::flow(std::string_view flow_id) const {
  std::lock_guard lock(mutex_);
  auto it = flows_.find(flow_id);
  if (it == flows_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> SimAuth::finish_flow(std::string_view flow_id, std::string_view username,
                                                std::string_view password) {
  std::lock_guard lock(mutex_);
  auto flow = flows_.find(flow_id);
  auto user = users_.find(username);
  if (flow == flows_.end() || user == users_.end() || user->second.password != password) return std::nullopt;
  std::string code = random_hex(16);
  codes_[code] = Grant{flow->second.client_id, user->second.id};
  flows_.erase(flow);
  return code;
}

std::optional<SimAuth::Tokens> SimAuth::exchange_code(std::string_view client_id, std::string_view code) {
  std::lock_guard lock(mutex_);
  auto it = codes_.find(code);
  if (it == codes_.end() || it->second.client_id != client_id) return std::nullopt;
  Tokens tokens{random_hex(32), random_hex(64)};
  refresh_[tokens.refresh_token] = it->second;
  access_[tokens.access_token] = tokens.refresh_token;
  codes_.erase(it);
  return tokens;
}

std::optional<std::string> SimAuth::refresh(std::string_view client_id, std::string_view refresh_token) {
  std::lock_guard lock(mutex_);
  auto it = refresh_.find(refresh_token);
  if (it == refresh_.end() || it->second.client_id != client_id) return std::nullopt;
  std::string access = random_hex(32);
  access_[access] = it->first;
  return access;
}

void SimAuth::revoke(std::string_view refresh_token) {
  std::lock_guard lock(mutex_);
  refresh_.erase(std::string(refresh_token));
  std::erase_if(access_, [&](const auto& entry) { return entry.second == refresh_token; });
}

std::optional<SimUser> SimAuth::user_of(std::string_view access_token) const {
  std::lock_guard lock(mutex_);
  auto access = access_.find(access_token);
  if (access == access_.end()) return std::nullopt;
  auto grant = refresh_.find(access->second);
  if (grant == refresh_.end()) return std::nullopt;
  for (const auto& [name, user] : users_)
    if (user.id == grant->second.user_id) return user;
  return std::nullopt;
}

}  // namespace hamcp::sim
