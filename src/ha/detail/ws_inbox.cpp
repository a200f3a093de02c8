#include "ha/detail/ws_inbox.hpp"

#include <spdlog/spdlog.h>

#include "ha/detail/deep_frame.hpp"
#include "ha/detail/ha_json.hpp"

namespace hamcp::ha::detail {
namespace json = boost::json;
namespace beast = boost::beast;

namespace {

void release(beast::flat_buffer& buffer) {
  buffer.clear();
  buffer.shrink_to_fit();
}

bool is_event(const json::object& m) {
  const auto* t = m.if_contains("type");
  return t && *t == "event";
}

bool is_event(const json::value& m) {
  const auto* o = m.if_object();
  return o && is_event(*o);
}

std::optional<std::uint64_t> message_id(const json::value& v) {
  if (v.is_uint64()) return v.as_uint64();
  if (v.is_int64()) return static_cast<std::uint64_t>(v.as_int64());
  return std::nullopt;
}

}  // namespace

std::shared_ptr<Slot> WsInbox::receive(beast::flat_buffer& buffer) {
  auto slot = std::make_shared<Slot>();
  const std::size_t size = buffer.size();
  if (size >= offload_parse_bytes_) {
    queue_.push_back(slot);
    return slot;
  }
  std::string_view text(static_cast<const char*>(buffer.data().data()), size);
  parse(*slot, text);
  release(buffer);
  slot->ready = true;
  if (!queue_.empty() && !slot->parse_error) {
    // A big frame is still being parsed: answers to commands must not wait
    // for it; events keep their order behind it.
    dispatch_non_events(*slot);
  }
  queue_.push_back(slot);
  drain();
  return nullptr;
}

void WsInbox::parse(Slot& slot, std::string_view text) {
  boost::system::error_code ec;
  slot.value = parse_ha_json(text, ec);
  if (ec == json::error::too_deep) {
    // Only some message of the frame is too deep: reject that one alone and
    // keep the connection (dropping it failed everything in flight and, for
    // a subscription's initial event, reconnected into the same frame).
    if (auto deep = salvage_deep_frame(text)) {
      slot.value = std::move(deep->whole);
      slot.too_deep = std::move(deep->too_deep);
      return;
    }
  }
  if (ec) slot.parse_error = ec.message() + " in a frame of " + std::to_string(text.size()) + " bytes";
}

void WsInbox::parsed(const std::shared_ptr<Slot>& slot) {
  slot->ready = true;
  drain();
}

void WsInbox::reset() {
  queue_.clear();
  protocol_failure_.reset();
}

// Pull results/pongs out of a slot and dispatch them now, leaving events.
void WsInbox::dispatch_non_events(Slot& slot) {
  std::vector<json::object> deep_events;
  for (auto& m : slot.too_deep) {
    if (is_event(m)) {
      deep_events.push_back(std::move(m));
    } else {
      reject_too_deep(m);
    }
  }
  slot.too_deep = std::move(deep_events);
  if (slot.value.is_array()) {
    json::array keep;
    for (auto& m : slot.value.as_array()) {
      if (is_event(m))
        keep.push_back(std::move(m));
      else
        dispatch_message(m);
    }
    slot.value = std::move(keep);
  } else if (!is_event(slot.value)) {
    dispatch_message(slot.value);
    slot.value = json::array();
  }
}

void WsInbox::drain() {
  while (!queue_.empty() && queue_.front()->ready) {
    auto slot = queue_.front();
    queue_.pop_front();
    if (slot->parse_error) {
      // Unknown which command or event it carried: drop the connection, fail
      // what is in flight (retryable) and resync on reconnect.
      protocol_failure_ = "Home Assistant sent a malformed JSON frame: " + *slot->parse_error;
      if (auto suffix = frame_log_.admit(*protocol_failure_)) spdlog::error("ha ws: {}{}", *protocol_failure_, *suffix);
      queue_.clear();
      return;
    }
    if (slot->value.is_array()) {
      for (auto& m : slot->value.as_array()) dispatch_message(m);
    } else {
      dispatch_message(slot->value);
    }
    for (auto& m : slot->too_deep) reject_too_deep(m);
  }
}

// A message nesting deeper than kHaJsonMaxDepth (only its top-level scalars
// are left): the command it answers fails on its own, an event is skipped
// and counted. Either way the connection and everything else in flight stay.
void WsInbox::reject_too_deep(const json::object& m) {
  const auto* idv = m.if_contains("id");
  std::string what;
  if (is_event(m)) {
    too_deep_events_.fetch_add(1);
    what = "skipped an event that nests deeper than " + std::to_string(kHaJsonMaxDepth) + " levels";
  } else if (auto id = idv ? message_id(*idv) : std::nullopt) {
    auto waiter = calls_.take_waiter(*id);
    if (!waiter) return;
    what = "Home Assistant's answer to command " + std::to_string(*id) + " nests deeper than " +
           std::to_string(kHaJsonMaxDepth) + " levels, more than hamcp reads; the connection stays up";
    waiter->error = make_error(ErrorCause::protocol_error, settings_.ws_url(), what);
    waiter->timer.cancel();
  } else {
    return;
  }
  if (auto suffix = frame_log_.admit(what)) spdlog::warn("ha ws: {}{}", what, *suffix);
}

// Consumes m: command results and events are moved out, not copied (a
// registry list or the initial states of a big home is tens of MB).
void WsInbox::dispatch_message(json::value& m) {
  auto* o = m.if_object();
  if (!o) return;
  const auto* type = o->if_contains("type");
  const auto* idv = o->if_contains("id");
  if (!type || !type->is_string() || !idv) return;
  const std::uint64_t id = message_id(*idv).value_or(0);
  const std::string_view t = type->as_string();
  if (t == "event") {
    deliver_event(id, *o);
  } else if (t == "result" || t == "pong") {
    deliver_result(id, t, *o);
  }
}

void WsInbox::deliver_event(std::uint64_t wire_id, json::object& m) {
  Subscription* sub = calls_.subscription_for_event(wire_id);
  if (!sub) return;
  const bool first = sub->first;
  sub->first = false;
  json::value empty;
  auto* ev = m.if_contains("event");
  try {
    sub->handler(ev ? *ev : empty, first);
  } catch (const std::exception& e) {
    spdlog::error("ha ws: event handler threw: {}", e.what());
  }
}

void WsInbox::deliver_result(std::uint64_t id, std::string_view type, json::object& m) {
  auto waiter = calls_.take_waiter(id);
  if (!waiter) return;
  const auto* success = m.if_contains("success");
  if (type == "pong") {
    waiter->result = json::value(nullptr);
  } else if (success && success->is_bool() && success->as_bool()) {
    auto* r = m.if_contains("result");
    waiter->result = r ? std::move(*r) : json::value(nullptr);
  } else {
    HaError err = make_error(ErrorCause::command_failed, settings_.display_url);
    if (const auto* e = m.if_contains("error"); e && e->is_object()) {
      // HA's words go into tool output and logs: an HA that echoes the token must not leak it.
      if (const auto* c = e->as_object().if_contains("code"); c && c->is_string()) {
        err.ha_code = settings_.token.scrub(std::string(c->as_string()));
      }
      if (const auto* msg = e->as_object().if_contains("message"); msg && msg->is_string()) {
        err.detail = settings_.token.scrub(std::string(msg->as_string()));
      }
    }
    waiter->error = std::move(err);
  }
  waiter->timer.cancel();
}

}  // namespace hamcp::ha::detail
