#include "sim/serve/kv/kv_block_store.hpp"

#include "sim/core/errors.hpp"
#include "sim/faults/host_faults.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/svc/memory_pool.hpp"
#include "sim/svc/storage.hpp"

#include <algorithm>
#include <cinttypes>
#include <limits>

XBT_LOG_EXTERNAL_CATEGORY(llsim_serve);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_serve_kv_block_store, llsim_serve,
                                "KV blocks written to and deleted from the tiers");

namespace llsim {

namespace {

constexpr double kNoDeadline = std::numeric_limits<double>::infinity();

std::string key_of(uint64_t id)
{
  return "kv" + std::to_string(id);
}

}  // namespace

KvBlockStore::KvBlockStore(MemoryPool& pool, StorageService* ssd, double ssd_capacity_B, int64_t block_tokens,
                           double kv_B_per_token)
    : pool_(pool)
    , ssd_(ssd)
    , ssd_capacity_B_(ssd_capacity_B)
    , block_tokens_(block_tokens)
    , kv_B_per_token_(kv_B_per_token)
{}

double KvBlockStore::block_B(size_t index, int64_t input_tokens) const
{
  const int64_t first  = static_cast<int64_t>(index) * block_tokens_;
  const int64_t tokens = std::clamp<int64_t>(input_tokens - first, 1, block_tokens_);
  return static_cast<double>(tokens) * kv_B_per_token_;
}

bool KvBlockStore::over_network(HostId host, const std::string& key) const
{
  return pool_.servers().host(static_cast<int64_t>(pool_.server_of(key))) != host;
}

double KvBlockStore::evictions() const
{
  return pool_.evictions() + ssd_evictions_;
}

int64_t KvBlockStore::held_prefix(const std::vector<uint64_t>& ids) const
{
  size_t n = 0;
  while (n < ids.size() && (pool_.holds(key_of(ids[n])) || on_ssd(ids[n])))
    ++n;
  return static_cast<int64_t>(n);
}

double KvBlockStore::ssd_deadline(size_t file, double deadline) const
{
  const StripeLayout& layout = ssd_->layout(file);
  for (size_t k = 0; k < layout.count; ++k) {
    const HostId server = ssd_->host_of_target(layout.target(k));
    if (faults_->is_down(server, now()))
      return now();
    deadline = std::min(deadline, faults_->next_failure(server, now()));
  }
  return deadline;
}

int64_t KvBlockStore::fetch(HostId host, const std::vector<uint64_t>& ids, int64_t from, int64_t to,
                            int64_t input_tokens)
{
  for (int64_t k = from; k < to; ++k) {
    const auto i       = static_cast<size_t>(k);
    const double bytes = block_B(i, input_tokens);
    if (pool_.get(host, key_of(ids[i]), kNoDeadline) == PoolResult::Hit) {
      moved_B_ += over_network(host, key_of(ids[i])) ? bytes : 0;
      continue;
    }
    const auto it = ssd_files_.find(ids[i]);
    if (it == ssd_files_.end())
      return k;
    const double until = ssd_deadline(it->second.file, kNoDeadline);
    if (until <= now() || !ssd_->read(host, it->second.file, 0, it->second.bytes, until).ok())
      return k;
    ssd_order_.splice(ssd_order_.begin(), ssd_order_, it->second.at);
    moved_B_ += bytes;
  }
  return to;
}

void KvBlockStore::store(HostId host, const std::vector<uint64_t>& ids, int64_t input_tokens, double deadline)
{
  XBT_DEBUG("stores the %zu prefix blocks of a %ld-token prompt (those the pool lacks)", ids.size(),
            static_cast<long>(input_tokens));
  for (size_t i = 0; i < ids.size() && now() < deadline; ++i) {
    const double bytes    = block_B(i, input_tokens);
    const std::string key = key_of(ids[i]);
    if (!pool_.holds(key) && pool_.put(host, key, bytes, deadline, static_cast<int64_t>(i)) == PoolResult::Stored) {
      moved_B_ += over_network(host, key) ? bytes : 0;  // (not stored: the pool server is full or down)
      stored(bytes);
    }
    peak_B_ = std::max(peak_B_, pool_.stored_B());
    if (ssd_ != nullptr && !on_ssd(ids[i]))
      write_to_ssd(host, ids[i], bytes, deadline);
  }
}

void KvBlockStore::write_to_ssd(HostId host, uint64_t id, double bytes, double deadline)
{
  if (bytes > ssd_capacity_B_)
    return;
  while (ssd_used_B_ + bytes > ssd_capacity_B_) {
    const auto victim = ssd_files_.find(ssd_order_.back());
    XBT_DEBUG("SSD tier full: deletes block %016" PRIx64 " (%g B), the least recently used", victim->first,
              victim->second.bytes);
    ssd_->remove(victim->second.file);
    ssd_used_B_ -= victim->second.bytes;
    ssd_files_.erase(victim);
    ssd_order_.pop_back();
    ssd_evictions_ += 1;
  }
  const size_t file  = ssd_->new_file();
  const double until = ssd_deadline(file, deadline);
  if (until <= now()) {  // a server it would be written to is down
    ssd_->remove(file);
    return;
  }
  ssd_order_.push_front(id);
  ssd_files_[id] = {file, bytes, ssd_order_.begin()};
  ssd_used_B_ += bytes;
  const IoOutcome written = ssd_->write(host, file, 0, bytes, until);
  if (written.status == IoStatus::NoSpace)  // other files took the room the tier counted on
    throw SimulationError(written.message + " (the KVCache SSD tier counts on room its storage does not "
                                            "have: lower ssd.capacity, or leave it more of the disks)");
  if (!written.ok()) {                    // a host failed: the block is not there
    const auto it = ssd_files_.find(id);  // (unless evicted meanwhile)
    if (it != ssd_files_.end() && it->second.file == file) {
      ssd_->remove(file);
      ssd_used_B_ -= bytes;
      ssd_order_.erase(it->second.at);
      ssd_files_.erase(it);
    }
    return;
  }
  moved_B_ += bytes;
  stored(bytes);
}

void KvBlockStore::stored(double bytes)
{
  if (now() > drain_from_s_) {
    drain_B_ += bytes;
    drain_end_s_ = now();
  }
}

}  // namespace llsim
