#include "sim/train/layout_levers.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

namespace {

constexpr double kPiecesPerTarget = 2;

}  // namespace

IoPlan plan_checkpoint(const LayoutLevers& levers, const ModelState& model, const Parallelism& parallelism,
                       const IoSystem& io)
{
  // Who writes what: each node its ranks' bytes.
  std::vector<std::pair<int64_t, double>> writers;  // node, bytes
  for (int64_t rank = 0; rank < parallelism.ranks(); ++rank) {
    const double bytes = rank_checkpoint_B(position_of(rank, parallelism), model, parallelism, levers.even_data);
    const int64_t node = rank / io.ranks_per_node;
    if (bytes <= 0)
      continue;
    if (!writers.empty() && writers.back().first == node)
      writers.back().second += bytes;
    else
      writers.emplace_back(node, bytes);
  }

  const auto targets    = static_cast<int64_t>(io.targets);
  const int64_t files   = levers.io_procs;
  const int64_t stripes = !levers.split             ? 1
                          : levers.stripe_count > 0 ? std::min(levers.stripe_count, targets)
                                                    : targets;
  const double piece_B  = model.total_B() / (kPiecesPerTarget * static_cast<double>(targets));
  size_t next_target    = 0;
  IoPlan plan;
  plan.writers.reserve(writers.size());
  for (const auto& [node, bytes] : writers) {
    IoWriter writer{node, bytes, files, {}};
    const double file_B = bytes / static_cast<double>(files);
    const auto touched =
        static_cast<int64_t>(std::min<double>(static_cast<double>(stripes), std::ceil(file_B / io.stripe_B)));
    const int64_t slots  = files * std::max<int64_t>(1, touched);
    const auto wanted    = static_cast<int64_t>(std::llround(bytes / piece_B));
    const int64_t pieces = std::clamp<int64_t>(wanted, 1, slots);
    for (int64_t k = 0; k < pieces; ++k) {
      const int64_t creates = files / pieces + (k < files % pieces ? 1 : 0);
      writer.pieces.push_back({next_target++ % io.targets, bytes / static_cast<double>(pieces), creates});
    }
    plan.writers.push_back(std::move(writer));
  }
  return plan;
}

}  // namespace llsim
