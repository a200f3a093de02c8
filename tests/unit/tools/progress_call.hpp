#pragma once
// A tools/call with a progress token, for the fixtures whose tools report
// progress (backups, Supervisor jobs): the answer and every
// notifications/progress the call sent, in order.

#include <utility>
#include <vector>

#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {

class ProgressCallTest : public ToolsTest {
 protected:
  std::pair<CallResult, std::vector<json::object>> call_with_progress(const std::string& tool,
                                                                      const std::string& args_json,
                                                                      const std::string& token = "progress-1") {
    json::object req{{"jsonrpc", "2.0"},
                     {"id", ++next_id},
                     {"method", "tools/call"},
                     {"params", json::object{{"name", tool},
                                             {"arguments", json::parse(args_json)},
                                             {"_meta", json::object{{"progressToken", token}}}}}};
    auto channel = std::make_shared<mcp::testing::MemoryChannel>();
    h.session->deliver(json::value(std::move(req)), channel);
    EXPECT_TRUE(h.run_until([&] { return channel->closed > 0; }, std::chrono::milliseconds(20000)));
    auto responses = channel->responses();
    EXPECT_EQ(responses.size(), 1u);
    std::vector<json::object> progress;
    for (auto& p : channel->with_method("notifications/progress")) progress.push_back(p);
    CallResult r;
    if (!responses.empty() && responses.front().contains("result")) {
      r.response = responses.front();
      r.result = r.response.at("result").as_object();
      r.is_error = mcp::testing::is_error_result(r.response);
      if (const json::value* s = r.result.if_contains("structuredContent")) r.structured = s->as_object();
      r.text = json::serialize(r.result);
    }
    return {r, progress};
  }
};

}  // namespace hamcp::tools::testing
