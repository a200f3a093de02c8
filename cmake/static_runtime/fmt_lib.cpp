// fmt's compiled part, built from Debian's headers (libfmt-dev ships no static library; see
// cmake/static_runtime.cmake). Without FMT_HEADER_ONLY, format-inl.h defines fmt's out-of-line
// functions (FMT_FUNC is empty); the templates format.h declares `extern template` are
// instantiated here, once, as the shared library does.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template FMT_API auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto thousands_sep_impl<wchar_t>(locale_ref) -> thousands_sep_result<wchar_t>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API auto decimal_point_impl(locale_ref) -> wchar_t;

}  // namespace detail
FMT_END_NAMESPACE
