// The training run's environment inside the simulation: simulated time is SimGrid's, the job's
// failures are its nodes' outages (a job fails when one of its nodes does), and checkpoint I/O
// either runs through the services (checkpoint_io.hpp) or is charged the cost measured for the
// same operation:
//   io_replay: always   every operation runs through the services
//              once     each kind of operation runs once; later ones are charged its cost
//              auto     an operation runs through the services whenever another phase is running
//                       (so they contend for the same servers) or its cost was never measured
//                       alone; otherwise it is charged the cost measured alone
// A charged operation takes the same simulated time but touches no server (it does not appear
// in the services' CSVs); its bytes still take capacity, and the services report them as
// charged bytes (of a cut-short operation, the share of its time that passed). Costs scale with
// the bytes moved.
// The newest `keep` checkpoints stay on the parallel file system (older ones are removed);
// node-local levels keep the newest one. The newest on the parallel file system is named
// `published_as` there, for a later phase to read (sim/svc/files/file_names.hpp).
#pragma once
#include "sim/faults/host_faults.hpp"
#include "sim/train/checkpoint_io.hpp"
#include "sim/train/data_loader.hpp"
#include "sim/train/training_environment.hpp"

#include <array>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace llsim {

enum class IoReplay { Auto, Always, Once };

// One failure of the job: when, which node (index in the job's group), why, and when that node
// is repaired.
struct JobFailure {
  double time_s;
  int64_t node;
  FaultCause cause;
  double up_s;
};

struct IoTotals {
  double seconds = 0;
  int64_t count  = 0;
  double mean_s() const { return count > 0 ? seconds / static_cast<double>(count) : NAN; }
};

class SimTrainingEnvironment : public TrainingEnvironment {
 public:
  SimTrainingEnvironment(const IoRoute& route, const IoPlan& plan, HostFaults& faults, IoReplay replay,
                         std::function<bool()> others_running, int64_t keep, std::string published_as);
  ~SimTrainingEnvironment() override;

  double now() const override;
  bool advance_until(double until) override;
  bool io(IoKind kind, double share, double scale, const std::set<size_t>& lost) override;
  void start_background(double scale) override;
  double background_end() override;
  bool wait_background() override;
  void drop_background() override;
  std::vector<size_t> failed_writers() const override { return failed_writers_; }
  FaultCause failure_cause() const override { return failure_log_.back().cause; }
  bool reads_data() const override { return data_ != nullptr; }
  bool wait_for_batch(int64_t iteration) override;
  void batch_done(int64_t iteration) override { data_->done(iteration); }
  void stop_data() override
  {
    if (data_)
      data_->drop();
  }
  // Reads each iteration's batch from now on (the phase's `data`).
  void read_data(DataSpec spec) { data_ = std::make_unique<DataLoader>(std::move(spec)); }
  const DataLoader* data() const { return data_.get(); }
  std::vector<double> failed_nodes_up_s() const override { return failed_up_s_; }
  int64_t replays() const override { return replays_; }
  double measured_s(IoKind kind) override;
  void report(int64_t failures, int64_t restarts) override;

  double job_mtbf_s() const { return failures_.mtbf_s(); }
  // The job's failures so far.
  const std::vector<JobFailure>& failures() const { return failure_log_; }
  const IoTotals& totals(IoKind kind) const { return totals_[static_cast<size_t>(kind)]; }

 private:
  struct Operation;  // one I/O operation in progress
  std::unique_ptr<Operation> begin(IoKind kind, double share, double scale, const std::set<size_t>& lost);
  void charge(const Operation& op, double until);  // a charged operation's bytes moved by `until`
  void count_charged_traffic(IoKind kind, double bytes) const;
  static std::map<std::string, double> waits_since(const std::map<std::string, double>& before, double factor);
  bool finish(Operation& op, double deadline);  // false: the job failed first
  void failed();                                // consumes the failure now due
  void keep_newest(IoKind kind, FileId object);
  bool replay(IoKind kind, double share) const;
  StorageService& storage_of(IoKind kind) const;
  // Bytes of one checkpoint (scale 1) on each target, in target order; computed once per
  // (kind, share), since a charged checkpoint takes capacity target by target.
  const std::vector<std::pair<size_t, double>>& B_per_target(IoKind kind, double share);

  const IoRoute& route_;
  const IoPlan& plan_;
  GroupFailures failures_;
  IoReplay replay_;
  std::function<bool()> others_running_;
  size_t keep_;
  std::string published_as_;  // the name the newest complete checkpoint on the file system has
  double next_failure_s_;
  HostId next_failed_host_ = 0;
  std::vector<size_t> failed_writers_;  // of the failure now due: every node it takes down
  std::vector<double> failed_up_s_;
  std::vector<int64_t> writer_of_node_;
  std::vector<JobFailure> failure_log_;
  int64_t replays_    = 0;
  int64_t checkpoint_ = 0;
  // An operation run through the services, for the later ones of its kind and share charged
  // instead: its time and what the phase's work was charged meanwhile (sim/sg/wait_ledger.hpp),
  // both for scale 1.
  struct Measured {
    std::pair<int, double> kind_share;
    double seconds;
    std::map<std::string, double> waits;
  };
  std::vector<Measured> measured_;
  const Measured* measured(IoKind kind, double share) const;  // null: none yet
  std::map<std::pair<int, double>, std::vector<std::pair<size_t, double>>> B_per_target_;
  std::array<IoTotals, 5> totals_{};
  std::deque<FileId> pfs_objects_, local_objects_;
  std::unique_ptr<Operation> background_;
  std::unique_ptr<DataLoader> data_;
};

}  // namespace llsim
