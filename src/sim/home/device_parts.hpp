#pragma once
// The parts every device kind is built from (device_kinds*.cpp, home_singletons.cpp):
// a catalogue model, the device, an entity spec, the sensors most devices carry.

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "sim/home/home_builder.hpp"

namespace hamcp::sim::parts {

struct Model {
  const char* manufacturer;
  const char* model;
  const char* platform;
  const char* sw_version;
};

// v with `decimals` digits after the point, as integrations report readings.
std::string num(double v, int decimals);

// Picks a model, names the device "<Room> <noun>" (German nouns in German
// rooms) and returns the device id; `platform_out` receives the integration.
std::string make_device(HomeBuilder& b, const Room& room, const KindOptions& o, const std::vector<Model>& models,
                        const std::vector<const char*>& nouns_en, const std::vector<const char*>& nouns_de,
                        std::string& platform_out);

EntitySpec spec(const std::string& domain, const std::string& device, const std::string& platform,
                std::optional<std::string> name, std::string state, json::object attrs);

// A sensor entity of the device; returns its entity id.
std::string sensor(HomeBuilder& b, const std::string& dev, const std::string& platform, std::string name,
                   std::string value, std::string device_class, std::string unit, std::string state_class,
                   bool diagnostic = false);

std::string battery(HomeBuilder& b, const std::string& dev, const std::string& platform);

// A firmware update entity for 15 % of devices, a third of them pending.
void maybe_update(HomeBuilder& b, const std::string& dev, const std::string& platform, const char* version);

// The kind's options (aliases, labels) on its main entity.
void apply_main(EntitySpec& s, const KindOptions& o);

json::array arr(std::initializer_list<const char*> items);

}  // namespace hamcp::sim::parts
