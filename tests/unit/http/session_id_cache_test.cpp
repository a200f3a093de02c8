// A session's id is verified once (issue 9, item 6): every request used to
// recompute the id's HMAC and decode it. Only genuine ids are remembered, the
// memory is bounded, and revocation and expiry still count at every lookup.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "http_fixture.hpp"
#include "mcp/http/session_registry.hpp"
#include "mcp/http/session_token.hpp"

namespace hamcp::mcp::http {
namespace {

using Status = SessionRegistry::Status;

SessionKey test_key() {
  SessionKey k;
  k.fill(7);
  return k;
}

struct RegistryFixture {
  test::TempDir dir;
  SessionRegistry registry{test_key(), dir.path() / "revoked-sessions", SessionRegistry::Options{}};
};

TEST(SessionIdCache, AKnownIdIsNotVerifiedAgain) {
  RegistryFixture f;
  const SessionTokenPayload payload = make_session_payload("2025-11-25", kCapRoots, "client", "1.0");
  const std::string id = f.registry.issue(payload);
  for (int i = 0; i < 100; ++i) {
    const auto found = f.registry.lookup(id);
    ASSERT_EQ(found.status, Status::ok);
    ASSERT_TRUE(found.payload);
    EXPECT_EQ(found.payload->nonce, payload.nonce);
    EXPECT_EQ(found.payload->protocol_version, "2025-11-25");
    EXPECT_EQ(found.payload->client_name, "client");
    EXPECT_EQ(found.payload->capabilities, kCapRoots);
  }
  EXPECT_EQ(f.registry.signature_checks(), 1u) << "the same id was verified again";
}

TEST(SessionIdCache, ForgedIdsAreCheckedEveryTimeAndNeverAccepted) {
  RegistryFixture f;
  std::string forged = f.registry.issue(make_session_payload("2025-11-25", 0));
  char& c = forged[forged.size() - 10];  // inside the MAC (its last character carries padding bits)
  c = c == 'A' ? 'B' : 'A';
  for (int i = 0; i < 5; ++i) EXPECT_EQ(f.registry.lookup(forged).status, Status::invalid);
  EXPECT_EQ(f.registry.signature_checks(), 5u) << "a forged id was remembered";
  // An id signed with another key never checks out, even after the genuine one was seen.
  SessionKey other = test_key();
  other[0] = 8;
  const std::string foreign = SessionTokenCodec(other).issue(make_session_payload("2025-11-25", 0));
  EXPECT_EQ(f.registry.lookup(foreign).status, Status::invalid);
}

TEST(SessionIdCache, ARememberedIdStillCountsItsRevocation) {
  RegistryFixture f;
  const SessionTokenPayload payload = make_session_payload("2025-11-25", 0);
  const std::string id = f.registry.issue(payload);
  ASSERT_EQ(f.registry.lookup(id).status, Status::ok);
  f.registry.revoke(payload);
  EXPECT_EQ(f.registry.lookup(id).status, Status::revoked);
  // Revoked by another process sharing the data dir: seen at the next lookup too.
  const SessionTokenPayload second = make_session_payload("2025-11-25", 0);
  const std::string id2 = f.registry.issue(second);
  ASSERT_EQ(f.registry.lookup(id2).status, Status::ok);
  SessionRegistry other_process(test_key(), f.dir.path() / "revoked-sessions", SessionRegistry::Options{});
  other_process.revoke(second);
  EXPECT_EQ(f.registry.lookup(id2).status, Status::revoked);
}

TEST(SessionIdCache, ARememberedIdStillExpires) {
  RegistryFixture f;
  SessionTokenPayload old = make_session_payload("2025-11-25", 0);
  old.created_unix -= 10;
  SessionRegistry::Options short_lived;
  short_lived.idle_expiry = std::chrono::seconds(5);
  SessionRegistry registry(test_key(), f.dir.path() / "revoked-short", short_lived);
  const std::string id = registry.issue(old);
  EXPECT_EQ(registry.lookup(id).status, Status::expired);
  EXPECT_EQ(registry.lookup(id).status, Status::expired);
}

TEST(SessionIdCache, MemoryIsBoundedAndEveryIdStillWorks) {
  RegistryFixture f;
  const std::size_t n = SessionRegistry::kMaxVerifiedIds + 10;
  std::vector<std::string> ids;
  ids.reserve(n);
  for (std::size_t i = 0; i < n; ++i) ids.push_back(f.registry.issue(make_session_payload("2025-11-25", 0)));
  for (const auto& id : ids) ASSERT_EQ(f.registry.lookup(id).status, Status::ok);
  EXPECT_EQ(f.registry.signature_checks(), n);
  // After the memory started afresh, the recent ids are remembered again.
  const std::uint64_t before = f.registry.signature_checks();
  for (std::size_t i = n - 5; i < n; ++i) ASSERT_EQ(f.registry.lookup(ids[i]).status, Status::ok);
  EXPECT_EQ(f.registry.signature_checks(), before);
}

}  // namespace
}  // namespace hamcp::mcp::http
