#include "ha/detail/ws_inbox.hpp"

#include <spdlog/spdlog.h>

#include <boost/json/serialize.hpp>

#include "ha/detail/deep_frame.hpp"
#include "ha/detail/ha_json.hpp"
#include "ha/detail/json_items.hpp"

namespace hamcp::ha::detail {
namespace json = boost::json;
namespace beast = boost::beast;

namespace {

bool is_event(const json::object& m) {
  const auto* t = m.if_contains("type");
  return t && *t == "event";
}

bool is_event(const json::value& m) {
  const auto* o = m.if_object();
  return o && is_event(*o);
}

// Home Assistant writes a successful result as exactly this, then the result,
// then "}" (websocket_api/messages.py: result_message and its cached-JSON
// twin). Any other layout takes the parsed path.
constexpr std::string_view kIdPrefix = R"({"id":)";
constexpr std::string_view kResultInfix = R"(,"type":"result","success":true,"result":)";

// The id of a frame that is one successful result in HA's layout, and where
// its result's text starts.
std::optional<std::pair<std::uint64_t, std::size_t>> result_frame(std::string_view frame) {
  if (frame.substr(0, kIdPrefix.size()) != kIdPrefix) return std::nullopt;
  std::size_t at = kIdPrefix.size();
  std::uint64_t id = 0;
  const std::size_t digits_from = at;
  while (at < frame.size() && at - digits_from < 19 && frame[at] >= '0' && frame[at] <= '9') {
    id = id * 10 + static_cast<std::uint64_t>(frame[at++] - '0');
  }
  if (at == digits_from || frame.substr(at, kResultInfix.size()) != kResultInfix) return std::nullopt;
  return std::make_pair(id, at + kResultInfix.size());
}

std::optional<std::uint64_t> message_id(const json::value& v) {
  if (v.is_uint64()) return v.as_uint64();
  if (v.is_int64()) return static_cast<std::uint64_t>(v.as_int64());
  return std::nullopt;
}

}  // namespace

std::vector<ParseJob> WsInbox::receive(beast::flat_buffer& buffer) {
  std::vector<ParseJob> jobs;
  if (split_coalesced(buffer, jobs)) return jobs;
  auto slot = std::make_shared<Slot>();
  const std::string_view text(static_cast<const char*>(buffer.data().data()), buffer.size());
  if (auto head = result_frame(text); head && calls_.wants_text(head->first)) {
    slot->raw_for = head->first;
    slot->raw_offset = head->second;
  }
  // Moving the buffer keeps its memory: text stays valid.
  auto frame = std::make_shared<beast::flat_buffer>(std::move(buffer));
  if (text.size() >= offload_parse_bytes_) {
    queue_.push_back(slot);
    jobs.push_back(ParseJob{slot, std::move(frame), text});
    return jobs;
  }
  parse(*slot, frame, text);
  frame.reset();
  enqueue_ready(slot);
  drain();
  return jobs;
}

void WsInbox::enqueue_ready(const std::shared_ptr<Slot>& slot) {
  slot->ready = true;
  if (!queue_.empty() && !slot->parse_error) {
    // A big frame is still being parsed: answers to commands must not wait
    // for it; events keep their order behind it.
    dispatch_non_events(*slot);
  }
  queue_.push_back(slot);
}

// A result a command_raw() waits for is handed over as the frame's own bytes
// when the frame is exactly {"id":N,...,"result":<value>} (the value's end
// found by its structure: its one consumer, the registry decode, parses every
// item of it and fails on what is not JSON); otherwise it is parsed as usual.
namespace {

bool take_result_text(Slot& slot, const std::shared_ptr<beast::flat_buffer>& frame, std::string_view text) {
  const std::string_view rest = text.substr(slot.raw_offset);
  const auto length = json_value_extent(rest);  // a second walk of a 55 MB list: ~35 ms
  if (!length) return false;
  const std::size_t close = rest.find_first_not_of(" \t\r\n", *length);
  if (close == std::string_view::npos || rest[close] != '}' ||
      rest.find_first_not_of(" \t\r\n", close + 1) != std::string_view::npos) {
    return false;
  }
  slot.raw = RawResult{frame, rest.substr(0, *length)};
  return true;
}

// The same for a message whose structure was walked already (a coalesced
// frame's): last_value_at is where its last member's value starts. When that
// is the result, the result runs to the message's closing brace; otherwise
// (a member after it) the message is parsed. What is not JSON inside that
// span fails the decode, as a result cut by its own walk does.
bool take_result_text(Slot& slot, const std::shared_ptr<beast::flat_buffer>& frame, std::string_view message,
                      std::size_t last_value_at) {
  if (last_value_at != slot.raw_offset || message.back() != '}') return false;
  std::string_view result = message.substr(slot.raw_offset, message.size() - 1 - slot.raw_offset);
  result = result.substr(0, result.find_last_not_of(" \t\r\n") + 1);  // npos + 1 == 0: an empty result
  if (!result.empty() && std::string_view(" \t\r\n").find(result.front()) != std::string_view::npos)
    return false;  // as the walk above: a result after a blank is parsed
  slot.raw = RawResult{frame, result};
  return true;
}

// One message of a coalesced frame and where its last member's value starts.
struct Message {
  std::string_view text;
  std::size_t last_value_at = 0;
};

// The messages of a coalesced frame ([msg,msg,...]), each delimited by its
// structure (each is parsed afterwards, or decoded as a raw result); nullopt
// when the frame is not an array of such values.
std::optional<std::vector<Message>> coalesced_messages(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n";
  std::size_t at = text.find_first_not_of(kSpace);
  if (at == std::string_view::npos || text[at] != '[') return std::nullopt;
  std::vector<Message> out;
  at = text.find_first_not_of(kSpace, at + 1);
  while (at != std::string_view::npos && text[at] != ']') {
    std::size_t last_value_at = 0;
    const auto length = json_value_extent(text.substr(at), last_value_at);
    if (!length || *length == 0) return std::nullopt;
    out.push_back(Message{text.substr(at, *length), last_value_at});
    at = text.find_first_not_of(kSpace, at + *length);
    if (at != std::string_view::npos && text[at] == ',') at = text.find_first_not_of(kSpace, at + 1);
  }
  if (at == std::string_view::npos || text.find_first_not_of(kSpace, at + 1) != std::string_view::npos)
    return std::nullopt;
  return out;
}

}  // namespace

// HA coalesces what is queued into one array frame: a subscription's result
// with its big initial event, or two registry lists in flight together.
// Parsed whole, such a frame held the small answers back until the big
// message was parsed, and turned registry lists into one DOM serialised back
// to text for command_raw(). A big one with more than one message (or a
// result a command_raw() waits for) is split: one slot per message, in
// order; waited-for results are views into the frame, big messages are
// parsed elsewhere (jobs), the rest here.
bool WsInbox::split_coalesced(beast::flat_buffer& buffer, std::vector<ParseJob>& jobs) {
  const std::string_view text(static_cast<const char*>(buffer.data().data()), buffer.size());
  if (text.size() < offload_parse_bytes_ || text.empty() || text.front() != '[') return false;
  const auto messages = coalesced_messages(text);
  if (!messages || messages->empty()) return false;
  if (messages->size() == 1) {
    const auto head = result_frame(messages->front().text);
    if (!head || !calls_.wants_text(head->first)) return false;
  }
  // Moving the buffer keeps its memory: the views stay valid.
  const auto frame = std::make_shared<beast::flat_buffer>(std::move(buffer));
  for (const Message& message : *messages) {
    const std::string_view m = message.text;
    auto slot = std::make_shared<Slot>();
    if (const auto head = result_frame(m); head && calls_.wants_text(head->first)) {
      slot->raw_for = head->first;
      slot->raw_offset = head->second;
      if (take_result_text(*slot, frame, m, message.last_value_at)) {
        enqueue_ready(slot);
        continue;
      }
    }
    if (m.size() >= offload_parse_bytes_) {
      queue_.push_back(slot);
      jobs.push_back(ParseJob{slot, frame, m});
      continue;
    }
    parse_text(*slot, m);
    enqueue_ready(slot);
  }
  drain();
  return true;
}

void WsInbox::parse(Slot& slot, const std::shared_ptr<beast::flat_buffer>& frame, std::string_view text) {
  if (slot.raw_for && take_result_text(slot, frame, text)) return;
  parse_text(slot, text);
}

void WsInbox::parse_text(Slot& slot, std::string_view text) {
  boost::system::error_code ec;
  adopt_value(slot.value, parse_ha_json(text, ec));
  if (ec == json::error::too_deep) {
    // Only some message of the frame is too deep: reject that one alone and
    // keep the connection (dropping it failed everything in flight and, for
    // a subscription's initial event, reconnected into the same frame).
    if (auto deep = salvage_deep_frame(text)) {
      adopt_value(slot.value, json::value(std::move(deep->whole)));
      slot.too_deep = std::move(deep->too_deep);
      return;
    }
  }
  if (ec) slot.parse_error = ec.message() + " in a frame of " + std::to_string(text.size()) + " bytes";
}

void WsInbox::deliver_raw(Slot& slot) {
  auto waiter = calls_.take_waiter(*slot.raw_for);
  if (waiter) {
    waiter->raw_result = std::move(*slot.raw);
    waiter->timer.cancel();
  }
  slot.raw.reset();
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
  if (slot.raw) return deliver_raw(slot);  // the frame is that one result
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
    json::array keep(slot.value.storage());  // the message's own storage: moves, not copies
    for (auto& m : slot.value.as_array()) {
      if (is_event(m))
        keep.push_back(std::move(m));
      else
        dispatch_message(m);
    }
    adopt_value(slot.value, json::value(std::move(keep)));
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
    if (slot->raw) {
      deliver_raw(*slot);
      continue;
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
  // An event confirms its subscription: HA answers most subscribing commands
  // with a result first, but some (zha/devices/reconfigure) only ever stream events.
  if (auto waiter = calls_.take_waiter(wire_id)) {
    waiter->result = json::value(nullptr);
    waiter->timer.cancel();
  }
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
    json::value result = r ? std::move(*r) : json::value(nullptr);
    if (waiter->wants_text) {
      // Not in HA's usual layout (e.g. inside a coalesced array): hand it
      // over as text all the same.
      auto text = std::make_shared<std::string>(json::serialize(result));
      waiter->raw_result = RawResult{text, *text};
    } else {
      waiter->result = std::move(result);
    }
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
