#include "sim/serve/kv/kv_swap_pool.hpp"

#include "sim/sg/clock.hpp"
#include "sim/svc/memory_pool.hpp"

namespace llsim {

KvSwapPool::KvSwapPool(MemoryPool& pool, const std::string& phase)
    : pool_(pool)
    , prefix_("swap/" + phase + "/")
{}

std::string KvSwapPool::key(int instance, int64_t id) const
{
  return prefix_ + std::to_string(instance) + "/" + std::to_string(id);
}

const std::string& KvSwapPool::name() const
{
  return pool_.name();
}

SwapOutcome KvSwapPool::move(HostId host, int instance, int64_t id, double bytes, bool out, double local_s,
                             double deadline)
{
  const std::string k = key(instance, id);
  // A server on the host itself: the pool's own call moves nothing; the bytes cross PCIe, once
  // the pool has answered (a rejection or a miss takes no time).
  const bool local     = pool_.servers().host(static_cast<int64_t>(pool_.server_of(k))) == host;
  const auto over_pcie = [&] {
    if (!local)
      return true;
    if (now() + local_s > deadline) {
      sleep_until(deadline);
      return false;
    }
    sleep_for(local_s);
    return true;
  };
  if (out) {
    switch (pool_.put(host, k, bytes, deadline, 0, true)) {
    case PoolResult::Stored:
      if (over_pcie())
        return SwapOutcome::Moved;
      pool_.evict(k);
      return SwapOutcome::Failed;
    case PoolResult::Rejected:
      return SwapOutcome::Rejected;
    default:
      pool_.evict(k);  // a put cut short leaves nothing usable
      return SwapOutcome::Failed;
    }
  }
  const PoolResult got = pool_.get(host, k, deadline);
  pool_.evict(k);  // back in HBM, or of no use any more
  if (got == PoolResult::Hit)
    return over_pcie() ? SwapOutcome::Moved : SwapOutcome::Failed;
  return got == PoolResult::Miss ? SwapOutcome::Missed : SwapOutcome::Failed;
}

void KvSwapPool::forget(int instance, int64_t id)
{
  pool_.evict(key(instance, id));
}

}  // namespace llsim
