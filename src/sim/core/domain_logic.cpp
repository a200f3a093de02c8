#include "sim/core/domain_logic.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/saturate_cast.hpp"

namespace hamcp::sim {
namespace {

bool supports(const json::object& a, std::string_view mode) {
  const json::value* modes = a.if_contains("supported_color_modes");
  if (!modes || !modes->is_array()) return false;
  for (const auto& m : modes->get_array())
    if (m.is_string() && m.get_string() == mode) return true;
  return false;
}

bool supports_color(const json::object& a) {
  return supports(a, "hs") || supports(a, "xy") || supports(a, "rgb") || supports(a, "rgbw") || supports(a, "rgbww");
}

std::string color_mode_name(const json::object& a) {
  for (const char* m : {"xy", "hs", "rgb", "rgbw", "rgbww"})
    if (supports(a, m)) return m;
  return "hs";
}

int int_or(const json::object& a, std::string_view key, int fallback) {
  const json::value* v = a.if_contains(key);
  if (v && v->is_int64()) return saturate_cast<int>(static_cast<double>(v->get_int64()));
  if (v && v->is_double()) return saturate_cast<int>(v->get_double());
  return fallback;
}

void set_color(json::object& a, const std::array<int, 3>& rgb) {
  auto hs = rgb_to_hs(rgb);
  auto xy = rgb_to_xy(rgb);
  a["hs_color"] = json::array{round_to(hs[0], 3), round_to(hs[1], 3)};
  a["rgb_color"] = json::array{rgb[0], rgb[1], rgb[2]};
  a["xy_color"] = json::array{round_to(xy[0], 3), round_to(xy[1], 3)};
}

}  // namespace

double round_to(double v, int digits) {
  double f = std::pow(10.0, digits);
  return std::round(v * f) / f;
}

std::array<double, 2> rgb_to_hs(const std::array<int, 3>& rgb) {
  double r = rgb[0] / 255.0, g = rgb[1] / 255.0, b = rgb[2] / 255.0;
  double mx = std::max({r, g, b}), mn = std::min({r, g, b}), d = mx - mn;
  double h = 0;
  if (d > 0) {
    if (mx == r)
      h = std::fmod((g - b) / d, 6.0);
    else if (mx == g)
      h = (b - r) / d + 2;
    else
      h = (r - g) / d + 4;
    h *= 60;
    if (h < 0) h += 360;
  }
  double s = mx == 0 ? 0 : d / mx;
  return {h, s * 100};
}

std::array<int, 3> hs_to_rgb(const std::array<double, 2>& hs) {
  double h = std::fmod(hs[0], 360.0), s = std::clamp(hs[1], 0.0, 100.0) / 100.0, v = 1.0;
  double c = v * s, x = c * (1 - std::fabs(std::fmod(h / 60.0, 2) - 1)), m = v - c;
  double r = 0, g = 0, b = 0;
  if (h < 60) {
    r = c;
    g = x;
  } else if (h < 120) {
    r = x;
    g = c;
  } else if (h < 180) {
    g = c;
    b = x;
  } else if (h < 240) {
    g = x;
    b = c;
  } else if (h < 300) {
    r = x;
    b = c;
  } else {
    r = c;
    b = x;
  }
  auto to = [&](double u) { return static_cast<int>(std::lround((u + m) * 255)); };
  return {to(r), to(g), to(b)};
}

std::array<double, 2> rgb_to_xy(const std::array<int, 3>& rgb) {
  auto lin = [](int c) {
    double u = c / 255.0;
    return u > 0.04045 ? std::pow((u + 0.055) / 1.055, 2.4) : u / 12.92;
  };
  double r = lin(rgb[0]), g = lin(rgb[1]), b = lin(rgb[2]);
  double X = r * 0.664511 + g * 0.154324 + b * 0.162028;
  double Y = r * 0.283881 + g * 0.668433 + b * 0.047685;
  double Z = r * 0.000088 + g * 0.072310 + b * 0.986039;
  double sum = X + Y + Z;
  if (sum == 0) return {0.0, 0.0};
  return {X / sum, Y / sum};
}

std::array<int, 3> kelvin_to_rgb(int kelvin) {
  // Tanner Helland's approximation of black-body colour, as HA's color util uses.
  double t = std::clamp(kelvin, 1000, 40000) / 100.0;
  double r, g, b;
  if (t <= 66)
    r = 255;
  else
    r = 329.698727446 * std::pow(t - 60, -0.1332047592);
  if (t <= 66)
    g = 99.4708025861 * std::log(t) - 161.1195681661;
  else
    g = 288.1221695283 * std::pow(t - 60, -0.0755148492);
  if (t >= 66)
    b = 255;
  else if (t <= 19)
    b = 0;
  else
    b = 138.5177312231 * std::log(t - 10) - 305.0447927307;
  auto c = [](double u) { return static_cast<int>(std::lround(std::clamp(u, 0.0, 255.0))); };
  return {c(r), c(g), c(b)};
}

void light_turn_off(json::object& a) {
  for (const char* key :
       {"brightness", "color_mode", "color_temp_kelvin", "color_temp", "hs_color", "rgb_color", "xy_color"})
    if (a.contains(key) || key == std::string_view("brightness") || key == std::string_view("color_mode"))
      a[key] = nullptr;
  if (a.contains("effect")) a["effect"] = nullptr;
}

void light_turn_on(json::object& a, const LightChange& change) {
  bool dimmable = !supports(a, "onoff");
  bool has_ct = supports(a, "color_temp");
  bool has_color = supports_color(a);
  bool was_on = a.contains("color_mode") && !a["color_mode"].is_null();

  if (dimmable) {
    int brightness = was_on ? int_or(a, "brightness", 255) : 255;
    if (change.brightness) brightness = std::clamp(*change.brightness, 1, 255);
    a["brightness"] = brightness;
  } else {
    a["brightness"] = nullptr;
  }

  std::string mode = was_on ? std::string(a["color_mode"].get_string()) : std::string();
  if ((change.rgb || change.hs) && has_color) {
    mode = color_mode_name(a);
  } else if (change.color_temp_kelvin && has_ct) {
    mode = "color_temp";
  } else if (mode.empty()) {
    mode = has_ct ? "color_temp" : has_color ? color_mode_name(a) : dimmable ? "brightness" : "onoff";
  }
  a["color_mode"] = mode;

  if (mode == "color_temp") {
    int lo = int_or(a, "min_color_temp_kelvin", 2000), hi = int_or(a, "max_color_temp_kelvin", 6535);
    int k = was_on ? int_or(a, "color_temp_kelvin", 3000) : 3000;
    if (change.color_temp_kelvin) k = *change.color_temp_kelvin;
    k = std::clamp(k, lo, hi);
    a["color_temp_kelvin"] = k;
    a["color_temp"] = static_cast<int>(std::lround(1000000.0 / k));
    set_color(a, kelvin_to_rgb(k));
    // HA reports hs/xy derived from the temperature, but rgb of a CT light too.
  } else if (mode == "brightness" || mode == "onoff") {
    // no colour attributes
  } else {
    std::array<int, 3> rgb{255, 255, 255};
    if (was_on && a.contains("rgb_color") && a["rgb_color"].is_array()) {
      const auto& arr = a["rgb_color"].get_array();
      if (arr.size() == 3)
        for (int i = 0; i < 3; ++i) rgb[i] = saturate_cast<int>(arr[i].to_number<double>());
    }
    if (change.rgb)
      rgb = *change.rgb;
    else if (change.hs)
      rgb = hs_to_rgb(*change.hs);
    set_color(a, rgb);
    if (has_ct) {
      a["color_temp_kelvin"] = nullptr;
      a["color_temp"] = nullptr;
    }
    if (change.hs) a["hs_color"] = json::array{round_to((*change.hs)[0], 3), round_to((*change.hs)[1], 3)};
  }
  if (change.effect && a.contains("effect_list"))
    a["effect"] = *change.effect;
  else if (a.contains("effect_list") && a["effect"].is_null())
    a["effect"] = "off";
}

}  // namespace hamcp::sim
