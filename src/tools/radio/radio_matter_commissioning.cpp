// radio=matter commissioning (components/matter/api.py): commission (a setup
// code: 11/21-digit manual code or "MT:" QR payload), commission_on_network
// (a PIN, optionally the device's IP), share_out (opens the node's
// commissioning window for another controller and returns its codes),
// set_thread (a stored Thread dataset by params.dataset_id, or raw TLVs) and
// set_wifi_credentials (the password is never echoed).
#include "tools/radio/radio_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::radio {

namespace {

namespace asio = boost::asio;

const Radio& matter() { return *find_radio("matter"); }

asio::awaitable<json::object> sent(ToolEnv& env, json::object message, json::object out) {
  auto asking = command(env, matter(), std::move(message));
  co_await std::move(asking);
  out["done"] = true;
  co_return out;
}

}  // namespace

asio::awaitable<json::object> matter_commission(Args& args, ToolEnv& env) {
  const std::string code = param_str(args, "code");
  json::object message{{"type", "matter/commission"}, {"code", code}};
  if (const json::value* only = param(args, "network_only"); only && only->is_bool())
    message["network_only"] = only->get_bool();
  json::object out{{"commissioned", true},
                   {"hint", "The new device appears in Home Assistant once its interview ends."}};
  return sent(env, std::move(message), std::move(out));
}

asio::awaitable<json::object> matter_commission_on_network(Args& args, ToolEnv& env) {
  const std::int64_t pin = param_int(args, "pin");
  json::object message{{"type", "matter/commission_on_network"}, {"pin", pin}};
  if (param(args, "ip_addr")) message["ip_addr"] = param_str(args, "ip_addr");
  return sent(env, std::move(message), json::object{{"commissioned", true}});
}

asio::awaitable<json::object> matter_share_out(Args& args, ToolEnv& env) {
  auto finding = device_arg(args, env, matter());
  const Device device = co_await std::move(finding);
  auto asking =
      command(env, matter(), json::object{{"type", "matter/open_commissioning_window"}, {"device_id", device.id}});
  json::value window = co_await std::move(asking);
  json::object out{{"done", true}, {"device_id", device.id}, {"name", device.name}};
  if (json::object* o = window.if_object())
    for (auto& [k, v] : *o) out[k] = std::move(v);
  out["hint"] = "Enter setup_manual_code (or scan setup_qr_code) in the other controller's app within a few minutes.";
  co_return out;
}

asio::awaitable<json::object> matter_set_thread(Args& args, ToolEnv& env) {
  std::string tlv;
  json::object out;
  if (param(args, "dataset_id")) {
    const std::string dataset_id = param_str(args, "dataset_id");
    const Radio& thread = *find_radio("thread");
    auto reading = command(env, thread, json::object{{"type", "thread/get_dataset_tlv"}, {"dataset_id", dataset_id}});
    const json::value answer = co_await std::move(reading);
    tlv = std::string(answer.at("tlv").as_string());
    out["dataset_id"] = dataset_id;
  } else {
    tlv = param_str(args, "tlv");
  }
  auto setting = command(env, matter(), json::object{{"type", "matter/set_thread"}, {"thread_operation_dataset", tlv}});
  co_await std::move(setting);
  out["done"] = true;
  out["note"] = "Matter commissions new Thread devices into this network; devices already joined stay.";
  co_return out;
}

asio::awaitable<json::object> matter_set_wifi_credentials(Args& args, ToolEnv& env) {
  const std::string ssid = param_str(args, "network_name");
  json::object message{
      {"type", "matter/set_wifi_credentials"}, {"network_name", ssid}, {"password", param_str(args, "password")}};
  return sent(env, std::move(message), json::object{{"network_name", ssid}, {"password_set", true}});
}

}  // namespace hamcp::tools::radio
