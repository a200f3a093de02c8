#include "ha/ha_client.hpp"

#include <spdlog/spdlog.h>

namespace hamcp::ha {

namespace asio = boost::asio;
namespace json = boost::json;

HaClient::HaClient(asio::any_io_executor executor, ConnectionSettings settings, HaClientOptions options)
    : executor_(executor), settings_(std::move(settings)) {
  options.ws.command_timeout = settings_->request_timeout;
  rest_ = std::make_shared<RestClient>(executor_, *settings_);
  ws_ = std::make_shared<WsClient>(executor_, *settings_, options.ws);
  if (options.enable_mirror) mirror_ = std::make_unique<Mirror>(executor_, ws_, rest_, options.mirror);
}

HaClient::HaClient(asio::any_io_executor executor, HaError config_error)
    : executor_(executor), config_error_(std::move(config_error)) {}

std::unique_ptr<HaClient> HaClient::from_input(asio::any_io_executor executor, const ConnectionInput& input,
                                               HaClientOptions options) {
  auto parsed = make_connection_settings(input);
  if (auto* err = std::get_if<HaError>(&parsed)) {
    spdlog::error("Home Assistant: {}", err->message());
    return std::unique_ptr<HaClient>(new HaClient(executor, *err));
  }
  auto& settings = std::get<ConnectionSettings>(parsed);
  if (settings.token.empty()) {
    spdlog::warn("Home Assistant: {}", make_error(ErrorCause::missing_token, {}).message());
  }
  return std::make_unique<HaClient>(executor, std::move(settings), options);
}

HaClient::~HaClient() { stop(); }

void HaClient::start() {
  if (!configured()) return;
  if (settings_->insecure_tls) {
    spdlog::warn("Home Assistant: TLS certificate checks are OFF (HOMEASSISTANT_INSECURE_TLS)");
  }
  spdlog::info("Home Assistant: connecting to {} (token {})", settings_->display_url, settings_->token.redacted());
  if (mirror_) mirror_->start();
  ws_->start();
}

void HaClient::stop() {
  if (mirror_) mirror_->stop();
  if (ws_) ws_->stop();
}

void HaClient::throw_unconfigured() const { throw HaException(*config_error_); }

SnapshotPtr HaClient::snapshot() const {
  if (mirror_) return mirror_->snapshot();
  static const SnapshotPtr empty = std::make_shared<const Snapshot>();
  return empty;
}

MirrorStatus HaClient::status() const {
  if (mirror_) return mirror_->status();
  MirrorStatus s;
  s.state = MirrorState::disconnected;
  if (config_error_) {
    s.last_error = config_error_;
    s.detail = "not configured";
  } else {
    s.detail = "mirror disabled";
    s.state = ws_ && ws_->state() == WsState::connected ? MirrorState::synced : MirrorState::disconnected;
    if (ws_) s.last_error = ws_->last_error();
  }
  return s;
}

std::optional<HaError> HaClient::last_failure() const {
  if (config_error_) return config_error_;
  if (mirror_) {
    auto st = mirror_->status();
    if (st.last_error) return st.last_error;
  }
  if (ws_) return ws_->last_error();
  return std::nullopt;
}

std::size_t HaClient::add_change_listener(ChangeListener listener) {
  return mirror_ ? mirror_->add_listener(std::move(listener)) : 0;
}
void HaClient::remove_change_listener(std::size_t id) {
  if (mirror_) mirror_->remove_listener(id);
}

asio::awaitable<bool> HaClient::wait_synced(std::chrono::milliseconds timeout) {
  if (!mirror_) co_return false;
  co_return co_await mirror_->wait_synced(timeout);
}

asio::awaitable<json::value> HaClient::command(json::object message, std::optional<std::chrono::milliseconds> timeout) {
  if (!configured()) throw_unconfigured();
  co_return co_await ws_->command(std::move(message), timeout);
}

asio::awaitable<json::value> HaClient::call_service(ServiceCall call) {
  if (!configured()) throw_unconfigured();
  json::object msg;
  msg["type"] = "call_service";
  msg["domain"] = call.domain;
  msg["service"] = call.service;
  if (!call.data.empty()) msg["service_data"] = std::move(call.data);
  if (!call.target.empty()) msg["target"] = std::move(call.target);
  if (call.return_response) msg["return_response"] = true;
  co_return co_await ws_->command(std::move(msg), call.timeout);
}

asio::awaitable<std::uint64_t> HaClient::subscribe(json::object message, WsClient::EventHandler handler) {
  if (!configured()) throw_unconfigured();
  co_return co_await ws_->subscribe(std::move(message), std::move(handler));
}

asio::awaitable<void> HaClient::unsubscribe(std::uint64_t handle) {
  if (!configured()) throw_unconfigured();
  co_await ws_->unsubscribe(handle);
}

asio::awaitable<Response> HaClient::rest_get(std::string path, RequestOptions options) {
  if (!configured()) throw_unconfigured();
  co_return co_await rest_->get(std::move(path), options);
}

asio::awaitable<Response> HaClient::rest_post(std::string path, json::value body, RequestOptions options) {
  if (!configured()) throw_unconfigured();
  co_return co_await rest_->post(std::move(path), std::move(body), options);
}

asio::awaitable<json::value> HaClient::rest_get_json(std::string path, RequestOptions options) {
  if (!configured()) throw_unconfigured();
  co_return co_await rest_->get_json(std::move(path), options);
}

asio::awaitable<json::value> HaClient::rest_post_json(std::string path, json::value body, RequestOptions options) {
  if (!configured()) throw_unconfigured();
  co_return co_await rest_->post_json(std::move(path), std::move(body), options);
}

}  // namespace hamcp::ha
