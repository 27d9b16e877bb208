// The serve systems (models/serve_system/) as far as they decide before a simulation runs: how
// many instances on which groups, the KV blocks an instance's memory holds after the weights,
// and the errors when it holds none. What they do with requests needs SimGrid and is checked
// through llsim (tests/llsim/test_serve*.py). Expected figures are worked out by hand from the
// formulas in sim/serve/engine/serve_system.hpp and each system's file.
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/serve/engine/batcher.hpp"
#include "sim/serve/engine/serve_system.hpp"
#include "tests/unit/batcher_fixture.hpp"
#include "world.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace llsim;

namespace {

const char* const kPlatform = R"(
groups:
  a100: {count: 2, nic: {bandwidth: 100GBps}, gpu: {flops: 312TFlops, hbm_bandwidth: 2TBps, hbm: 80GB, count: 2}}
  h100: {count: 3, nic: {bandwidth: 100GBps}, gpu: {flops: 990TFlops, hbm_bandwidth: 3.35TBps, hbm: 80GB, count: 1}}
  a10: {count: 2, nic: {bandwidth: 25GBps}, gpu: {flops: 125TFlops, hbm_bandwidth: 600GBps, hbm: 24GB, count: 1}}
  g40: {count: 2, nic: {bandwidth: 25GBps}, gpu: {flops: 100TFlops, hbm_bandwidth: 1TBps, hbm: 40GB, count: 1}}
  noflops: {count: 1, nic: {bandwidth: 25GBps}, gpu: {hbm: 80GB, count: 1}}
  cpu: {count: 4, memory: 256GB, memory_bandwidth: 200GBps, nic: {bandwidth: 25GBps}}
  cpu3: {count: 3, memory: 256GB, memory_bandwidth: 200GBps, nic: {bandwidth: 25GBps}}
  tiny4: {count: 4, memory: 64B, memory_bandwidth: 200GBps, nic: {bandwidth: 25GBps}}
  tiny2: {count: 2, memory: 64B, memory_bandwidth: 200GBps, nic: {bandwidth: 25GBps}}
  nombw: {count: 2, memory: 256GB, nic: {bandwidth: 25GBps}}
  ssd: {count: 1, nic: {bandwidth: 25GBps}, disks: {count: 2, read: 6GBps, write: 4GBps, capacity: 1TB}}
backbone: {bandwidth: 1TBps}
)";
const char* const kServices =
    "{kvpool: {kind: memory_pool, servers: cpu, capacity: 100GB}, flash: {kind: storage, servers: ssd}}";

// LLaMA-2 7B: weights 6.74e9 x 2 = 13.48 GB, KV 524288 B per token, a block of 16 tokens 8388608 B.
constexpr double kBlock7b = 16 * 524288.0;

struct Serve {
  test::World world{kPlatform, kServices};
  LlmModel model;
  ServeBatching batching;
  SloSpec slo;
  std::vector<GroupClaim> claims;
  std::string iteration = "{impl: roofline}";

  explicit Serve(const std::string& model_yaml = "{preset: llama2-7b}")
  {
    batching.base.scheduler = testing::batch_scheduler("v1");
    model                   = parse_llm_model(Params(world.yaml(model_yaml, "model"), llm_model_params()));
  }
  std::unique_ptr<ServeSystem> make(const std::string& yaml)
  {
    return Registry<ServeSystem>::create(world.yaml(yaml, "system"), {*world.platform, *world.services, model, batching,
                                                                      world.yaml(iteration, "iteration"), slo, claims});
  }
  // The batcher configuration an instance on `group` gets (vllm's and mooncake's sizing).
  BatcherConfig config(const std::string& group)
  {
    static const ParamTable keys = {ParamSpec::text("instances", "a GPU group")};
    const Params p(world.yaml("{instances: " + group + "}", "system"), keys);
    return gpu_instance_config(p, "instances", *world.platform->find(group), model, batching);
  }
  std::vector<std::string> claimed() const
  {
    std::vector<std::string> out;
    for (const auto& c : claims)
      out.push_back(c.group);
    return out;
  }
};

using Names = std::vector<std::string>;

}  // namespace

TEST_CASE("serve system sizing: KV blocks are the HBM x utilisation less the weights", "[serve_system]")
{
  Serve s;
  // a100: 2 x 80 GB x 0.9 = 144 GB; less 13.48 GB: 130.52e9 / 8388608 = 15559.2 -> 15559 blocks.
  BatcherConfig c = s.config("a100");
  CHECK(c.kv_blocks == 15559);
  // a10: 24 GB x 0.9 - 13.48 GB = 8.12e9 / 8388608 = 967.98 -> 967 blocks.
  CHECK(s.config("a10").kv_blocks == 967);
  // The rest of the configuration is the phase's batching.
  s.batching.base.max_batch_tokens  = 4096;
  s.batching.base.block_size        = 32;
  s.batching.gpu_memory_utilization = 0.5;
  c                                 = s.config("a100");
  // 2 x 80 GB x 0.5 - 13.48 GB = 66.52e9 / (32 x 524288) = 3964.9 -> 3964 blocks of 32 tokens.
  CHECK(c.kv_blocks == 3964);
  CHECK(c.block_size == 32);
  CHECK(c.max_batch_tokens == 4096);
  // An instance then takes sequences of up to 3964 x 32 = 126848 tokens, no more.
  const Batcher b(c, InstanceRole::Colocated);
  CHECK(b.fits(126848, 126848));
  CHECK_FALSE(b.fits(126849, 126849));
}

TEST_CASE("serve system sizing: weights that leave no room for one block", "[serve_system]")
{
  // g40 at 0.5: 20 GB. A model of 9.992G parameters at 2 B (19.984 GB) leaves 16 MB: one block of
  // 16 tokens of 1 MB. 9.993G (19.986 GB) leaves 14 MB: none.
  Serve one("{params: 9.992G, kv_bytes_per_token: 1MB}");
  one.batching.gpu_memory_utilization = 0.5;
  CHECK(one.config("g40").kv_blocks == 1);
  CHECK(Batcher(one.config("g40"), InstanceRole::Colocated).fits(16, 16));
  CHECK_FALSE(Batcher(one.config("g40"), InstanceRole::Colocated).fits(17, 17));
  Serve none("{params: 9.993G, kv_bytes_per_token: 1MB}");
  none.batching.gpu_memory_utilization = 0.5;
  CHECK_THROWS_WITH(none.config("g40"), Catch::Contains("system.instances") &&
                                            Catch::Contains("the weights (20 GB) leave no room for KV in 1 x 40 GB "
                                                            "of HBM x gpu_memory_utilization 0.5 on group 'g40'"));
  Serve s;
  CHECK_THROWS_WITH(s.config("cpu"), Catch::Contains("group 'cpu' has no GPUs"));
}

TEST_CASE("serve system vllm: one colocated instance per host of its group", "[serve_system]")
{
  Serve s;
  CHECK(s.make("{impl: vllm, instances: a100}")->instances() == 2);
  CHECK(s.make("{impl: vllm, instances: h100, router: round_robin, prefix_caching: true}")->instances() == 3);
  CHECK(s.claimed() == Names{"a100", "h100"});
  s.batching.gpu_memory_utilization = 0.5;  // a10: 12 GB, less than the 13.48 GB of weights
  CHECK_THROWS_WITH(s.make("{impl: vllm, instances: a10}"),
                    Catch::Contains("system.instances") &&
                        Catch::Contains("the weights (13.5 GB) leave no room for KV in 1 x 24 GB of HBM x "
                                        "gpu_memory_utilization 0.5 on group 'a10'"));
  CHECK_NOTHROW(s.make("{impl: vllm, instances: a100}"));  // 80 GB there
  CHECK_THROWS_WITH(s.make("{impl: vllm, instances: cpu}"), Catch::Contains("group 'cpu' has no GPUs"));
  CHECK_THROWS_WITH(
      s.make("{impl: vllm, instances: a100, router: random}"),
      Catch::Contains("unknown router 'random' (expected conductor, kv_aware, least_loaded or round_robin)"));
  CHECK_THROWS_WITH(s.make("{impl: vllm, instances: a11}"), Catch::Contains("no platform group named 'a11'"));
}

TEST_CASE("serve system vllm: the iteration model runs on its group's GPUs", "[serve_system]")
{
  // A roofline needs the GPUs' flops; a table does not.
  Serve s;
  CHECK_THROWS_WITH(s.make("{impl: vllm, instances: noflops}"),
                    Catch::Contains("needs the GPUs' flops and hbm_bandwidth") &&
                        Catch::Contains("groups.noflops.gpu"));
  s.iteration = std::string("{impl: table, file: ") + LLSIM_TEST_DATA + "/inputs/serve_iteration_table.csv}";
  CHECK(s.make("{impl: vllm, instances: noflops}")->instances() == 1);
}

TEST_CASE("serve system mooncake: prefill and decode instances on two groups, each sized on its own", "[serve_system]")
{
  Serve s;
  const auto m = s.make("{impl: mooncake, prefill: a100, decode: h100, pool: kvpool}");
  CHECK(m->instances() == 2 + 3);
  CHECK(s.claimed() == Names{"a100", "h100"});
  CHECK(s.make("{impl: mooncake, prefill: h100, decode: a10, pool: kvpool, early_rejection: true}")->instances() ==
        3 + 2);
  CHECK_THROWS_WITH(s.make("{impl: mooncake, prefill: a100, decode: a100, pool: kvpool}"),
                    Catch::Contains("system.decode") &&
                        Catch::Contains("prefill and decode instances must be different groups"));
  // At 0.5, a10 (12 GB) cannot hold the weights and a100 (80 GB) can: the error names the side.
  s.batching.gpu_memory_utilization = 0.5;
  CHECK_THROWS_WITH(s.make("{impl: mooncake, prefill: a100, decode: a10, pool: kvpool}"),
                    Catch::Contains("system.decode") && Catch::Contains("on group 'a10'"));
  CHECK_THROWS_WITH(s.make("{impl: mooncake, prefill: a10, decode: a100, pool: kvpool}"),
                    Catch::Contains("system.prefill") && Catch::Contains("on group 'a10'"));
}

TEST_CASE("serve system mooncake: the pool and the SSD tier", "[serve_system]")
{
  Serve s;
  CHECK_THROWS_WITH(s.make("{impl: mooncake, prefill: a100, decode: h100, pool: flash}"),
                    Catch::Contains("system.pool") &&
                        Catch::Contains("service 'flash' is a storage service; a memory_pool service is expected"));
  CHECK_THROWS_WITH(s.make("{impl: mooncake, prefill: a100, decode: h100, pool: kvpol}"),
                    Catch::Contains("did you mean 'kvpool'"));
  CHECK_THROWS_WITH(s.make("{impl: mooncake, prefill: a100, decode: h100}"),
                    Catch::Contains("missing required key 'pool'"));
  // flash: 2 disks of 1 TB.
  const std::string with_ssd = "{impl: mooncake, prefill: a100, decode: h100, pool: kvpool, ssd: ";
  CHECK_NOTHROW(s.make(with_ssd + "{storage: flash, capacity: 2TB}}"));
  CHECK_THROWS_WITH(s.make(with_ssd + "{storage: flash, capacity: 2.1TB}}"),
                    Catch::Contains("system.ssd.capacity") &&
                        Catch::Contains("is more than storage 'flash' holds (2 TB on all its disks)"));
  CHECK_THROWS_WITH(s.make(with_ssd + "{storage: kvpool, capacity: 1TB}}"),
                    Catch::Contains("system.ssd.storage") &&
                        Catch::Contains("service 'kvpool' is a memory_pool service"));
}

TEST_CASE("serve system fastdecode: GPU instances, the CPU hosts shared out evenly", "[serve_system]")
{
  Serve s;
  CHECK(s.make("{impl: fastdecode, gpu: a10, cpu: cpu}")->instances() == 2);
  CHECK(s.claimed() == Names{"a10", "cpu"});
  CHECK_THROWS_WITH(s.make("{impl: fastdecode, gpu: a10, cpu: cpu3}"),
                    Catch::Contains("system.cpu") &&
                        Catch::Contains("3 CPU hosts do not share out evenly over 2 GPU instances"));
  CHECK_THROWS_WITH(s.make("{impl: fastdecode, gpu: a10, cpu: nombw}"),
                    Catch::Contains("group 'nombw' needs memory_bandwidth"));
  CHECK_THROWS_WITH(s.make("{impl: fastdecode, gpu: cpu, cpu: a10}"), Catch::Contains("group 'cpu' has no GPUs"));
  Serve flat("{params: 7G, kv_bytes_per_token: 512KiB}");
  CHECK_THROWS_WITH(flat.make("{impl: fastdecode, gpu: a10, cpu: cpu}"),
                    Catch::Contains("fastdecode needs the model's layers and d_model"));
}

TEST_CASE("serve system fastdecode: the weights need only fit in the HBM, the KV is on the CPUs", "[serve_system]")
{
  // a10 at 0.5: 12 GB < 13.48 GB: the weights do not fit.
  Serve s;
  s.batching.gpu_memory_utilization = 0.5;
  CHECK_THROWS_WITH(s.make("{impl: fastdecode, gpu: a10, cpu: cpu}"),
                    Catch::Contains("system.gpu") &&
                        Catch::Contains("the weights (13.5 GB) do not fit in 1 x 24 GB of HBM x "
                                        "gpu_memory_utilization 0.5 on group 'a10'"));
  // Weights of exactly the HBM x 0.5 of g40 (10G x 2 B = 20 GB): fastdecode takes them, vllm,
  // which needs a KV block next to them, does not.
  Serve exact("{params: 10G, layers: 1, d_model: 64, kv_heads: 1, head_dim: 1}");
  exact.batching.gpu_memory_utilization = 0.5;
  CHECK(exact.make("{impl: fastdecode, gpu: g40, cpu: cpu}")->instances() == 2);
  CHECK_THROWS_WITH(exact.make("{impl: vllm, instances: g40}"), Catch::Contains("leave no room for KV"));
}

TEST_CASE("serve system fastdecode: KV blocks = R-workers x memory x kv_memory_share / block", "[serve_system]")
{
  // KV 2 x 1 x 1 x 1 x 2 = 4 B per token, a block of 16 tokens 64 B. tiny4 over 2 instances: 2
  // R-workers of 64 B each; at kv_memory_share 0.5, 2 x 64 x 0.5 = 64 B: one block. tiny2: one
  // R-worker, 32 B: none. At 0.8 on tiny4 (102.4 B) still one block; at 0.4 (51.2 B) none.
  Serve s("{params: 1G, layers: 1, d_model: 64, kv_heads: 1, head_dim: 1}");
  CHECK(s.make("{impl: fastdecode, gpu: g40, cpu: tiny4, kv_memory_share: 0.5}")->instances() == 2);
  CHECK_THROWS_WITH(s.make("{impl: fastdecode, gpu: g40, cpu: tiny2, kv_memory_share: 0.5}"),
                    Catch::Contains("system.cpu") && Catch::Contains("the R-workers' memory holds no KV block"));
  CHECK_NOTHROW(s.make("{impl: fastdecode, gpu: g40, cpu: tiny4}"));
  CHECK_THROWS_WITH(s.make("{impl: fastdecode, gpu: g40, cpu: tiny4, kv_memory_share: 0.4}"),
                    Catch::Contains("holds no KV block"));
  // Blocks of 8 tokens (32 B): tiny2's 32 B hold one.
  s.batching.base.block_size = 8;
  CHECK_NOTHROW(s.make("{impl: fastdecode, gpu: g40, cpu: tiny2, kv_memory_share: 0.5}"));
  CHECK_THROWS_AS(s.make("{impl: fastdecode, gpu: g40, cpu: cpu, memory_efficiency: 0}"), ConfigError);
  CHECK_THROWS_AS(s.make("{impl: fastdecode, gpu: g40, cpu: cpu, kv_memory_share: 1.5}"), ConfigError);
}
