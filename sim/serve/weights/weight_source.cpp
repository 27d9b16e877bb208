#include "sim/serve/weights/weight_source.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/core/work_limits.hpp"
#include "sim/serve/weights/weight_peers.hpp"
#include "sim/serve/weights/weight_pool.hpp"
#include "sim/serve/weights/weight_reads.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/platform.hpp"
#include "sim/svc/directory.hpp"
#include "sim/svc/file_stream.hpp"
#include "sim/svc/memory_pool.hpp"
#include "sim/svc/storage.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>

XBT_LOG_EXTERNAL_CATEGORY(llsim_serve);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_serve_weight_source, llsim_serve, "weight loads of serving instances");

namespace llsim {

const ParamTable& weight_source_params()
{
  static const ParamTable t = {
      ParamSpec::text("path", "name of the weights' file set on the service (its shard files are under it)"),
      ParamSpec::text("from", "storage service to read them from (the host's own copy when the host is one of its "
                              "servers), a memory_pool service that caches them, or peers (instances that hold "
                              "them)"),
      ParamSpec::text("fill_from", "storage service read when the host has no copy yet, the pool lacks them, or no "
                                   "peer holds them")
          .may_be_absent(),
      ParamSpec::quantity("chunk", Dimension::Size, "bytes of one read request of a rank, and of a piece in a pool")
          .defaults("256MiB")
          .positive(),
      ParamSpec::integer("in_flight", "read requests (or a pool's gets or puts) a rank keeps in flight")
          .defaults("4")
          .at_least(1)
          .at_most(1024),
  };
  return t;
}

namespace {

// A pool that could never hold the weights would be filled in vain at every load.
void check_pool_room(const Params& p, const MemoryPool& pool, double weight_B, double chunk_B)
{
  const double servers = static_cast<double>(pool.servers().count);
  if (pool.capacity() < std::min(chunk_B, weight_B))
    p.fail("from", "memory pool '" + pool.name() + "' holds " + format_bytes(pool.capacity()) +
                       " per server, less than a piece of the weights (chunk: " + format_bytes(chunk_B) + ")");
  if (pool.capacity() * servers < weight_B)
    p.fail("from", "memory pool '" + pool.name() + "' holds " + format_bytes(pool.capacity() * servers) +
                       " in all, less than the model's " + format_bytes(weight_B) + " of weights");
}

// Whether some server of `storage` has its own copy at `path` (node-local files).
bool has_own_copies(const StorageService& storage, const std::string& path)
{
  for (size_t server = 0; server < static_cast<size_t>(storage.servers().count); ++server)
    if (storage.names().known(FileNames::local_name(server, path)))
      return true;
  return false;
}

}  // namespace

struct WeightSource::Impl {
  std::string label, path;
  StorageService* from = nullptr;  // null: peers or a pool
  StorageService* fill = nullptr;
  ReadShape shape;
  const Platform* platform = nullptr;
  HostFaults* faults       = nullptr;
  std::unique_ptr<PeerWeights> peers;  // from: peers
  std::unique_ptr<PoolWeights> pool;   // from: a memory pool
  const MemoryPool* pool_service = nullptr;
  std::set<size_t> filling;  // servers of `from` whose own copy is being written

  std::shared_ptr<WeightLoad> from_storage(const WeightTarget& t, std::function<void()> changed);
  void write_copy(const WeightTarget& t, size_t server);
};

WeightSource::WeightSource(const Params& p, ServiceDirectory& services, double weight_B, std::string label)
    : impl_(std::make_unique<Impl>())
    , path_ref_(p.ref().child("path"))
{
  impl_->label = std::move(label);
  impl_->path  = p.text("path");
  if (impl_->path.empty())
    p.fail("path", "expected the name of the weights' file set, e.g. models/llama3-70b");
  impl_->shape = {p.quantity("chunk"), static_cast<size_t>(p.integer("in_flight"))};
  refuse_excess_work(p, "chunk", std::ceil(weight_B / impl_->shape.chunk_B), kMostWeightPieces,
                     format_bytes(weight_B) + " of weights in pieces of " + format_bytes(impl_->shape.chunk_B),
                     "a chunk of at least " + format_bytes(rounded_up(weight_B / kMostWeightPieces.most)) + " fits");
  const bool peers       = p.text("from") == "peers";
  const std::string kind = peers ? "peers" : services.kind_of(p, "from");
  if (kind != "peers" && kind != MemoryPool::kKind && kind != StorageService::kKind)
    p.fail("from", "service '" + p.text("from") + "' is a " + kind +
                       " service; expected a storage service, a memory_pool service, or peers");
  MemoryPool* pool = kind == MemoryPool::kKind ? &services.get<MemoryPool>(p, "from") : nullptr;
  if (kind == StorageService::kKind)
    impl_->from = &services.get<StorageService>(p, "from");
  if (p.has("fill_from"))
    impl_->fill = &services.get<StorageService>(p, "fill_from");
  if (peers && impl_->fill == nullptr)
    p.fail("from", "the first instance has no peer to load from: name the storage service it reads in fill_from");
  if (pool != nullptr && impl_->fill == nullptr)
    p.fail("from",
           "memory pool '" + pool->name() + "' starts empty: name the storage service that fills it in fill_from");
  if (peers)
    impl_->peers = std::make_unique<PeerWeights>(*impl_->fill, impl_->path, impl_->shape, impl_->label);
  if (pool != nullptr) {
    check_pool_room(p, *pool, weight_B, impl_->shape.chunk_B);
    impl_->pool_service = pool;
    impl_->pool         = std::make_unique<PoolWeights>(*pool, *impl_->fill, impl_->path, impl_->shape, impl_->label);
  }
  if (impl_->fill != nullptr && impl_->fill == impl_->from)
    p.fail("fill_from", "is the service the weights come from: drop it, or read from the hosts' own copies");
  // A declared set (shared, or a server's own copy) is there already: one too small for the
  // model is known now.
  for (StorageService* s : {impl_->from, impl_->fill}) {
    if (s == nullptr)
      continue;
    std::vector<std::string> names = {impl_->path};
    for (size_t server = 0; server < static_cast<size_t>(s->servers().count); ++server)
      names.push_back(FileNames::local_name(server, impl_->path));
    for (const std::string& name : names)
      if (!s->file_set(name).empty() && s->set_B(name) < weight_B) {
        const int digits = digits_to_tell_apart(s->set_B(name), weight_B, format_bytes);
        p.fail("path", "the files at '" + impl_->path + "' on storage '" + s->name() + "' hold " +
                           format_bytes(s->set_B(name), digits) + ", less than the model's " +
                           format_bytes(weight_B, digits) + " of weights");
      }
  }
}

void WeightSource::check_instances(const Params& p, const std::string& key,
                                   const std::vector<const GroupSpec*>& groups) const
{
  // The weights go to the GPU hosts (not, say, FastDecode's R-workers). llsim does not time a
  // host's memory-to-GPU copies of them: a piece in a pool on such a host would come for free.
  std::vector<const GroupSpec*> gpu_groups;
  std::copy_if(groups.begin(), groups.end(), std::back_inserter(gpu_groups), [](const GroupSpec* g) { return g->gpu; });
  const MemoryPool* pool = impl_->pool_service;
  if (pool != nullptr &&
      std::any_of(gpu_groups.begin(), gpu_groups.end(), [pool](const GroupSpec* g) { return g == &pool->servers(); }))
    p.fail(key, "weights.from: memory pool '" + pool->name() +
                    "' is on the instances' own hosts, where llsim does not time the copies to the GPUs: put "
                    "the pool on other hosts");
  const StorageService* from = impl_->from;
  const bool own_copies      = from != nullptr && std::all_of(gpu_groups.begin(), gpu_groups.end(),
                                                              [from](const GroupSpec* g) { return g == &from->servers(); });
  if (impl_->fill != nullptr && from != nullptr && !own_copies)
    p.fail(key, "weights.fill_from fills the hosts' own copies, but storage '" + from->name() +
                    "' is not on every instance's hosts: drop fill_from, or read from a service on their disks");
}

void WeightSource::check_known() const
{
  // Declared on a service, or promised by a phase that writes it; the service a load may read:
  // `from` (when a storage service: one set, or the hosts' own copies) and `fill_from` (one set:
  // what fills a copy, a pool or the first peer).
  const StorageService* from = impl_->from;
  if (from != nullptr && (from->names().known(impl_->path) || has_own_copies(*from, impl_->path)))
    return;
  if (impl_->fill != nullptr && impl_->fill->names().known(impl_->path))
    return;
  const StorageService* s = impl_->from != nullptr ? impl_->from : impl_->fill;
  path_ref_.fail("no file set '" + impl_->path + "' on storage '" + s->name() +
                 "': declare it in the service's files: [{path, bytes, shards}], or have a train phase write it "
                 "(checkpoint.path)");
}

WeightSource::~WeightSource() = default;

void WeightSource::start(const Platform& platform, HostFaults& faults)
{
  impl_->platform = &platform;
  impl_->faults   = &faults;
  if (impl_->peers)
    impl_->peers->start(platform, faults);
  if (impl_->pool)
    impl_->pool->start(platform, faults);
}

void WeightSource::stop()
{
  if (impl_->pool)
    impl_->pool->stop();
}

std::shared_ptr<WeightLoad> WeightSource::load(const WeightTarget& t, std::function<void()> changed)
{
  if (impl_->pool)
    return impl_->pool->load(t, std::move(changed));
  return impl_->peers ? impl_->peers->load(t, std::move(changed)) : impl_->from_storage(t, std::move(changed));
}

void WeightSource::holds(int instance, HostId host, std::function<bool()> serving)
{
  if (impl_->peers)
    impl_->peers->holds(instance, host, std::move(serving));
}

std::shared_ptr<WeightLoad> WeightSource::Impl::from_storage(const WeightTarget& t, std::function<void()> changed)
{
  const bool own_copy = t.host >= from->servers().first_host &&
                        t.host < from->servers().first_host + static_cast<HostId>(from->servers().count);
  const auto notify = [changed](bool) { changed(); };
  if (!own_copy)
    return read_weights(*from, path, from->name(), t, shape, notify);
  const size_t server     = from->server_index(t.host);
  const std::string local = FileNames::local_name(server, path);
  if (from->set_B(local) >= t.weight_B)
    return read_weights(*from, local, from->name() + " (own copy)", t, shape, notify);
  if (fill == nullptr && !from->file_set(path).empty())  // shared by its servers (the instances' disks)
    return read_weights(*from, path, from->name(), t, shape, notify);
  if (fill == nullptr)
    throw SimulationError("host " + platform->name(t.host) + " has no copy of the weights '" + path + "' on storage '" +
                          from->name() +
                          "' (nor does the service share one), and weights.fill_from names no service to fill it "
                          "from");
  const bool writes_copy = filling.insert(server).second;
  return read_weights(*fill, path, fill->name() + (writes_copy ? " (filling " + from->name() + ")" : ""), t, shape,
                      [this, t, server, writes_copy, changed](bool over) {
                        if (over && writes_copy)
                          write_copy(t, server);
                        else if (!over && writes_copy)
                          filling.erase(server);
                        changed();
                      });
}

void WeightSource::Impl::write_copy(const WeightTarget& t, size_t server)
{
  const FileId file = from->new_local_file(server);
  FileStream::Setup s;
  s.op                   = IoOp::Write;
  s.client               = t.host;
  s.file                 = file;
  s.bytes                = t.weight_B;
  s.chunk_B              = shape.chunk_B;
  s.in_flight            = shape.in_flight;
  s.give_up_after        = 0;  // a copy cut by a failure is dropped
  const std::string name = FileNames::local_name(server, path);
  s.over                 = [this, server, file, name](const IoOutcome& o) {
    filling.erase(server);
    if (o.ok()) {
      from->set_name(name, file);
      return;
    }
    XBT_DEBUG("the copy of the weights on server %zu of '%s' was not kept: %s", server, from->name().c_str(),
                              o.message.c_str());
    from->remove(file);
  };
  FileStream::create(*from, s)->start();
}

}  // namespace llsim
