// The three levers of the distributed checkpoint strategy (the "3 h -> 10 min" result on Sunway):
//   even_data  every data-parallel replica writes 1/data of its shard, instead of replica 0
//              writing whole shards (the framework default)
//   io_procs   I/O processes per writing node, one file each (file per process)
//   split      each file striped over `stripe_count` targets (0: all of them), its requests
//              divided evenly over them, instead of one target per file (Lustre's default)
// Forwarding nodes are not a lever: they come from the forwarding service's mapping.
//
// Simulation granularity: a writer's bytes lie on files x min(stripes, file size / stripe
// unit) (file, target) slots. Simulating every slot of 96,000 writers would be millions of
// requests, so a writer's slots are merged into pieces of about total / (2 x targets) bytes
// (at least one piece per writer, at most one per slot); pieces take targets round-robin, as the
// allocator deals files and stripes, so every target gets about two equal pieces. A piece
// carries the creates of the files it stands for. Few writers with wide striping get many
// pieces; many writers get one each.
#pragma once
#include "sim/train/io_plan.hpp"
#include "sim/train/parallelism.hpp"

namespace llsim {

struct LayoutLevers {
  bool even_data       = false;
  int64_t io_procs     = 1;
  bool split           = false;
  int64_t stripe_count = 0;  // with split: targets per file, 0 for all
};

IoPlan plan_checkpoint(const LayoutLevers& levers, const ModelState& model, const Parallelism& parallelism,
                       const IoSystem& io);

}  // namespace llsim
