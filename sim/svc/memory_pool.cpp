// Service kind `memory_pool` (sim/svc/memory_pool.hpp documents it), registered at the bottom of this file.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/memory_pool.yaml

#include "sim/svc/memory_pool.hpp"

#include "sim/core/registry.hpp"
#include "sim/core/stable_hash.hpp"
#include "sim/core/text.hpp"
#include "sim/faults/host_faults.hpp"
#include "sim/sg/activities.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/platform.hpp"
#include "sim/sg/wait_point.hpp"
#include "sim/svc/directory.hpp"

#include <algorithm>
#include <cstdint>

XBT_LOG_EXTERNAL_CATEGORY(llsim_svc);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_svc_memory_pool, llsim_svc, "the memory pool service");

namespace llsim {

const ParamTable& MemoryPool::params()
{
  static const ParamTable t = {
      ParamSpec::quantity("capacity", Dimension::Size, "bytes of blocks one server holds").positive(),
      ParamSpec::choice<EvictionPolicy>("eviction", "which block goes when a server is full {impl}")
          .defaults("{impl: lru}"),
  };
  return t;
}

MemoryPool::MemoryPool(const Params& p, const Context& c)
    : Service(p, c)
    , capacity_B_(p.quantity("capacity"))
{
  // The pools on the same hosts share their memory.
  double promised = capacity_B_;
  std::string others;
  for (const Service* s : c.directory.built())
    if (const auto* pool = dynamic_cast<const MemoryPool*>(s); pool && pool->servers().name == servers().name) {
      promised += pool->capacity();
      others += " + " + format_bytes(pool->capacity()) + " of '" + pool->name() + "'";
    }
  const double memory = servers().memory_B;
  if (memory > 0 && promised > memory) {
    const int digits = digits_to_tell_apart(promised, memory, format_bytes);
    p.fail("capacity", format_bytes(capacity_B_) + " per server" + others + " makes " + format_bytes(promised, digits) +
                           ", more than the " + format_bytes(memory, digits) + " of memory of a host of group '" +
                           servers().name + "' (its 'memory', 256GiB unless given)");
  }
  servers_.resize(static_cast<size_t>(servers().count));
  for (auto& s : servers_)
    s.policy = Registry<EvictionPolicy>::create(p.raw("eviction"), {});
  reports_stored_bytes();
}

MemoryPool::~MemoryPool() = default;

void MemoryPool::start(const ServiceRuntime& runtime)
{
  platform_ = &runtime.platform;
  faults_   = &runtime.faults;
  for (size_t s = 0; s < servers_.size(); ++s) {
    servers_[s].pool =
        std::make_unique<ServerPool>(runtime.platform, runtime.faults, servers().host(static_cast<int64_t>(s)),
                                     threads(), "service '" + name() + "'", stats(s));
    servers_[s].pool->set_resource(name() + " server threads");
    servers_[s].pool->set_on_failure([this, s] { lose_all(servers_[s]); });
    servers_[s].pool->start();
  }
}

double MemoryPool::stored_B() const
{
  double stored = 0;
  for (const auto& s : servers_)
    stored += s.stored_B;
  return stored;
}

namespace {

const MetricTable kMemoryPoolMetrics = joined(
    Service::common_metrics(),
    {
        {"hits", MetricUnit::Count, "gets that found their block held"},
        {"misses", MetricUnit::Count, "gets that did not (absent, or still being put)"},
        {"evictions", MetricUnit::Count, "blocks the eviction policy dropped to make room"},
        {"rejected_puts", MetricUnit::Count, "puts of a block that did not fit, even after evictions"},
        {"lost_blocks", MetricUnit::Count, "blocks lost with their server's host when it failed"},
        {"stored_bytes", MetricUnit::Bytes, "bytes of blocks the servers hold or are receiving at the end of the run"},
        {"capacity_bytes", MetricUnit::Bytes, "capacity x servers"},
    });

}  // namespace

LLSIM_DECLARE_METRICS(Service, MemoryPool::kKind, kMemoryPoolMetrics);

Metrics MemoryPool::totals() const
{
  Metrics m           = Service::totals();
  const double stored = stored_B();
  m.push_back({"hits", hits_});
  m.push_back({"misses", misses_});
  m.push_back({"evictions", evictions_});
  m.push_back({"rejected_puts", rejected_});
  m.push_back({"lost_blocks", lost_});
  m.push_back({"stored_bytes", stored});
  m.push_back({"capacity_bytes", capacity_B_ * static_cast<double>(servers_.size())});
  return m;
}

size_t MemoryPool::server_of(const std::string& key) const
{
  return static_cast<size_t>(fnv1a(key) % servers_.size());
}

bool MemoryPool::holds(const std::string& key) const
{
  const auto& blocks = servers_[server_of(key)].blocks;
  const auto it      = blocks.find(key);
  return it != blocks.end() && it->second.ready;
}

void MemoryPool::drop(Server& s, const std::string& key)
{
  const auto it = s.blocks.find(key);
  if (it == s.blocks.end())
    return;
  add_stored(s, -it->second.bytes);
  s.policy->removed(key);
  s.blocks.erase(it);
}

void MemoryPool::add_stored(Server& s, double bytes)
{
  s.stored_B += bytes;
  s.pool->stats().level_changed(now(), s.stored_B);
}

void MemoryPool::evict(const std::string& key)
{
  drop(servers_[server_of(key)], key);
}

void MemoryPool::lose_all(Server& s)
{
  lost_ += static_cast<double>(s.blocks.size());
  while (!s.blocks.empty())
    drop(s, s.blocks.begin()->first);
}

bool MemoryPool::make_room(Server& s, double bytes)
{
  while (s.stored_B + bytes > capacity_B_) {
    const std::string victim = s.policy->victim([&s](const std::string& key) {
      const Block& b = s.blocks.at(key);
      return b.ready && b.readers == 0 && !b.pinned;
    });
    if (victim.empty())
      return false;
    XBT_DEBUG("server %zu full: evicts block %s for %g B", static_cast<size_t>(&s - servers_.data()), victim.c_str(),
              bytes);
    drop(s, victim);
    evictions_ += 1;
  }
  return true;
}

PoolResult MemoryPool::serve_put(Server& s, HostId host, HostId client, const std::string& key, const PutShape& put,
                                 double deadline)
{
  const double bytes = put.bytes;
  if (s.blocks.count(key) != 0) {
    s.policy->used(key);
    s.pool->stats().add(now(), 0, 1);
    return PoolResult::Stored;
  }
  if (bytes > capacity_B_ || !make_room(s, bytes)) {
    rejected_ += 1;
    s.pool->stats().add(now(), 0, 1);
    return PoolResult::Rejected;
  }
  s.blocks[key] = Block{bytes, false, put.pinned};
  add_stored(s, bytes);
  s.policy->inserted(key, put.depth);
  if (!transfer(*platform_, client, host, bytes, deadline)) {
    drop(s, key);
    return PoolResult::Failed;
  }
  s.blocks.at(key).ready = true;
  s.pool->stats().add(now(), bytes, 1);
  return PoolResult::Stored;
}

PoolResult MemoryPool::serve_get(Server& s, HostId host, HostId client, const std::string& key, double deadline)
{
  const auto it = s.blocks.find(key);
  if (it == s.blocks.end() || !it->second.ready) {
    misses_ += 1;
    s.pool->stats().add(now(), 0, 1);
    return PoolResult::Miss;
  }
  s.policy->used(key);
  it->second.readers += 1;
  const double bytes = it->second.bytes;
  const bool sent    = transfer(*platform_, host, client, bytes, deadline);
  const auto still   = s.blocks.find(key);  // a failure of the host may have dropped it meanwhile
  if (still != s.blocks.end())
    still->second.readers -= 1;
  if (!sent)
    return PoolResult::Failed;
  hits_ += 1;
  s.pool->stats().add(now(), bytes, 1);
  return PoolResult::Hit;
}

PoolResult MemoryPool::call(HostId client, const std::string& key, const PutShape& put, bool is_put, double deadline)
{
  struct Pending {
    bool done         = false;
    PoolResult result = PoolResult::Failed;
    WaitPoint over;
  };
  const size_t index = server_of(key);
  Server& s          = servers_[index];
  const HostId host  = servers().host(static_cast<int64_t>(index));
  auto pending       = std::make_shared<Pending>();
  const auto finish  = [pending](PoolResult r) {
    pending->done   = true;
    pending->result = r;
    pending->over.notify_all();
  };
  ServerPool::Request r;
  r.serve = [this, &s, host, client, key, put, is_put, deadline, finish] {
    const double until = std::min({deadline, s.pool->deadline(), faults_->next_failure(client, now())});
    finish(is_put ? serve_put(s, host, client, key, put, until) : serve_get(s, host, client, key, until));
  };
  r.on_down = [finish] { finish(PoolResult::Failed); };
  s.pool->submit(std::move(r));
  pending->over.wait_until([&pending] { return pending->done; }, deadline);
  return pending->done ? pending->result : PoolResult::Failed;
}

PoolResult MemoryPool::put(HostId client, const std::string& key, double bytes, double deadline, int64_t depth,
                           bool pinned)
{
  return call(client, key, {bytes, depth, pinned}, true, deadline);
}

PoolResult MemoryPool::get(HostId client, const std::string& key, double deadline)
{
  return call(client, key, {}, false, deadline);
}

LLSIM_REGISTER(Service, "memory_pool", MemoryPool, "named blocks in server memory with an eviction policy",
               MemoryPool::params());

}  // namespace llsim
