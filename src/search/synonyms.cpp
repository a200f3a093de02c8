#include "search/synonyms.hpp"

#include <initializer_list>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace hamcp::search {
namespace {

// Each line is one group of words that mean the same thing to someone asking
// for an entity. HA domain and device-class names are members, so a group
// word reaches entities through their domain/device_class fields even when
// their names do not contain it ("lamp" finds light.* entities).
const std::initializer_list<std::initializer_list<const char32_t*>> kGroups = {
    // Domains and device classes.
    {U"light", U"lights", U"lamp", U"lamps", U"bulb", U"bulbs", U"licht", U"lichter", U"lampe", U"lampen", U"leuchte",
     U"leuchten", U"lumiere", U"lumieres", U"luz", U"luces", U"lampara", U"lamparas"},
    {U"switch", U"switches", U"schalter", U"interrupteur", U"interruptor"},
    {U"outlet", U"outlets", U"plug", U"plugs", U"socket", U"sockets", U"steckdose", U"steckdosen", U"prise",
     U"enchufe"},
    {U"climate", U"thermostat", U"thermostats", U"heating", U"heater", U"hvac", U"aircon", U"heizung", U"chauffage",
     U"calefaccion", U"termostato"},
    {U"temperature", U"temperatures", U"temp", U"temperatur", U"temperatura"},
    {U"humidity", U"humid", U"luftfeuchtigkeit", U"feuchtigkeit", U"luftfeuchte", U"humidite", U"humedad"},
    {U"door", U"doors", U"tur", U"turen", U"porte", U"portes", U"puerta", U"puertas"},
    {U"window", U"windows", U"fenster", U"fenetre", U"fenetres", U"ventana", U"ventanas"},
    {U"motion", U"movement", U"occupancy", U"presence", U"bewegung", U"bewegungsmelder", U"mouvement", U"movimiento",
     U"presencia"},
    {U"lock", U"locks", U"schloss", U"turschloss", U"serrure", U"cerradura"},
    {U"cover", U"covers", U"blind", U"blinds", U"shade", U"shades", U"shutter", U"shutters", U"curtain", U"curtains",
     U"rollladen", U"rolladen", U"jalousie", U"volet", U"volets", U"persiana", U"persianas"},
    {U"fan", U"fans", U"ventilator", U"ventilateur", U"ventilador"},
    {U"mediaplayer", U"media", U"tv", U"television", U"speaker", U"speakers", U"fernseher", U"lautsprecher",
     U"televisor", U"altavoz", U"enceinte"},
    {U"camera", U"cameras", U"cam", U"kamera", U"camara"},
    {U"vacuum", U"hoover", U"saugroboter", U"staubsauger", U"aspirateur", U"aspiradora"},
    {U"battery", U"batteries", U"akku", U"batterie", U"bateria"},
    {U"power", U"leistung", U"puissance", U"potencia", U"watt"},
    {U"energy", U"energie", U"energia", U"consumption", U"verbrauch"},
    {U"smoke", U"rauch", U"rauchmelder", U"fumee", U"humo"},
    {U"moisture", U"leak", U"wasser", U"fuite", U"fuga"},
    {U"illuminance", U"lux", U"helligkeit", U"luminosite"},
    {U"weather", U"wetter", U"meteo", U"tiempo", U"forecast"},
    {U"person", U"people", U"persons", U"personne", U"persona"},
    {U"automation", U"automations", U"automatisierung", U"automatisation", U"automatizacion"},
    {U"scene", U"scenes", U"szene", U"szenen", U"escena"},
    {U"script", U"scripts", U"skript"},
    {U"sensor", U"sensors", U"fuhler", U"capteur", U"capteurs"},
    // Rooms ("livingroom" etc. match the joined word pairs the index stores).
    {U"kitchen", U"kuche", U"cuisine", U"cocina"},
    {U"livingroom", U"lounge", U"wohnzimmer", U"salon", U"sala"},
    {U"bedroom", U"schlafzimmer", U"chambre", U"dormitorio"},
    {U"bathroom", U"badezimmer", U"bad", U"bano", U"salledebain"},
    {U"office", U"study", U"buro", U"arbeitszimmer", U"bureau", U"oficina", U"despacho"},
    {U"hallway", U"hall", U"corridor", U"flur", U"diele", U"couloir", U"pasillo"},
    {U"diningroom", U"esszimmer", U"comedor", U"salleamanger"},
    {U"garden", U"yard", U"backyard", U"garten", U"jardin"},
    {U"basement", U"cellar", U"keller", U"sotano"},
    {U"attic", U"dachboden", U"grenier", U"atico"},
    {U"nursery", U"kinderzimmer", U"kidsroom"},
    {U"laundry", U"laundryroom", U"waschkuche", U"buanderie", U"lavanderia"},
    {U"entrance", U"entry", U"eingang", U"entree", U"entrada"},
    {U"balcony", U"balkon", U"balcon"},
    {U"terrace", U"patio", U"terrasse", U"terraza"},
};

const char32_t* const kStopwords[] = {
    U"the", U"a",    U"an",  U"in",  U"of",  U"at",  U"my",  U"all", U"and", U"with",
    U"im",  U"der",  U"die", U"das", U"dem", U"und", U"le",  U"la",  U"les", U"du",
    U"des", U"dans", U"et",  U"el",  U"los", U"las", U"del", U"en",  U"y",
};

struct Tables {
  std::vector<std::vector<std::u32string>> others;  // per (group, member): the other members
  std::unordered_map<std::u32string, size_t> index;
  std::unordered_set<std::u32string> stopwords;
  std::vector<std::u32string> words;

  Tables() {
    for (const auto& group : kGroups) {
      for (const char32_t* word : group) {
        std::vector<std::u32string> rest;
        for (const char32_t* other : group)
          if (other != word) rest.emplace_back(other);
        index.emplace(word, others.size());
        words.emplace_back(word);
        others.push_back(std::move(rest));
      }
    }
    for (const char32_t* w : kStopwords) stopwords.emplace(w);
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

}  // namespace

std::span<const std::u32string> synonyms_of(std::u32string_view token) {
  const auto& t = tables();
  auto it = t.index.find(std::u32string(token));
  if (it == t.index.end()) return {};
  return t.others[it->second];
}

std::span<const std::u32string> all_synonym_words() { return tables().words; }

bool is_stopword(std::u32string_view token) { return tables().stopwords.contains(std::u32string(token)); }

}  // namespace hamcp::search
