#pragma once
// Attribute rules Home Assistant entities follow, shared by the home builders
// (initial states) and the services (changes): a light's colour attributes
// move together, an off light reports them as null, etc.

#include <array>
#include <boost/json.hpp>
#include <optional>

namespace hamcp::sim {

namespace json = boost::json;

// Requested light change (light.turn_on data, already validated).
struct LightChange {
  std::optional<int> brightness;            // 0..255 (0 turns the light off)
  std::optional<std::array<int, 3>> rgb;    // 0..255 each
  std::optional<int> color_temp_kelvin;     // clamped to the light's range
  std::optional<std::array<double, 2>> hs;  // hue 0..360, saturation 0..100
  std::optional<std::string> effect;
};

// Turns the light on (from off or on), keeping previous brightness/colour when
// the change does not say otherwise, and keeps every colour attribute consistent
// with color_mode and supported_color_modes.
void light_turn_on(json::object& attributes, const LightChange& change);
// Off: brightness, color_mode and all colour attributes become null (as HA reports).
void light_turn_off(json::object& attributes);

std::array<double, 2> rgb_to_hs(const std::array<int, 3>& rgb);
std::array<int, 3> hs_to_rgb(const std::array<double, 2>& hs);
std::array<double, 2> rgb_to_xy(const std::array<int, 3>& rgb);
std::array<int, 3> kelvin_to_rgb(int kelvin);

// Rounds to `digits` decimals (HA rounds hs/xy to 3/4 digits).
double round_to(double v, int digits);

}  // namespace hamcp::sim
