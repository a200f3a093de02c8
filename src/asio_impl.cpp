// The one translation unit that compiles Boost.Asio and Boost.Beast.
// Everything else is built with BOOST_ASIO_SEPARATE_COMPILATION and
// BOOST_BEAST_SEPARATE_COMPILATION, so it only parses declarations; this
// roughly halves build time and memory on a small machine.
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
