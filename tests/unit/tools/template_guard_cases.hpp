#pragma once
// Table rows for the template guard's tests (template_guard_test.cpp,
// template_guard_frames_test.cpp) and the checks both run over them.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/gate/template_guard.hpp"

namespace hamcp::tools::guard_cases {

// A template and why it is in its table.
struct Case {
  const char* why;
  const char* text;
};

// A refused template and a piece of the refusal's `why` naming the construct ("" for a plain refusal).
struct Refused {
  const char* why;
  const char* text;
  const char* names;
};

inline void expect_accepted(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    const auto found = unnamed_entity_access(c.text);
    EXPECT_FALSE(found) << c.why << ": " << c.text << " refused at " << (found ? found->at : "") << " "
                        << (found ? found->why : "");
  }
}

inline void expect_refused(const std::vector<Refused>& cases) {
  for (const Refused& c : cases) {
    const auto found = unnamed_entity_access(c.text);
    ASSERT_TRUE(found) << c.why << ": " << c.text;
    if (*c.names == '\0')
      EXPECT_EQ(found->why, "") << c.why << ": " << found->why;
    else
      EXPECT_NE(found->why.find(c.names), std::string::npos) << c.why << ": " << found->why;
  }
}

}  // namespace hamcp::tools::guard_cases
