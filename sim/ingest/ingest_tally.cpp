#include "sim/ingest/ingest_tally.hpp"

#include "sim/core/percentile.hpp"
#include "sim/core/text.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

IngestTally::IngestTally(size_t servers, double sample_period_s, double scale)
    : period_s_(sample_period_s)
    , scale_(scale)
    , rpcs_of_server_(servers, 0)
{
  for (auto& h : histogram_)
    h.assign(kBinsPerDecade * kDecades, 0);
  steps_.header = {"step", "operations", "start_s", "end_s", "ops_per_s"};
}

void IngestTally::op_done(MetaOp op, double latency_s)
{
  const double per_op = latency_s / scale_;
  ops_ += scale_;
  if (op == MetaOp::Unlink)
    removed_ += scale_;
  latencies_.push_back(per_op);
  const double bin = std::floor((std::log10(std::max(per_op, 1e-300)) - kFirstDecade) * kBinsPerDecade);
  const auto index = static_cast<size_t>(std::clamp(bin, 0.0, kBinsPerDecade * kDecades - 1.0));
  histogram_[static_cast<size_t>(op)][index] += scale_;
}

void IngestTally::rpc_done(size_t server, double now)
{
  rpcs_ += scale_;
  rpcs_of_server_[server] += scale_;
  auto& bucket = rpcs_by_bucket_[static_cast<int64_t>(std::floor(now / period_s_))];
  if (bucket.empty())
    bucket.assign(rpcs_of_server_.size(), 0);
  bucket[server] += scale_;
}

void IngestTally::step_done(const std::string& name, double start_s, double end_s, double ops)
{
  steps_.rows.push_back({name, format_number(ops), format_number(start_s), format_number(end_s),
                         format_number(end_s > start_s ? ops / (end_s - start_s) : 0)});
}

Metrics IngestTally::metrics() const
{
  std::vector<double> values = latencies_;
  double sum                 = 0;
  for (double l : values)
    sum += l;
  const double busiest =
      rpcs_of_server_.empty() ? 0 : *std::max_element(rpcs_of_server_.begin(), rpcs_of_server_.end());
  const bool any = !values.empty();
  return {{"ops", ops_},
          {"files", files_},
          {"files_removed", removed_},
          {"mean_latency_s", any ? sum / static_cast<double>(latencies_.size()) : 0},
          {"p50_latency_s", any ? percentile(values, 0.50) : 0},
          {"p99_latency_s", any ? percentile(values, 0.99) : 0},
          {"rpcs_per_op", ops_ > 0 ? rpcs_ / ops_ : 0},
          {"max_server_share", rpcs_ > 0 ? busiest / rpcs_ : 0},
          {"data_bytes", data_B_}};
}

CsvWriter IngestTally::servers_table() const
{
  CsvWriter t;
  t.header = {"time_s", "server", "rpcs", "rpcs_per_s"};
  for (const auto& [bucket, per_server] : rpcs_by_bucket_) {
    // The last bucket ends with the phase: its rate is over the time it covers.
    const double begin = static_cast<double>(bucket) * period_s_;
    const double end   = std::max(std::min(begin + period_s_, end_s_), std::nextafter(begin, begin + 1));
    for (size_t s = 0; s < per_server.size(); ++s)
      if (per_server[s] > 0)
        t.add_numbers({end, static_cast<double>(s), per_server[s], per_server[s] / (end - begin)});
  }
  return t;
}

CsvWriter IngestTally::latency_table() const
{
  CsvWriter t;
  t.header = {"op", "low_s", "high_s", "operations"};
  for (size_t op = 0; op < kMetaOps; ++op)
    for (size_t b = 0; b < histogram_[op].size(); ++b)
      if (histogram_[op][b] > 0) {
        const double low  = std::pow(10.0, kFirstDecade + static_cast<double>(b) / kBinsPerDecade);
        const double high = std::pow(10.0, kFirstDecade + static_cast<double>(b + 1) / kBinsPerDecade);
        t.rows.push_back({meta_op_name(static_cast<MetaOp>(op)), format_number(low), format_number(high),
                          format_number(histogram_[op][b])});
      }
  return t;
}

CsvWriter IngestTally::steps_table() const
{
  return steps_;
}

}  // namespace llsim
