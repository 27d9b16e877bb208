// Contract of a serving system (registry "serve_system", chosen with `impl:` under a serve
// phase's `system:`): the instances, how requests reach them, and where the KV lives.
// - The constructor reads and checks every key and sizes its instances (no SimGrid yet).
// - start() runs inside the phase's actor and starts the instances' actors; arrive(i) is called
//   at request i's arrival time; the system reports every request to the tally exactly once as
//   finished, rejected or failed (lost to a host failure). close() is called when all are, and
//   returns once its instances' actors ended: the phase ends then. Work that outlives the requests
//   (KV blocks still being written to a pool or SSD tier) goes on in the background and contends
//   with later phases; totals() is read after the simulation and reports it.
#pragma once
#include "sim/core/yaml_ref.hpp"
#include "sim/phase/phase.hpp"
#include "sim/platform/platform_spec.hpp"
#include "sim/serve/cost/llm_model.hpp"
#include "sim/serve/engine/batcher.hpp"
#include "sim/serve/engine/serve_tally.hpp"
#include "sim/serve/workload/slo.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llsim {

class HostFaults;
class Platform;
class ServiceDirectory;
class IterationModel;
class WeightSource;
class KvSwapPool;
class InstanceSet;

// The phase's `batching:` section, before an instance's KV size is known.
struct ServeBatching {
  BatcherConfig base;  // kv_blocks left 0
  double gpu_memory_utilization = 0.9;
  int64_t kv_blocks             = 0;      // given (as vLLM's log prints it); 0: derived from the HBM left
  double activation_reserve_B   = 0;      // per GPU, kept from the KV when the block count is derived
  double watermark              = 0;      // share of the blocks a prompt's admission must leave free
  bool swap                     = false;  // preemption by swap (else by recompute)
  double swap_space_B           = 0;      // CPU memory per GPU for swapped KV
  bool swap_to_pool             = false;  // swapped KV goes to a memory_pool (its capacity decides)
};

struct ServeEnv {
  const Platform& platform;
  HostFaults& faults;
  ServeTally& tally;
  const std::vector<TraceRequest>& requests;
  std::string label;                     // "phase 'name'"
  std::function<void()> progress;        // call after a request finished or was rejected
  WeightSource* weights      = nullptr;  // where instances load their weights from; null: loaded at start
  double weight_B            = 0;        // the model's weight bytes
  int64_t allocated_at_start = -1;       // instances from this index on start released (-1: none)
  KvSwapPool* swap_pool      = nullptr;  // where preemption by swap moves KV; null: CPU memory over PCIe
};

class ServeSystem {
 public:
  struct Context {
    const PlatformSpec& platform;
    ServiceDirectory& services;
    const LlmModel& model;
    const ServeBatching& batching;
    YamlRef iteration;  // the phase's iteration model section
    const SloSpec& slo;
    std::vector<GroupClaim>& claims;            // the system adds the groups its instances compute on
    uint64_t seed = 0;                          // the scenario's, for the iteration model's draws
    std::string stream;                         // "phase.<name>": the phase's random streams' prefix
    std::vector<std::string>* notes = nullptr;  // the scenario's notes to its user (iteration models')
    bool weights_through_storage    = false;    // instances load their weights (`weights:`)
  };
  static constexpr const char* kInterfaceName = "serve_system";
  static constexpr const char* kHeader        = "sim/serve/engine/serve_system.hpp";
  static constexpr const char* kSelector      = "impl";

  virtual ~ServeSystem()           = default;
  virtual size_t instances() const = 0;
  // The servers requests enter through, each with its API server (a vllm instance of several
  // pipeline engines is one; Mooncake's prefill instances take the requests).
  virtual size_t entry_points() const { return instances(); }
  virtual void start(ServeEnv& env)  = 0;
  virtual void arrive(int64_t id)    = 0;
  virtual void close()               = 0;
  virtual ServeTotals totals() const = 0;
  // The instances an autoscaler may allocate and release (null: the system does not scale).
  virtual InstanceSet* scalable() { return nullptr; }
};

// How an instance spreads over a host's GPUs: tp x pp of them (tp 0: all the host's GPUs, over
// pp). With pp pipeline stages it runs as pp engines (vLLM's virtual engines), each with its own
// batches and 1/pp of the instance's KV blocks, each batch passing through every stage.
struct InstanceLayout {
  int64_t tp = 0;
  int64_t pp = 1;
  int64_t dp = 1;  // data-parallel ranks (instances) whose MoE layers share their experts
};

// A located error (at `key` of `p`) when `group` has no GPUs.
void require_gpus(const Params& p, const std::string& key, const GroupSpec& group);

// "the weights (13.48 GB) <verdict> 1 x 24 GB of HBM x gpu_memory_utilization 0.3 on group 'a10'":
// the figures of an instance whose weights do not fit, for its located error; `ranks`: the
// data-parallel ranks the MoE experts are shared out among.
std::string weights_error(const LlmModel& model, const GroupSpec& group, double gpu_memory_utilization,
                          const std::string& verdict, int64_t gpus = 0, int64_t ranks = 1);  // gpus 0: the host's

// The KV blocks of `block_B` bytes that `room_B` bytes hold. A located error (at `key` of `p`)
// past 1e15 blocks, which no memory holds (a size in the wrong unit?) and which a block count
// could not represent exactly.
int64_t kv_blocks_in(const Params& p, const std::string& key, double room_B, double block_B);

// The batcher configuration of one engine of a GPU instance on a host of `group`: the KV blocks
// are the HBM of the instance's GPUs x gpu_memory_utilization, less the weights, shared out over
// its pp engines. A located error (at `key` of `p`) when the group has no GPUs or the weights
// leave no room.
BatcherConfig gpu_instance_config(const Params& p, const std::string& key, const GroupSpec& group,
                                  const LlmModel& model, const ServeBatching& batching,
                                  const InstanceLayout& layout = {});

// An iteration model for the engines of instances on `group`'s GPUs: an iteration is a batch
// through every stage.
std::unique_ptr<IterationModel> gpu_iteration_model(const ServeSystem::Context& c, const GroupSpec& group,
                                                    const InstanceLayout& layout = {});

// The layout's tensor-parallel degree (tp 0 resolved).
int64_t layout_tp(const GroupSpec& group, const InstanceLayout& layout);

}  // namespace llsim
