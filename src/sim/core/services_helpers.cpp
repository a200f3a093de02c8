// Actions of the helper entities: input_number/select/text/datetime/button, select, number, button, counter, timer.
#include <algorithm>

#include "sim/core/service_spec.hpp"
#include "sim/core/time_util.hpp"

namespace hamcp::sim::svc {

namespace {

void add_numbers_and_selects(Services::Impl& impl) {
  auto set_number = [](Run& r, const StoredState& s, double v) {
    double lo = attr_num(s.attributes, "min", 0), hi = attr_num(s.attributes, "max", 100);
    if (v < lo || v > hi)
      throw validation(
          "Invalid value for " + s.entity_id + ": " + fmt_num(v) + " (range " + fmt_num(lo) + " - " + fmt_num(hi) + ")",
          "invalid_value");
    r.set(s, fmt_num(v), s.attributes);
  };
  impl.add(entity_spec(
      "input_number", "set_value", "Sets the value.", {ffloat("value", {}, {}, "The target value.", true)},
      [set_number](Run& r, const StoredState& s, const json::object& d) { set_number(r, s, num(d.at("value"))); }));
  impl.add(entity_spec("input_number", "increment", "Increments the value by 1 step.", {},
                       [set_number](Run& r, const StoredState& s, const json::object&) {
                         set_number(r, s,
                                    std::min(attr_num(s.attributes, "max", 100),
                                             numeric_state(s.state).value_or(0) + attr_num(s.attributes, "step", 1)));
                       }));
  impl.add(entity_spec("input_number", "decrement", "Decrements the value by 1 step.", {},
                       [set_number](Run& r, const StoredState& s, const json::object&) {
                         set_number(r, s,
                                    std::max(attr_num(s.attributes, "min", 0),
                                             numeric_state(s.state).value_or(0) - attr_num(s.attributes, "step", 1)));
                       }));
  auto select_option = [](Run& r, const StoredState& s, const json::object& d) {
    std::string o(d.at("option").get_string());
    check_option(s, o, "options");
    r.set(s, o, s.attributes);
  };
  auto select_move = [](int delta, bool absolute) {
    return [delta, absolute](Run& r, const StoredState& s, const json::object& d) {
      const auto& opts = s.attributes.at("options").get_array();
      if (opts.empty()) return;
      long idx = 0;
      for (std::size_t i = 0; i < opts.size(); ++i)
        if (opts[i].get_string() == s.state) idx = static_cast<long>(i);
      bool cycle = !d.contains("cycle") || d.at("cycle").as_bool();
      long n = static_cast<long>(opts.size());
      if (absolute)
        idx = delta < 0 ? 0 : n - 1;
      else if (cycle)
        idx = ((idx + delta) % n + n) % n;
      else
        idx = std::clamp(idx + delta, 0L, n - 1);
      r.set(s, std::string(opts[static_cast<std::size_t>(idx)].get_string()), s.attributes);
    };
  };
  for (const char* dom : {"input_select", "select"}) {
    impl.add(entity_spec(dom, "select_option", "Selects an option.", {fstr("option", "Option to be selected.", true)},
                         select_option));
    impl.add(entity_spec(dom, "select_next", "Selects the next option.",
                         {fbool("cycle", "If the option should cycle from the last to the first.")},
                         select_move(1, false)));
    impl.add(entity_spec(dom, "select_previous", "Selects the previous option.",
                         {fbool("cycle", "If the option should cycle from the first to the last.")},
                         select_move(-1, false)));
    impl.add(entity_spec(dom, "select_first", "Selects the first option.", {}, select_move(-1, true)));
    impl.add(entity_spec(dom, "select_last", "Selects the last option.", {}, select_move(1, true)));
  }
  impl.add(entity_spec("input_select", "set_options", "Sets the options.", {fany("options", "List of options.", true)},
                       [](Run& r, const StoredState& s, const json::object& d) {
                         auto opts = string_list(d.at("options"));
                         if (opts.empty())
                           throw invalid("length of value must be at least 1 for dictionary value @ data['options']");
                         json::object a = s.attributes;
                         json::array arr;
                         for (auto& o : opts) arr.emplace_back(o);
                         a["options"] = arr;
                         std::string st =
                             std::find(opts.begin(), opts.end(), s.state) != opts.end() ? s.state : opts.front();
                         r.set(s, st, std::move(a));
                       }));
}

void add_texts_dates_buttons(Services::Impl& impl) {
  impl.add(entity_spec(
      "number", "set_value", "Sets the value of a number.", {ffloat("value", {}, {}, "The target value.", true)},
      [](Run& r, const StoredState& s, const json::object& d) {
        double v = num(d.at("value")), lo = attr_num(s.attributes, "min", 0), hi = attr_num(s.attributes, "max", 100);
        if (v < lo || v > hi)
          throw validation("Value " + fmt_num(v) + " for " + s.entity_id + " is outside valid range " + fmt_num(lo) +
                               " - " + fmt_num(hi),
                           "out_of_range");
        r.set(s, fmt_num(v), s.attributes);
      }));
  impl.add(entity_spec("input_text", "set_value", "Sets the value.", {fstr("value", "The target value.", true)},
                       [](Run& r, const StoredState& s, const json::object& d) {
                         std::string v(d.at("value").get_string());
                         double mx = attr_num(s.attributes, "max", 100), mn = attr_num(s.attributes, "min", 0);
                         if (static_cast<double>(v.size()) > mx || static_cast<double>(v.size()) < mn)
                           throw validation("Invalid value for " + s.entity_id + ": " + v + " (length range " +
                                            fmt_num(mn) + " - " + fmt_num(mx) + ")");
                         r.set(s, v, s.attributes);
                       }));
  impl.add(entity_spec(
      "input_datetime", "set_datetime", "Sets the date and/or time.",
      {fstr("date", "The target date."), fstr("time", "The target time."), fstr("datetime", "The target date & time."),
       ffloat("timestamp", {}, {}, "The target date & time, expressed by a UNIX timestamp.")},
      [](Run& r, const StoredState& s, const json::object& d) {
        std::string st = s.state;
        if (auto* v = d.if_contains("datetime"))
          st = std::string(v->get_string());
        else {
          std::string date = d.contains("date") ? std::string(d.at("date").get_string()) : "";
          std::string time = d.contains("time") ? std::string(d.at("time").get_string()) : "";
          if (!date.empty() && !time.empty())
            st = date + " " + time;
          else if (!date.empty())
            st = date;
          else if (!time.empty())
            st = time.size() == 5 ? time + ":00" : time;
        }
        r.set(s, st, s.attributes);
      }));
  for (const char* dom : {"input_button", "button"})
    impl.add(entity_spec(dom, "press", "Press the button.", {}, [](Run& r, const StoredState& s, const json::object&) {
      r.set(s, iso_time(now_timestamp()), s.attributes);
    }));
}

void add_counters_timers_reloads(Services::Impl& impl) {
  auto counter_set = [](Run& r, const StoredState& s, long v) {
    const auto* mx = s.attributes.if_contains("maximum");
    const auto* mn = s.attributes.if_contains("minimum");
    if (mx && mx->is_number() && v > saturate_cast<long>(num(*mx))) v = saturate_cast<long>(num(*mx));
    if (mn && mn->is_number() && v < saturate_cast<long>(num(*mn))) v = saturate_cast<long>(num(*mn));
    r.set(s, std::to_string(v), s.attributes);
  };
  impl.add(entity_spec(
      "counter", "increment", "Increments a counter by its step size.", {},
      [counter_set](Run& r, const StoredState& s, const json::object&) {
        counter_set(r, s, saturate_cast<long>(numeric_state(s.state).value_or(0) + attr_num(s.attributes, "step", 1)));
      }));
  impl.add(entity_spec(
      "counter", "decrement", "Decrements a counter by its step size.", {},
      [counter_set](Run& r, const StoredState& s, const json::object&) {
        counter_set(r, s, saturate_cast<long>(numeric_state(s.state).value_or(0) - attr_num(s.attributes, "step", 1)));
      }));
  impl.add(entity_spec("counter", "reset", "Resets a counter to its initial value.", {},
                       [counter_set](Run& r, const StoredState& s, const json::object&) {
                         counter_set(r, s, saturate_cast<long>(attr_num(s.attributes, "initial", 0)));
                       }));
  impl.add(entity_spec("counter", "set_value", "Sets the counter to a specific value.",
                       {fint("value", 0, {}, "The new counter value the entity should be set to.", true)},
                       [counter_set](Run& r, const StoredState& s, const json::object& d) {
                         counter_set(r, s, saturate_cast<long>(num(d.at("value"))));
                       }));
  impl.add(entity_spec("timer", "start", "Starts a timer or restarts it with a provided duration.",
                       {fstr("duration", "Custom duration to restart the timer with.")},
                       [](Run& r, const StoredState& s, const json::object& d) {
                         json::object a = s.attributes;
                         std::string dur = d.contains("duration") ? std::string(d.at("duration").get_string())
                                                                  : attr_str(a, "duration");
                         int h = 0, m = 0, sec = 0;
                         std::sscanf(dur.c_str(), "%6d:%6d:%6d", &h, &m, &sec);  // widths: no int overflow
                         a["remaining"] = dur;
                         a["finishes_at"] = iso_time(now_timestamp() + h * 3600.0 + m * 60.0 + sec);
                         r.set(s, "active", std::move(a));
                       }));
  impl.add(entity_spec("timer", "pause", "Pauses a running timer.", {},
                       [](Run& r, const StoredState& s, const json::object&) {
                         json::object a = s.attributes;
                         a.erase("finishes_at");
                         r.set(s, "paused", std::move(a));
                       }));
  for (const char* svc : {"cancel", "finish"})
    impl.add(entity_spec(
        "timer", svc, "Stops a timer.", {}, [&impl, svc](Run& r, const StoredState& s, const json::object&) {
          json::object a = s.attributes;
          a.erase("finishes_at");
          a.erase("remaining");
          r.set(s, "idle", std::move(a));
          impl.store.fire(std::string("timer.") + (svc == std::string("finish") ? "finished" : "cancelled"),
                          {{"entity_id", s.entity_id}}, r.ctx);
        }));
  for (const char* dom : {"input_number", "input_select", "input_text", "input_datetime", "input_button", "counter",
                          "timer", "zone", "person"})
    impl.add(plain_spec(dom, "reload", "Reloads from the YAML-configuration.", {},
                        [](Run&, const json::object&) { return std::nullopt; }));
}

}  // namespace

void add_helper_services(Services::Impl& impl) {
  add_numbers_and_selects(impl);
  add_texts_dates_buttons(impl);
  add_counters_timers_reloads(impl);
}

}  // namespace hamcp::sim::svc
