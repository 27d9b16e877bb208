// What an ingest phase measured: operations and their latencies by type, RPCs per server over
// time, files, data bytes, and the steps. Counts are of real operations: a simulated operation
// standing for `scale` of them counts `scale` times, and its latency is its time / scale (the
// time of one of the operations it stands for).
#pragma once
#include "sim/core/csv.hpp"
#include "sim/core/metrics.hpp"
#include "sim/svc/meta_op.hpp"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace llsim {

class IngestTally {
 public:
  IngestTally(size_t servers, double sample_period_s, double scale);
  void op_done(MetaOp op, double latency_s);  // the simulated operation's own time
  void rpc_done(size_t server, double now);
  void file_created(double bytes) { files_ += scale_, data_B_ += bytes * scale_; }
  void step_done(const std::string& name, double start_s, double end_s, double ops);
  void finish(double end_s) { end_s_ = end_s; }  // the last bucket ends here

  double ops() const { return ops_; }
  // ops, files, files_removed, latencies, rpcs_per_op, max_server_share, data_bytes (the phase
  // adds the rest).
  Metrics metrics() const;
  CsvWriter servers_table() const;  // time_s (end of the bucket), server, rpcs, rpcs_per_s
  CsvWriter latency_table() const;  // op, low_s, high_s, operations
  CsvWriter steps_table() const;    // step, operations, start_s, end_s, ops_per_s

  static constexpr int kBinsPerDecade = 10;
  static constexpr int kFirstDecade   = -7;  // 100 ns
  static constexpr int kDecades       = 11;  // up to 10,000 s

 private:
  double period_s_, scale_, end_s_ = 0;
  double ops_ = 0, files_ = 0, removed_ = 0, data_B_ = 0, rpcs_ = 0;
  std::vector<double> latencies_;  // per simulated operation, per real operation
  std::vector<double> rpcs_of_server_;
  std::map<int64_t, std::vector<double>> rpcs_by_bucket_;  // buckets with activity only
  std::array<std::vector<double>, kMetaOps> histogram_;
  CsvWriter steps_;
};

}  // namespace llsim
