// The three levers of the distributed checkpoint strategy (the "3 h -> 10 min" result on Sunway):
//   even_data  every data-parallel replica writes 1/data of its shard, instead of replica 0
//              writing whole shards (the framework default)
//   io_procs   I/O processes per writing node, one file each (file per process)
//   split      each file striped over `stripe_count` OSTs (0: all of them) and its requests
//              spread over every forwarding node, instead of one OST (default striping)
//              through the node's own forwarding node
// Simulation granularity: a writer's files and stripes become as many pieces as needed for
// every OST to receive about two, and never more than its real number of file stripes; pieces
// take OSTs round-robin (Lustre's allocator), so the load per OST is what the real layout gives.
#pragma once
#include "sim/train/io_plan.hpp"
#include "sim/train/parallelism.hpp"

namespace llsim {

struct LayoutLevers {
  bool even_data   = false;
  int64_t io_procs = 1;
  bool split       = false;
  int64_t stripe_count = 0;  // with split: OSTs per file, 0 for all
};

IoPlan plan_checkpoint(const LayoutLevers& levers, const ModelState& model, const Parallelism& parallelism,
                       const IoSystem& io);

}  // namespace llsim
