// The index keeps each document packed into one buffer (search/packed_doc.hpp):
// unpacking must give back every field exactly, long texts and lists included.
#include "search/packed_doc.hpp"

#include <gtest/gtest.h>

using namespace hamcp::search;

TEST(PackedDoc, UnpacksEveryFieldExactly) {
  EntityDoc d;
  d.entity_id = "light.apt_12a_living_room_ceiling_light";
  d.domain = "light";
  d.friendly_name = "Apt 12A Living Room Ceiling Light";
  d.registry_name = std::string(300, 'x');  // beyond the one-byte length prefix
  d.original_name = "";
  d.aliases = {"Deckenlicht", "", "Küche ☀"};
  d.area_id = "apt_12a_living_room";
  d.area_name = "Apt 12A Living Room";
  d.area_aliases = {"lounge"};
  d.floor_id = "f12";
  d.floor_name = "Floor 12";
  d.floor_aliases = {};
  d.device_id = "0123456789abcdef0123456789abcdef";
  d.device_name = "Ceiling";
  d.manufacturer = "Signify";
  d.model = "Hue White";
  d.labels = {"Night", "Energy"};
  d.device_class = "";
  d.state = std::string("o\0n", 3);  // any bytes
  d.hidden = true;
  d.disabled = false;
  const PackedDoc p(d);
  EXPECT_EQ(p.entity_id(), d.entity_id);
  EXPECT_TRUE(p.hidden());
  EXPECT_FALSE(p.disabled());
  const EntityDoc u = p.unpack();
  for (auto f : {&EntityDoc::entity_id, &EntityDoc::domain, &EntityDoc::friendly_name, &EntityDoc::registry_name,
                 &EntityDoc::original_name, &EntityDoc::area_id, &EntityDoc::area_name, &EntityDoc::floor_id,
                 &EntityDoc::floor_name, &EntityDoc::device_id, &EntityDoc::device_name, &EntityDoc::manufacturer,
                 &EntityDoc::model, &EntityDoc::device_class, &EntityDoc::state})
    EXPECT_EQ(u.*f, d.*f);
  for (auto f : {&EntityDoc::aliases, &EntityDoc::area_aliases, &EntityDoc::floor_aliases, &EntityDoc::labels})
    EXPECT_EQ(u.*f, d.*f);
  EXPECT_EQ(u.hidden, d.hidden);
  EXPECT_EQ(u.disabled, d.disabled);
  EXPECT_LT(sizeof(PackedDoc), sizeof(EntityDoc) / 4);
  EXPECT_EQ(PackedDoc().entity_id(), "");
}

// Texts repeated within a document (a device named like its entity), device
// ids (32 hex digits, packed at half size), ids that only look like hex, and
// the shared place part must all come back exactly.
TEST(PackedDoc, RepeatsHexIdsAndSharedPlacesUnpackExactly) {
  EntityDoc d;
  d.entity_id = "switch.coffee_machine";
  d.friendly_name = "Coffee Machine";
  d.device_name = "Coffee Machine";
  d.aliases = {"Coffee Machine", "Espresso"};
  d.labels = {"Espresso", "Coffee Machine"};
  d.device_id = "ABCDEF0123456789abcdef0123456789";  // upper case: not packed as hex
  d.model = "0123456789abcdef0123456789abcdef";      // hex, but only the device id is packed as one
  d.area_id = "kitchen";
  d.area_name = "Kitchen";
  d.floor_name = "Kitchen";
  d.state = "on";
  PlacePool pool;
  const PackedDoc a(d, &pool);
  EntityDoc other = d;
  other.entity_id = "light.kitchen";
  other.device_id = "0123456789abcdef0123456789abcdef";
  const PackedDoc b(other, &pool);
  EXPECT_EQ(pool.size(), 1u);  // one place for both
  const EntityDoc u = a.unpack();
  EXPECT_EQ(u.friendly_name, d.friendly_name);
  EXPECT_EQ(u.device_name, d.device_name);
  EXPECT_EQ(u.aliases, d.aliases);
  EXPECT_EQ(u.labels, d.labels);
  EXPECT_EQ(u.device_id, d.device_id);
  EXPECT_EQ(u.model, d.model);
  EXPECT_EQ(u.area_id, d.area_id);
  EXPECT_EQ(u.floor_name, d.floor_name);
  const EntityDoc v = b.unpack();
  EXPECT_EQ(v.device_id, other.device_id);
  EXPECT_EQ(v.entity_id, other.entity_id);
  EXPECT_EQ(v.area_name, other.area_name);
  EXPECT_EQ(b.entity_id(), "light.kitchen");
}
