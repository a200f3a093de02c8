// HTTPS: --tls-cert/--tls-key serve the same endpoints over TLS, and bad TLS
// files stop the start with a message naming the file.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <cstdio>

#include "http_fixture.hpp"

namespace hamcp::test {
namespace {

// A throwaway self-signed certificate for 127.0.0.1, written as PEM files.
void write_self_signed(const std::filesystem::path& cert, const std::filesystem::path& key) {
  EVP_PKEY* pkey = EVP_EC_gen("P-256");
  ASSERT_NE(pkey, nullptr);
  X509* x509 = X509_new();
  ASN1_INTEGER_set(X509_get_serialNumber(x509), 1);
  X509_gmtime_adj(X509_getm_notBefore(x509), -60);
  X509_gmtime_adj(X509_getm_notAfter(x509), 3600);
  X509_set_pubkey(x509, pkey);
  X509_NAME* name = X509_get_subject_name(x509);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("127.0.0.1"), -1, -1, 0);
  X509_set_issuer_name(x509, name);
  ASSERT_GT(X509_sign(x509, pkey, EVP_sha256()), 0);
  FILE* f = std::fopen(cert.c_str(), "w");
  ASSERT_NE(f, nullptr);
  PEM_write_X509(f, x509);
  std::fclose(f);
  f = std::fopen(key.c_str(), "w");
  ASSERT_NE(f, nullptr);
  PEM_write_PrivateKey(f, pkey, nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(f);
  X509_free(x509);
  EVP_PKEY_free(pkey);
}

// One HTTPS request (certificate not verified: it is self-signed); returns
// the raw response.
std::string https_exchange(std::uint16_t port, const std::string& request) {
  namespace asio = boost::asio;
  namespace ssl = boost::asio::ssl;
  asio::io_context ioc;
  ssl::context ctx(ssl::context::tls_client);
  ctx.set_verify_mode(ssl::verify_none);
  ssl::stream<asio::ip::tcp::socket> stream(ioc, ctx);
  stream.next_layer().connect({asio::ip::make_address("127.0.0.1"), port});
  stream.handshake(ssl::stream_base::client);
  asio::write(stream, asio::buffer(request));
  std::string out;
  boost::system::error_code ec;
  asio::read(stream, asio::dynamic_buffer(out), ec);  // "Connection: close": read to the end
  return out;
}

TEST(Tls, ServesMcpOverHttps) {
  TempDir dir;
  const auto cert = dir.path() / "cert.pem";
  const auto key = dir.path() / "key.pem";
  write_self_signed(cert, key);
  TestHttpServer server(dir.path(), [&](mcp::http::HttpServerOptions& o) {
    o.listener.tls_cert = cert.string();
    o.listener.tls_key = key.string();
  });
  EXPECT_EQ(server.http().url().rfind("https://127.0.0.1:", 0), 0u);
  const std::string body = init_body();
  const std::string request =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      "Accept: application/json, text/event-stream\r\nConnection: close\r\n"
      "Content-Length: " +
      std::to_string(body.size()) + "\r\n\r\n" + body;
  const std::string response = https_exchange(server.port(), request);
  EXPECT_EQ(response.rfind("HTTP/1.1 200", 0), 0u) << response;
  EXPECT_NE(response.find("Mcp-Session-Id: "), std::string::npos);
  EXPECT_NE(response.find("\"protocolVersion\":\"2025-11-25\""), std::string::npos);
}

TEST(Tls, MissingCertificateFileIsAClearStartError) {
  TempDir dir;
  mcp::asio::io_context io;
  mcp::Server server(io.get_executor(), mcp::ServerOptions{});
  mcp::http::HttpServerOptions o;
  o.data_dir = dir.path();
  o.listener.tls_cert = (dir.path() / "missing.pem").string();
  o.listener.tls_key = (dir.path() / "missing-key.pem").string();
  mcp::http::HttpServer http(server, io.get_executor(), o);
  try {
    http.start();
    FAIL() << "start() accepted a missing certificate";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("missing.pem"), std::string::npos) << e.what();
  }
  o.listener.tls_key.clear();
  mcp::http::HttpServer half(server, io.get_executor(), o);
  EXPECT_THROW(half.start(), std::runtime_error);
}

TEST(Bind, PortInUseIsAClearStartError) {
  TempDir dir;
  TestHttpServer first(dir.path());
  mcp::asio::io_context io;
  mcp::Server server(io.get_executor(), mcp::ServerOptions{});
  mcp::http::HttpServerOptions o;
  o.data_dir = dir.path();
  o.listener.port = first.port();
  mcp::http::HttpServer second(server, io.get_executor(), o);
  try {
    second.start();
    FAIL() << "bound a port already in use";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(first.port())), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hamcp::test
