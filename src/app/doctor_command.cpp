// `hamcp doctor`: check the way to Home Assistant step by step and print a
// report (text or --json) on stdout. Exit code 0 when every step passed, 1
// when one failed. The token is never printed.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <cstdio>
#include <exception>

#include "app/commands.hpp"
#include "ha/doctor.hpp"
#include "json/json_text.hpp"

namespace hamcp::app {

int run_doctor(const Config& config) {
  ha::ConnectionInput input;
  input.url = config.ha.url;
  input.token = config.ha.token;
  input.ca_file = config.ha.ca_file;
  input.insecure_tls = config.ha.insecure_tls;
  input.timeout = config.ha.timeout;
  ha::fill_from_environment(input);  // SUPERVISOR_TOKEN in an add-on

  ha::DoctorOptions options;
  options.step_timeout = std::min(config.ha.timeout, std::chrono::milliseconds(15000));

  boost::asio::io_context ioc;
  // Stop the loop as soon as the checks are done: idle keep-alive connections and their
  // timers (up to the HA timeout, 30 s by default) must not hold the report back.
  ha::DoctorReport report;
  std::exception_ptr failure;
  boost::asio::co_spawn(ioc, ha::run_doctor_checks(input, options), [&](std::exception_ptr e, ha::DoctorReport r) {
    failure = e;
    if (!e) report = std::move(r);
    ioc.stop();
  });
  ioc.run();
  if (failure) {
    try {
      std::rethrow_exception(failure);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "hamcp doctor: internal error: %s\n", e.what());
    }
    return 2;
  }
  const std::string out = config.doctor_json ? json_text(report.to_json()) + "\n" : report.to_text();
  std::fwrite(out.data(), 1, out.size(), stdout);
  return report.ok() ? 0 : 1;
}

}  // namespace hamcp::app
