// IndexStore's bulk building (index_store.hpp: begin_bulk): the postings of
// a fresh index are noted in one flat list and every token gets its list
// once, at its final size.
#include <memory>

#include "search/index_store.hpp"

namespace hamcp::search {

void IndexStore::begin_bulk(std::size_t expected_entities) {
  end_bulk();
  bulk_ = std::make_unique<Bulk>();
  bulk_->first_slot = static_cast<Slot>(entries_.size());
  // ~20 postings per entity: one mapping of the right size (big blocks are
  // mmap'd and unmapped when freed: the scratch leaves no holes).
  bulk_->postings.reserve(expected_entities * 24);
  bulk_->per_slot.reserve(expected_entities);
}

bool IndexStore::defer_postings(Slot slot, const TokenRefs& tokens) {
  if (!bulk_) return false;
  if (slot != bulk_->first_slot + bulk_->per_slot.size()) {  // not appended in order: not a bulk insert
    end_bulk();
    return false;
  }
  for (const auto& [t, mask] : tokens) {
    bulk_->postings.push_back({static_cast<std::uint16_t>(t), static_cast<std::uint16_t>(t >> 16), mask});
    if (t >= bulk_->per_token.size()) bulk_->per_token.resize(std::size_t{t} + 1, 0);
    ++bulk_->per_token[t];
  }
  bulk_->per_slot.push_back(static_cast<std::uint32_t>(tokens.size()));
  return true;
}

void IndexStore::end_bulk() {
  if (!bulk_) return;
  const std::unique_ptr<Bulk> bulk = std::move(bulk_);
  for (TokenId t = 0; t < bulk->per_token.size(); ++t) {
    auto& list = tokens_[t].postings;
    list.reserve(list.size() + bulk->per_token[t]);
  }
  // Slots ascend, and every earlier posting has a lower slot: the lists stay sorted.
  std::size_t at = 0;
  for (std::size_t i = 0; i < bulk->per_slot.size(); ++i) {
    const Slot slot = bulk->first_slot + static_cast<Slot>(i);
    for (std::uint32_t n = 0; n < bulk->per_slot[i]; ++n, ++at) {
      const Bulk::Pending& p = bulk->postings[at];
      const TokenId t = TokenId{p.token_lo} | (TokenId{p.token_hi} << 16);
      tokens_[t].postings.emplace_back(slot, p.fields);
    }
  }
}

}  // namespace hamcp::search
