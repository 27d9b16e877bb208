#include "sim/train/layout_levers.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

IoPlan plan_checkpoint(const LayoutLevers& levers, const ModelState& model, const Parallelism& parallelism,
                       const IoSystem& io)
{
  // Who writes what.
  std::vector<std::pair<int64_t, double>> writers;  // node, bytes
  for (int64_t rank = 0; rank < parallelism.ranks(); ++rank) {
    const RankPosition pos = position_of(rank, parallelism);
    const double shard     = shard_bytes(pos.stage, model, parallelism);
    if (levers.even_data)
      writers.emplace_back(rank, shard / static_cast<double>(parallelism.data));
    else if (pos.data_rank == 0)
      writers.emplace_back(rank, shard);
  }

  const int64_t files          = levers.io_procs;
  const auto all_osts          = static_cast<int64_t>(io.osts);
  const int64_t stripes        = !levers.split ? 1 : levers.stripe_count > 0 ? std::min(levers.stripe_count, all_osts) : all_osts;
  const double wanted          = std::ceil(2.0 * static_cast<double>(io.osts) / static_cast<double>(writers.size()));
  const int64_t pieces         = std::clamp<int64_t>(static_cast<int64_t>(wanted), 1, files * stripes);
  size_t next_ost = 0, next_forwarding = 0;
  IoPlan plan;
  plan.writers.reserve(writers.size());
  for (size_t w = 0; w < writers.size(); ++w) {
    IoWriter writer{writers[w].first, writers[w].second,
                    static_cast<double>(levers.io_procs) * io.process_Bps, {}};
    const size_t home = io.home_forwarding(writer.node, w);
    for (int64_t k = 0; k < pieces; ++k) {
      // Creates: the writer's files, spread over its first pieces.
      const int64_t creates = files / pieces + (k < files % pieces ? 1 : 0);
      const size_t fwd      = levers.split ? next_forwarding++ % io.forwarding : home;
      writer.pieces.push_back({next_ost++ % io.osts, fwd, writer.bytes / static_cast<double>(pieces), creates});
    }
    plan.writers.push_back(std::move(writer));
  }
  return plan;
}

}  // namespace llsim
