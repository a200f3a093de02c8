#include "loopback_servers.hpp"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <unistd.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace hamcp::ha::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

namespace {

std::string write_temp(const std::string& content, const char* suffix) {
  char name[] = "/tmp/hamcp-test-XXXXXX";
  const int fd = mkstemp(name);
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  close(fd);
  std::string path = std::string(name) + suffix;
  std::rename(name, path.c_str());
  std::ofstream(path) << content;
  return path;
}

std::string bio_string(BIO* bio) {
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<std::size_t>(n));
}

}  // namespace

TestCertificate make_self_signed(const std::vector<std::string>& dns_names, const std::vector<std::string>& ips) {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* cert = X509_new();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 4242);
  X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert), 3600L * 24);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("hamcp test"), -1, -1, 0);
  X509_set_issuer_name(cert, name);
  std::string san;
  for (const auto& d : dns_names) san += (san.empty() ? "" : ",") + std::string("DNS:") + d;
  for (const auto& i : ips) san += (san.empty() ? "" : ",") + std::string("IP:") + i;
  X509V3_CTX v3;
  X509V3_set_ctx_nodb(&v3);
  X509V3_set_ctx(&v3, cert, cert, nullptr, nullptr, 0);
  if (X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &v3, NID_subject_alt_name, san.c_str())) {
    X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
  }
  if (X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &v3, NID_basic_constraints, "critical,CA:TRUE")) {
    X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
  }
  X509_sign(cert, key, EVP_sha256());
  BIO* cb = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(cb, cert);
  BIO* kb = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(kb, key, nullptr, nullptr, 0, nullptr, nullptr);
  TestCertificate out;
  out.cert_pem = bio_string(cb);
  out.cert_file = write_temp(out.cert_pem, ".crt");
  out.key_file = write_temp(bio_string(kb), ".key");
  BIO_free(cb);
  BIO_free(kb);
  X509_free(cert);
  EVP_PKEY_free(key);
  return out;
}

struct StubHttpServer::Impl {
  asio::io_context ioc;
  tcp::acceptor acceptor{ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)};
  std::unique_ptr<ssl::context> ssl_ctx;
  StubHandler handler;
  std::atomic<std::size_t> request_count{0};
  std::atomic<std::size_t> connection_count{0};
  std::thread thread;

  template <class Stream>
  asio::awaitable<void> serve(Stream& stream) {
    beast::flat_buffer buffer;
    for (;;) {
      http::request<http::string_body> req;
      boost::system::error_code ec;
      co_await http::async_read(stream, buffer, req, asio::redirect_error(asio::use_awaitable, ec));
      if (ec == http::error::bad_method || ec == http::error::bad_version || ec == http::error::bad_target) {
        // Like aiohttp: answer garbage (e.g. a TLS ClientHello) with a 400 and close.
        std::string bad = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
        co_await asio::async_write(stream, asio::buffer(bad), asio::redirect_error(asio::use_awaitable, ec));
        co_return;
      }
      if (ec) co_return;
      ++request_count;
      StubRequest sr{std::string(req.method_string()), std::string(req.target()),
                     std::string(req[http::field::authorization]), req.body()};
      StubResponse r = handler(sr);
      http::response<http::string_body> res{static_cast<http::status>(r.status), 11};
      res.set(http::field::content_type, r.content_type);
      res.body() = r.body;
      res.keep_alive(!r.close && req.keep_alive());
      res.prepare_payload();
      co_await http::async_write(stream, res, asio::redirect_error(asio::use_awaitable, ec));
      if (ec || r.close) co_return;
    }
  }

  asio::awaitable<void> session(tcp::socket socket) {
    ++connection_count;
    if (ssl_ctx) {
      beast::ssl_stream<tcp::socket> stream(std::move(socket), *ssl_ctx);
      boost::system::error_code ec;
      co_await stream.async_handshake(ssl::stream_base::server, asio::redirect_error(asio::use_awaitable, ec));
      if (ec) co_return;  // plain HTTP or an untrusting client: just close
      co_await serve(stream);
    } else {
      co_await serve(socket);
    }
  }

  asio::awaitable<void> accept_loop() {
    for (;;) {
      boost::system::error_code ec;
      tcp::socket s = co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
      if (ec) co_return;
      asio::co_spawn(ioc, session(std::move(s)), asio::detached);
    }
  }
};

StubHttpServer::StubHttpServer(StubHandler handler, const TestCertificate* tls) : impl_(std::make_unique<Impl>()) {
  impl_->handler = std::move(handler);
  if (tls) {
    impl_->ssl_ctx = std::make_unique<ssl::context>(ssl::context::tls_server);
    impl_->ssl_ctx->use_certificate_chain_file(tls->cert_file);
    impl_->ssl_ctx->use_private_key_file(tls->key_file, ssl::context::pem);
  }
  asio::co_spawn(impl_->ioc, impl_->accept_loop(), asio::detached);
  impl_->thread = std::thread([this] { impl_->ioc.run(); });
}

StubHttpServer::~StubHttpServer() {
  impl_->ioc.stop();
  impl_->thread.join();
}

std::uint16_t StubHttpServer::port() const { return impl_->acceptor.local_endpoint().port(); }
std::size_t StubHttpServer::requests() const { return impl_->request_count.load(); }
std::size_t StubHttpServer::connections() const { return impl_->connection_count.load(); }

struct SilentServer::Impl {
  asio::io_context ioc;
  tcp::acceptor acceptor{ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)};
  std::vector<std::shared_ptr<tcp::socket>> held;
  std::thread thread;

  asio::awaitable<void> accept_loop() {
    for (;;) {
      boost::system::error_code ec;
      tcp::socket s = co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
      if (ec) co_return;
      held.push_back(std::make_shared<tcp::socket>(std::move(s)));
    }
  }
};

SilentServer::SilentServer() : impl_(std::make_unique<Impl>()) {
  asio::co_spawn(impl_->ioc, impl_->accept_loop(), asio::detached);
  impl_->thread = std::thread([this] { impl_->ioc.run(); });
}
SilentServer::~SilentServer() {
  impl_->ioc.stop();
  impl_->thread.join();
}
std::uint16_t SilentServer::port() const { return impl_->acceptor.local_endpoint().port(); }

std::uint16_t closed_port() {
  asio::io_context ioc;
  tcp::acceptor a(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  const auto port = a.local_endpoint().port();
  a.close();
  return port;
}

}  // namespace hamcp::ha::testing
