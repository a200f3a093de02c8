// radio=thread network writes: create_network, set_network and set_channel
// on an OpenThread Border Router (otbr/*, named by params.extended_address;
// the only one when there is one), each behind confirm since every Thread
// device of the network follows; add_dataset stores a dataset's TLVs
// (thread/add_dataset_tlv). Dataset TLVs are never shown (the credentials).
#include "tools/radio/radio_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::radio {

namespace {

namespace asio = boost::asio;

const Radio& thread() { return *find_radio("thread"); }
const Radio kOtbr{"thread", "otbr", "OpenThread Border Router"};

struct Router {
  std::string address;
  json::object info;  // otbr/info's entry without its TLVs
};

asio::awaitable<Router> border_router(Args& args, ToolEnv& env) {
  auto asking = command(env, kOtbr, json::object{{"type", "otbr/info"}});
  json::value all = co_await std::move(asking);
  json::array known;
  const std::string wanted = param(args, "extended_address") ? param_str(args, "extended_address") : std::string();
  for (auto& [address, r] : all.as_object()) {
    json::object info = r.as_object();
    info.erase("active_dataset_tlvs");
    if (address == wanted || (wanted.empty() && all.as_object().size() == 1))
      co_return Router{std::string(address), std::move(info)};
    known.emplace_back(address);
  }
  ToolError error =
      bad_argument("params.extended_address",
                   wanted.empty() ? "missing (there are several border routers)" : "no border router " + wanted,
                   "Pass one of border_routers (action=network_status shows them).");
  error.extra["border_routers"] = std::move(known);
  throw ToolException(std::move(error));
}

asio::awaitable<json::array> datasets(ToolEnv& env) {
  auto asking = command(env, thread(), json::object{{"type", "thread/list_datasets"}});
  json::value listed = co_await std::move(asking);
  json::array out;
  if (const json::value* d = listed.as_object().if_contains("datasets")) out = d->as_array();
  co_return out;
}

json::object done(json::object details) {
  details["done"] = true;
  return details;
}

}  // namespace

asio::awaitable<json::object> thread_create_network(Args& args, ToolEnv& env) {
  auto finding = border_router(args, env);
  const Router router = co_await std::move(finding);
  json::object details{{"border_router", router.info}};
  if (!args.flag("confirm", false))
    co_return preview("factory-reset border router " + router.address +
                          " and start a new Thread network on it; devices on its current network lose it",
                      std::move(details));
  auto creating =
      command(env, kOtbr, json::object{{"type", "otbr/create_network"}, {"extended_address", router.address}});
  co_await std::move(creating);
  auto listing = datasets(env);
  json::array all = co_await std::move(listing);
  details["datasets"] = std::move(all);
  co_return done(std::move(details));
}

asio::awaitable<json::object> thread_set_network(Args& args, ToolEnv& env) {
  auto finding = border_router(args, env);
  const Router router = co_await std::move(finding);
  const std::string dataset_id = param_str(args, "dataset_id");
  auto listing = datasets(env);
  const json::array all = co_await std::move(listing);
  json::value dataset = nullptr;
  for (const auto& d : all)
    if (d.at("dataset_id") == dataset_id.c_str()) dataset = d;
  if (dataset.is_null())
    throw ToolException(
        bad_argument("params.dataset_id", "Thread has no dataset " + dataset_id, "action=list_datasets lists them."));
  json::object details{{"border_router", router.info}, {"dataset", dataset}};
  if (!args.flag("confirm", false))
    co_return preview("move border router " + router.address + " to the network of dataset " + dataset_id,
                      std::move(details));
  auto setting = command(
      env, kOtbr,
      json::object{{"type", "otbr/set_network"}, {"extended_address", router.address}, {"dataset_id", dataset_id}});
  co_await std::move(setting);
  co_return done(std::move(details));
}

asio::awaitable<json::object> thread_set_channel(Args& args, ToolEnv& env) {
  auto finding = border_router(args, env);
  const Router router = co_await std::move(finding);
  const std::int64_t channel = param_int(args, "channel");
  if (channel < 11 || channel > 26)
    throw ToolException(bad_argument("params.channel", "must be 11..26", "Thread uses channels 11-26."));
  json::object details{{"border_router", router.address},
                       {"from_channel", router.info.contains("channel") ? router.info.at("channel") : nullptr},
                       {"to_channel", channel}};
  if (!args.flag("confirm", false))
    co_return preview("move the Thread network of border router " + router.address + " to channel " +
                          std::to_string(channel) + " (its devices follow after a delay)",
                      std::move(details));
  auto setting =
      command(env, kOtbr,
              json::object{{"type", "otbr/set_channel"}, {"extended_address", router.address}, {"channel", channel}});
  const json::value answer = co_await std::move(setting);
  details["delay_seconds"] = answer.is_object() && answer.as_object().contains("delay") ? answer.at("delay") : nullptr;
  co_return done(std::move(details));
}

asio::awaitable<json::object> thread_add_dataset(Args& args, ToolEnv& env) {
  const std::string tlv = param_str(args, "tlv");
  const std::string source = param(args, "source") ? param_str(args, "source") : std::string("hamcp");
  auto before_listing = datasets(env);
  const json::array before = co_await std::move(before_listing);
  auto adding =
      command(env, thread(), json::object{{"type", "thread/add_dataset_tlv"}, {"source", source}, {"tlv", tlv}});
  co_await std::move(adding);
  auto after_listing = datasets(env);
  json::array after = co_await std::move(after_listing);
  co_return json::object{{"done", true},
                         {"added", after.size() > before.size()},
                         {"updated_existing", after.size() == before.size()},
                         {"datasets", std::move(after)}};
}

}  // namespace hamcp::tools::radio
