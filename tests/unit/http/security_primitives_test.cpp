// Session tokens, secrets on disk, revocations and the access policy: the
// pieces that make session ids self-validating and the server safe by default.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <thread>

#include "http_fixture.hpp"
#include "mcp/http/access_policy.hpp"
#include "mcp/http/data_dir.hpp"
#include "mcp/http/http_types.hpp"
#include "mcp/http/revocation_list.hpp"
#include "mcp/http/session_registry.hpp"
#include "mcp/http/session_token.hpp"

namespace hamcp::mcp::http {
namespace {

SessionKey key_of(unsigned char fill) {
  SessionKey k;
  k.fill(fill);
  return k;
}

TEST(SessionToken, RoundTripsEveryField) {
  SessionTokenCodec codec(key_of(7));
  auto p = make_session_payload("2025-06-18", kCapSampling | kCapRootsListChanged | kCapRoots, "claude", "2.1");
  const std::string token = codec.issue(p);
  auto back = codec.verify(token);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->nonce, p.nonce);
  EXPECT_EQ(back->created_unix, p.created_unix);
  EXPECT_EQ(back->protocol_version, "2025-06-18");
  EXPECT_EQ(back->capabilities, p.capabilities);
  EXPECT_EQ(back->client_name, "claude");
  EXPECT_EQ(back->client_version, "2.1");
  // Visible ASCII only (spec: 0x21-0x7E).
  for (char c : token) EXPECT_TRUE(c >= 0x21 && c <= 0x7e) << token;
}

TEST(SessionToken, NoncesAreRandom) {
  auto a = make_session_payload("2025-11-25", 0);
  auto b = make_session_payload("2025-11-25", 0);
  EXPECT_NE(a.nonce, b.nonce);
}

TEST(SessionToken, RejectsForgeriesAndOtherKeys) {
  SessionTokenCodec codec(key_of(1));
  SessionTokenCodec other(key_of(2));
  const std::string token = codec.issue(make_session_payload("2025-11-25", 0));
  EXPECT_FALSE(other.verify(token));  // another key
  std::string flipped = token;
  flipped[3] = flipped[3] == 'A' ? 'B' : 'A';  // payload tampered
  EXPECT_FALSE(codec.verify(flipped));
  std::string bad_mac = token;
  bad_mac.back() = bad_mac.back() == 'A' ? 'B' : 'A';
  EXPECT_FALSE(codec.verify(bad_mac));
  EXPECT_FALSE(codec.verify(""));
  EXPECT_FALSE(codec.verify("not-a-token"));
  EXPECT_FALSE(codec.verify(token + "."));
  EXPECT_FALSE(codec.verify(token.substr(0, token.find('.'))));
  EXPECT_FALSE(codec.verify(std::string(5000, 'a') + "." + std::string(43, 'a')));
  EXPECT_FALSE(codec.verify("a\"b.c\nd"));
}

TEST(SessionToken, PayloadFieldsAreBounded) {
  SessionTokenCodec codec(key_of(3));
  auto p = make_session_payload(std::string(100, 'v'), 0, std::string(500, 'n'), std::string(500, 'x'));
  auto back = codec.verify(codec.issue(p));
  ASSERT_TRUE(back);
  EXPECT_LE(back->protocol_version.size(), 32u);
  EXPECT_LE(back->client_name.size(), 48u);
  EXPECT_LT(codec.issue(p).size(), 300u);
}

TEST(Base64Url, RoundTripAndCanonical) {
  for (std::size_t n = 0; n < 40; ++n) {
    std::string raw(n, '\0');
    for (std::size_t i = 0; i < n; ++i) raw[i] = static_cast<char>(i * 37 + 11);
    auto enc = base64url_encode(reinterpret_cast<const unsigned char*>(raw.data()), raw.size());
    EXPECT_EQ(enc.find_first_of("+/="), std::string::npos);
    auto dec = base64url_decode(enc);
    ASSERT_TRUE(dec) << enc;
    EXPECT_EQ(*dec, raw);
  }
  EXPECT_FALSE(base64url_decode("ab+c"));
  EXPECT_FALSE(base64url_decode("abc="));
  EXPECT_FALSE(base64url_decode("A"));
  EXPECT_FALSE(base64url_decode("AB"));  // non-canonical trailing bits ("AA" is canonical)
  EXPECT_TRUE(base64url_decode("AA"));
}

TEST(ConstantTimeEqual, ComparesContentsAndLength) {
  EXPECT_TRUE(constant_time_equal("secret", "secret"));
  EXPECT_FALSE(constant_time_equal("secret", "secreT"));
  EXPECT_FALSE(constant_time_equal("secret", "secret2"));
  EXPECT_TRUE(constant_time_equal("", ""));
}

TEST(Capabilities, BitsRebuildTheCapabilities) {
  auto caps =
      json::parse(R"({"sampling":{},"elicitation":{},"roots":{"listChanged":true},"experimental":{}})").as_object();
  const auto bits = capability_bits(caps);
  EXPECT_TRUE(bits & kCapSampling);
  EXPECT_TRUE(bits & kCapElicitationForm);
  EXPECT_FALSE(bits & kCapElicitationUrl);
  EXPECT_TRUE(bits & kCapRootsListChanged);
  auto rebuilt = capabilities_from_bits(bits);
  EXPECT_TRUE(rebuilt.contains("sampling"));
  EXPECT_TRUE(rebuilt.contains("elicitation"));
  EXPECT_EQ(rebuilt.at("roots").at("listChanged"), true);
  EXPECT_EQ(capability_bits(json::parse(R"({"elicitation":{"url":{}}})").as_object()), kCapElicitationUrl);
  EXPECT_EQ(capability_bits({}), 0);

  SessionTokenPayload p = make_session_payload("2025-06-18", bits, "cli", "9");
  auto info = session_info_from(p);
  EXPECT_EQ(info.protocol_version, "2025-06-18");
  EXPECT_TRUE(info.client_supports("sampling"));
  EXPECT_TRUE(info.client_supports("roots"));
  EXPECT_EQ(info.client_info.at("name"), "cli");
}

TEST(DataDir, SecretIsCreatedOnce0600AndShared) {
  test::TempDir dir;
  const auto path = dir.path() / "sub" / "x";
  const auto data = resolve_data_dir((dir.path() / "sub").string());
  EXPECT_TRUE(std::filesystem::is_directory(data));
  int generated = 0;
  auto gen = [&] {
    ++generated;
    return std::string("s3cret") + std::to_string(generated);
  };
  auto first = load_or_create_secret(path, gen);
  EXPECT_TRUE(first.created);
  auto second = load_or_create_secret(path, gen);
  EXPECT_FALSE(second.created);
  EXPECT_EQ(first.contents, second.contents);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(DataDir, ConcurrentCreatorsAgree) {
  test::TempDir dir;
  const auto path = dir.path() / "key";
  std::vector<std::string> seen(8);
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back(
        [&, i] { seen[i] = load_or_create_secret(path, [i] { return "value" + std::to_string(i); }).contents; });
  }
  for (auto& t : threads) t.join();
  for (auto& s : seen) EXPECT_EQ(s, seen[0]);
}

TEST(DataDir, RefusesAWorldReadableSecret) {
  test::TempDir dir;
  const auto path = dir.path() / "key";
  { std::ofstream(path) << "x"; }
  ::chmod(path.c_str(), 0644);
  EXPECT_THROW(load_or_create_secret(path, [] { return std::string("y"); }), std::runtime_error);
}

TEST(RevocationList, SharedBetweenInstancesAndPersistent) {
  test::TempDir dir;
  const auto file = dir.path() / "revoked";
  RevocationList a(file, std::chrono::hours(24));
  RevocationList b(file, std::chrono::hours(24));
  const std::string nonce(32, 'a');
  EXPECT_FALSE(a.is_revoked(nonce));
  EXPECT_FALSE(b.is_revoked(nonce));
  b.revoke(nonce);
  EXPECT_TRUE(a.is_revoked(nonce));  // re-read because the file changed
  RevocationList after_restart(file, std::chrono::hours(24));
  EXPECT_TRUE(after_restart.is_revoked(nonce));
  EXPECT_FALSE(after_restart.is_revoked(std::string(32, 'b')));
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(RevocationList, OldEntriesAreCompactedAway) {
  test::TempDir dir;
  const auto file = dir.path() / "revoked";
  {
    std::ofstream out(file);
    out << std::string(32, 'c') << " 1000\n";  // 1970: long past any expiry
    out << "garbage line\n";
  }
  RevocationList list(file, std::chrono::hours(24));
  EXPECT_FALSE(list.is_revoked(std::string(32, 'c')));
}

TEST(AccessPolicy, LoopbackDetection) {
  EXPECT_TRUE(is_loopback_host("127.0.0.1"));
  EXPECT_TRUE(is_loopback_host("127.1.2.3"));
  EXPECT_TRUE(is_loopback_host("::1"));
  EXPECT_TRUE(is_loopback_host("[::1]"));
  EXPECT_TRUE(is_loopback_host("localhost"));
  EXPECT_FALSE(is_loopback_host("0.0.0.0"));
  EXPECT_FALSE(is_loopback_host("::"));
  EXPECT_FALSE(is_loopback_host("192.168.1.10"));
  EXPECT_FALSE(is_loopback_host("example.com"));
}

TEST(AccessPolicy, NonLoopbackBindNeedsABearerToken) {
  EXPECT_EQ(auth_requirement("127.0.0.1", false, false), AuthRequirement::kOptional);
  EXPECT_EQ(auth_requirement("::1", true, false), AuthRequirement::kOptional);
  EXPECT_EQ(auth_requirement("0.0.0.0", false, false), AuthRequirement::kGenerateToken);
  EXPECT_EQ(auth_requirement("192.168.1.10", false, false), AuthRequirement::kGenerateToken);
  EXPECT_EQ(auth_requirement("0.0.0.0", true, false), AuthRequirement::kConfiguredToken);
  EXPECT_EQ(auth_requirement("0.0.0.0", false, true), AuthRequirement::kUnauthenticatedRemote);
  EXPECT_EQ(auth_requirement("0.0.0.0", true, true), AuthRequirement::kConfiguredToken);
}

TEST(AccessPolicy, BearerMatching) {
  EXPECT_TRUE(bearer_matches("Bearer abc", "abc"));
  EXPECT_TRUE(bearer_matches("bearer   abc ", "abc"));
  EXPECT_FALSE(bearer_matches("Bearer abd", "abc"));
  EXPECT_FALSE(bearer_matches("Basic abc", "abc"));
  EXPECT_FALSE(bearer_matches("abc", "abc"));
  EXPECT_FALSE(bearer_matches(std::nullopt, "abc"));
  EXPECT_FALSE(bearer_matches("Bearer ", ""));
}

TEST(AccessPolicy, HostAndOriginValidation) {
  OriginPolicy p("127.0.0.1", {"hamcp.lan"}, {"https://claude.ai"});
  EXPECT_TRUE(p.host_allowed("127.0.0.1:8086"));
  EXPECT_TRUE(p.host_allowed("localhost:8086"));
  EXPECT_TRUE(p.host_allowed("[::1]:8086"));
  EXPECT_TRUE(p.host_allowed("HAMCP.lan:8086"));
  EXPECT_FALSE(p.host_allowed("evil.example.com"));
  EXPECT_FALSE(p.host_allowed("evil.example.com:8086"));
  EXPECT_FALSE(p.host_allowed(std::nullopt));
  EXPECT_TRUE(p.origin_allowed(std::nullopt));  // non-browser clients send none
  EXPECT_TRUE(p.origin_allowed("http://localhost:6274"));
  EXPECT_TRUE(p.origin_allowed("http://127.0.0.1:8086"));
  EXPECT_TRUE(p.origin_allowed("https://claude.ai"));
  EXPECT_TRUE(p.origin_allowed("http://hamcp.lan:8086"));
  EXPECT_FALSE(p.origin_allowed("http://evil.example.com"));
  EXPECT_FALSE(p.origin_allowed("null"));
  EXPECT_FALSE(p.origin_allowed("http://localhost.evil.example.com"));
  EXPECT_FALSE(p.origin_allowed("http://user@evil.example.com"));

  OriginPolicy wildcard("0.0.0.0", {}, {}, std::vector<std::string>{"192.168.1.10"});
  EXPECT_TRUE(wildcard.host_allowed("192.168.1.10:8086"));  // one of the machine's own addresses
  EXPECT_FALSE(wildcard.origin_allowed("http://evil.example.com"));
}

// host_allowed keeps its last verdict per thread: asked of another policy (even
// one built where a destroyed one stood), with the same Host, it answers afresh.
TEST(AccessPolicy, TheHostVerdictKeptPerThreadBelongsToItsPolicy) {
  OriginPolicy lan("127.0.0.1", {"hamcp.lan"}, {});
  OriginPolicy plain("127.0.0.1", {}, {});
  for (int round = 0; round < 2; ++round) {
    EXPECT_TRUE(lan.host_allowed("hamcp.lan:8086"));
    EXPECT_FALSE(plain.host_allowed("hamcp.lan:8086"));
    EXPECT_FALSE(lan.host_allowed("evil.example.com:8086"));
    EXPECT_TRUE(lan.host_allowed("hamcp.lan:8086"));
  }
  std::optional<OriginPolicy> reused(std::in_place, "127.0.0.1", std::vector<std::string>{"hamcp.lan"},
                                     std::vector<std::string>{});
  EXPECT_TRUE(reused->host_allowed("hamcp.lan:8086"));
  reused.emplace("127.0.0.1", std::vector<std::string>{}, std::vector<std::string>{});  // same storage
  EXPECT_FALSE(reused->host_allowed("hamcp.lan:8086"));
}

// parse_accept keeps its last answer per thread: a different Accept is parsed afresh.
TEST(AccessPolicy, AcceptHeadersAreParsedAfreshWhenTheyChange) {
  for (int round = 0; round < 2; ++round) {
    const Accepts both = parse_accept("application/json, text/event-stream");
    EXPECT_TRUE(both.json && both.sse);
    const Accepts json_only = parse_accept("application/json");
    EXPECT_TRUE(json_only.json);
    EXPECT_FALSE(json_only.sse);
    const Accepts sse_only = parse_accept("Text/Event-Stream; q=1");
    EXPECT_FALSE(sse_only.json);
    EXPECT_TRUE(sse_only.sse);
    const Accepts neither = parse_accept("image/png");
    EXPECT_FALSE(neither.json || neither.sse);
    const Accepts absent = parse_accept(std::nullopt);
    EXPECT_TRUE(absent.json && absent.sse);
  }
}

}  // namespace
}  // namespace hamcp::mcp::http
