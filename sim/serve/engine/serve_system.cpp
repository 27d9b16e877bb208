#include "sim/serve/engine/serve_system.hpp"

#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/serve/cost/gpu_load.hpp"
#include "sim/serve/cost/iteration_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace llsim {

void require_gpus(const Params& p, const std::string& key, const GroupSpec& group)
{
  if (!group.gpu)
    p.fail(key, "group '" + group.name + "' has no GPUs (give it gpu: {flops, hbm_bandwidth, hbm, count})");
}

std::string weights_error(const LlmModel& model, const GroupSpec& group, double gpu_memory_utilization,
                          const std::string& verdict, int64_t gpus, int64_t ranks)
{
  return "the weights (" + format_bytes(model.rank_weight_B(ranks)) + (ranks > 1 ? " a data-parallel rank holds" : "") +
         ") " + verdict + " " + std::to_string(gpus > 0 ? gpus : group.gpu->count) + " x " +
         format_bytes(group.gpu->hbm_B) + " of HBM x gpu_memory_utilization " + format_number(gpu_memory_utilization) +
         " on group '" + group.name + "'";
}

namespace {
constexpr double kMaxKvBlocks = 1e15;
}

int64_t kv_blocks_in(const Params& p, const std::string& key, double room_B, double block_B)
{
  const double blocks = std::floor(room_B / block_B);
  if (!(blocks <= kMaxKvBlocks)) {
    char count[32];
    std::snprintf(count, sizeof count, "%.3g", blocks);
    p.fail(key, std::string("room for ") + count + " KV blocks of " + format_bytes(block_B) +
                    ", more than llsim's limit of 1e15 (is a memory size in the wrong unit?)");
  }
  return static_cast<int64_t>(blocks);
}

namespace {

// Preemption by swap: each GPU moves its share of a block over its own PCIe link, to the host's
// CPU memory or to a swap pool's server on the same host.
// The swap space is per GPU, as vLLM's swap_space; an instance's pp engines share it out, as they
// do its KV blocks. A swap pool's room decides instead, put by put.
void swap_config(const Params& p, const std::string& key, const GroupSpec& group, const ServeBatching& batching,
                 int64_t n, int64_t pp, BatcherConfig& c)
{
  const GpuSpec& gpu = *group.gpu;
  if (gpu.pcie_gen == 0 || gpu.pcie_lanes == 0)
    p.fail(key, "batching.preemption swap needs the PCIe link of the GPUs of group '" + group.name +
                    "' to time the swap (give pcie_gen and pcie_lanes, or a preset)");
  const double per_gpu = c.block_B / static_cast<double>(n);
  c.swap_block_s       = per_gpu / pcie_Bps(gpu.pcie_gen, gpu.pcie_lanes);
  if (batching.swap_to_pool) {
    c.swap_blocks = static_cast<int64_t>(kMaxKvBlocks);
    return;
  }
  const double swap_space_B = batching.swap_space_B;
  if (group.memory_B > 0 && swap_space_B * static_cast<double>(gpu.count) > group.memory_B)
    p.fail(key, "batching.swap_space: " + format_bytes(swap_space_B) + " for each of " + std::to_string(gpu.count) +
                    " GPUs exceeds the " + format_bytes(group.memory_B) + " of memory of a host of group '" +
                    group.name + "' (give the group's memory, or a smaller swap_space: vLLM's default is 4 GiB)");
  const double capacity = std::floor(swap_space_B / per_gpu / static_cast<double>(pp));
  if (capacity < 1)
    p.fail(key, "batching.swap_space holds no KV block of group '" + group.name + "' (" + format_bytes(per_gpu) +
                    " per GPU" + (pp > 1 ? " for each of " + std::to_string(pp) + " pipeline engines" : "") + ")");
  c.swap_blocks = static_cast<int64_t>(std::min(capacity, kMaxKvBlocks));
}

}  // namespace

int64_t layout_tp(const GroupSpec& group, const InstanceLayout& layout)
{
  return layout.tp > 0 ? layout.tp : group.gpu->count / layout.pp;
}

BatcherConfig gpu_instance_config(const Params& p, const std::string& key, const GroupSpec& group,
                                  const LlmModel& model, const ServeBatching& batching, const InstanceLayout& layout)
{
  require_gpus(p, key, group);
  const GpuSpec& gpu   = *group.gpu;
  const int64_t n      = layout_tp(group, layout) * layout.pp;  // the instance's GPUs
  const double gpus    = static_cast<double>(n);
  const double hbm     = gpu.hbm_B * gpus * batching.gpu_memory_utilization;
  const double weights = model.rank_weight_B(layout.dp);
  const double room    = hbm - weights - batching.activation_reserve_B * gpus;
  BatcherConfig c      = batching.base;
  const double block   = static_cast<double>(c.block_size) * model.kv_B_per_token;
  if (batching.kv_blocks > 0) {  // vLLM's own count: it must fit beside the weights in the whole HBM
    if (static_cast<double>(batching.kv_blocks) * block + weights > gpu.hbm_B * gpus)
      p.fail(key, "batching.kv_blocks: " + std::to_string(batching.kv_blocks) + " KV blocks of " + format_bytes(block) +
                      " and the weights (" + format_bytes(weights) + ") exceed the " + format_bytes(gpu.hbm_B * gpus) +
                      " of HBM of group '" + group.name + "'");
    c.kv_blocks = batching.kv_blocks;
  } else {
    if (room < block)
      p.fail(key,
             weights_error(model, group, batching.gpu_memory_utilization, "leave no room for KV in", n, layout.dp) +
                 (batching.activation_reserve_B > 0 ? " with the activation_reserve" : ""));
    c.kv_blocks = kv_blocks_in(p, key, room, block);
  }
  if (c.kv_blocks < layout.pp)
    p.fail(key, "the instance's " + std::to_string(c.kv_blocks) + " KV blocks cannot be shared out over its " +
                    std::to_string(layout.pp) + " pipeline engines");
  c.kv_blocks /= layout.pp;
  c.watermark_blocks = static_cast<int64_t>(batching.watermark * static_cast<double>(c.kv_blocks));  // as vLLM V0
  c.block_B          = block;
  if (batching.swap)
    swap_config(p, key, group, batching, n, layout.pp, c);
  return c;
}

std::unique_ptr<IterationModel> gpu_iteration_model(const ServeSystem::Context& c, const GroupSpec& group,
                                                    const InstanceLayout& layout)
{
  GpuSpec stage = *group.gpu;  // one pipeline stage's GPUs
  stage.count   = layout_tp(group, layout);
  auto model    = Registry<IterationModel>::create(
         c.iteration, {c.model, stage, group.name, layout.pp, c.seed, c.stream + ".iteration." + group.name, layout.dp,
                       c.batching.base.max_batch_size, c.batching.base.max_batch_tokens});
  model->set_gpu_load(std::make_shared<GpuLoad>(c.model, stage));
  const std::string note = model->calibration_note();
  if (c.notes != nullptr && !note.empty() && std::find(c.notes->begin(), c.notes->end(), note) == c.notes->end())
    c.notes->push_back(note);
  return model;
}

}  // namespace llsim
