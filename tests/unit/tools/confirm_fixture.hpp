#pragma once
// Shared by the confirmation tests: the one preview shape's check, and a
// 2025-era session whose client can be asked (elicitation, form mode) with a
// tools/call that answers the question it sends.

#include <boost/json.hpp>
#include <memory>
#include <string>

#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {

// Every member of the one shape (tools/confirmation.hpp), and no old-shape `preview` member.
inline void expect_one_shape(const json::object& s, const std::string& what) {
  EXPECT_EQ(s.if_contains("result") ? *s.if_contains("result") : json::value(), "preview") << what;
  EXPECT_EQ(s.if_contains("confirm_required") ? *s.if_contains("confirm_required") : json::value(), true) << what;
  EXPECT_TRUE(s.contains("action") && s.at("action").is_string() && !s.at("action").as_string().empty()) << what;
  EXPECT_TRUE(s.contains("target") && !s.at("target").is_null()) << what;
  EXPECT_TRUE(s.contains("would_change") && (s.at("would_change").is_object() || s.at("would_change").is_array()))
      << what;
  EXPECT_TRUE(s.contains("next") && s.at("next").is_string()) << what;
  EXPECT_FALSE(s.contains("preview")) << "an old preview member: " << what;
}

class AskingToolsTest : public ToolsTest {
 protected:
  // A 2025-era session whose client declared elicitation (form mode).
  std::shared_ptr<mcp::Session> asking_session(std::string id) {
    mcp::SessionInfo info;
    info.protocol_version = "2025-11-25";
    info.client_capabilities["elicitation"] = json::object();
    info.client_info = json::object{{"name", "asking-client"}, {"version", "1"}};
    auto s = h.server.restore_session(std::move(id), std::move(info));
    s->set_standalone_channel(std::make_shared<mcp::testing::MemoryChannel>());
    return s;
  }

  struct Asked {
    json::object question;  // the elicitation/create params (empty: nobody was asked)
    json::object response;  // the tools/call response
  };
  // tools/call in `session`; an elicitation/create it sends is answered with `answer`.
  Asked call_answering(mcp::Session& session, const std::string& name, const std::string& args,
                       const json::value& answer) {
    json::object req{{"jsonrpc", "2.0"}, {"id", ++next_id}, {"method", "tools/call"}};
    req["params"] = json::object{{"name", name}, {"arguments", json::parse(args)}};
    auto channel = std::make_shared<mcp::testing::MemoryChannel>();
    session.deliver(json::value(std::move(req)), channel);
    h.run_until([&] { return channel->closed > 0 || !channel->with_method("elicitation/create").empty(); },
                std::chrono::milliseconds(15000));
    Asked out;
    const auto asks = channel->with_method("elicitation/create");
    if (!asks.empty()) {
      out.question = asks.front().at("params").as_object();
      json::object reply{{"jsonrpc", "2.0"}, {"id", asks.front().at("id")}, {"result", answer}};
      session.deliver(json::value(std::move(reply)), std::make_shared<mcp::testing::MemoryChannel>());
      h.run_until([&] { return channel->closed > 0; }, std::chrono::milliseconds(15000));
    }
    const auto responses = channel->responses();
    EXPECT_EQ(responses.size(), 1u) << name << " " << args;
    if (!responses.empty()) out.response = responses.front();
    return out;
  }

  static const json::object& structured_of(const json::object& response) {
    return response.at("result").at("structuredContent").as_object();
  }
};

}  // namespace hamcp::tools::testing
