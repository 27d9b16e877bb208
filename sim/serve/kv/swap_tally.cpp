#include "sim/serve/kv/swap_tally.hpp"

#include "sim/core/text.hpp"

namespace llsim {

const MetricTable& SwapTally::metric_table()
{
  static const MetricTable t = {
      {"kv_swapped_bytes", MetricUnit::Bytes,
       "KV that preemption by swap moved out of HBM and back in, to CPU memory or a memory pool (0 without it)"},
      {"kv_swap_failures", MetricUnit::Count,
       "swaps whose KV did not arrive (the pool rejected, evicted or lost it, or a host failed): the sequence was "
       "recomputed, or lost with its instance"},
  };
  return t;
}

Metrics SwapTally::metrics() const
{
  double bytes = 0, failures = 0;
  for (const Move& m : moves_) {
    if (m.outcome == SwapOutcome::Moved)
      bytes += m.bytes;
    else
      failures += 1;
  }
  return {{"kv_swapped_bytes", bytes}, {"kv_swap_failures", failures}};
}

CsvWriter SwapTally::table() const
{
  static const char* const kOutcomes[] = {"moved", "rejected", "missed", "failed"};
  CsvWriter t;
  t.header = {"start_s", "end_s", "instance", "request", "direction", "bytes", "to", "outcome"};
  for (const Move& m : moves_)
    t.rows.push_back({format_number(m.start_s), format_number(m.end_s), format_number(m.instance),
                      format_number(static_cast<double>(m.request)), m.out ? "out" : "in", format_number(m.bytes), m.to,
                      kOutcomes[static_cast<int>(m.outcome)]});
  return t;
}

}  // namespace llsim
