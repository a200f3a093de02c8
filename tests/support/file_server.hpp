#pragma once
// A loopback HTTP/1.1 server for tests that need Home Assistant (or the
// simulator) to fetch a URL: serves fixed bodies by path, 404 otherwise, one
// request per connection. Runs on its own thread; stops in its destructor.

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <map>
#include <memory>
#include <string>
#include <thread>

namespace hamcp::testing {

class FileServer {
 public:
  explicit FileServer(std::map<std::string, std::string> files)
      : files_(std::move(files)), acceptor_(io_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    accept();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~FileServer() {
    io_.stop();
    thread_.join();
  }
  FileServer(const FileServer&) = delete;
  FileServer& operator=(const FileServer&) = delete;

  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + path;
  }

 private:
  struct Conn {
    explicit Conn(boost::asio::io_context& io) : socket(io) {}
    boost::asio::ip::tcp::socket socket;
    boost::asio::streambuf in;
    std::string out;
  };

  void accept() {
    auto conn = std::make_shared<Conn>(io_);
    acceptor_.async_accept(conn->socket, [this, conn](boost::system::error_code ec) {
      if (ec) return;
      boost::asio::async_read_until(conn->socket, conn->in, "\r\n\r\n", [this, conn](auto ec, std::size_t) {
        if (ec) return;
        std::istream is(&conn->in);
        std::string method, path;
        is >> method >> path;
        auto it = files_.find(path);
        const bool found = it != files_.end();
        const std::string body = found ? it->second : std::string("not found");
        conn->out =
            std::string("HTTP/1.1 ") + (found ? "200 OK" : "404 Not Found") +
            "\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: " + std::to_string(body.size()) +
            "\r\n\r\n" + body;
        boost::asio::async_write(conn->socket, boost::asio::buffer(conn->out), [conn](auto, std::size_t) {});
      });
      accept();
    });
  }

  std::map<std::string, std::string> files_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::thread thread_;
};

}  // namespace hamcp::testing
