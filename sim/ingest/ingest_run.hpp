// The clients of an ingest phase at work: `ranks` processes per client host, each running its
// workload's operations one after another, every rank finishing a step before the next starts.
//
// One operation: the client resolves the path's directories one component at a time; each that
// its host's cache (dir_cache.hpp) does not hold costs a lookup RPC to the server the metadata
// model names, one after another, or all at once when the model resolves in parallel. Then the
// operation's own RPCs go out together, and the operation is done when all have replied. A
// create with bytes then writes them to the storage service (one stripe, one I/O) and closes the
// file (a close RPC). Clients wait for a server that is down (they retry).
//
// Ranks are callbacks, not actors: a reply starts the rank's next RPC. `scale` k: every RPC
// stands for k identical ones (metadata.hpp) and every data write carries k files' bytes.
#pragma once
#include "sim/ingest/dir_cache.hpp"
#include "sim/ingest/ingest_tally.hpp"
#include "sim/ingest/ingest_workload.hpp"
#include "sim/platform/platform_spec.hpp"

#include <memory>
#include <string>
#include <vector>

namespace llsim {

class MetadataService;
class StorageService;
class Timer;
class WaitPoint;

struct IngestSetup {
  const GroupSpec* clients  = nullptr;
  int64_t ranks_per_host    = 1;
  int64_t scale             = 1;
  MetadataService* metadata = nullptr;
  StorageService* storage   = nullptr;  // null: file bytes are not written
  IngestWorkload* workload  = nullptr;
  size_t cache_entries      = 0;
  double cache_ttl_s        = 0;
};

class IngestRun {
 public:
  IngestRun(const IngestSetup& setup, Timer& timer, IngestTally& tally);
  ~IngestRun();
  // Runs every step from the calling actor; returns when all are done, or the first failure's
  // message (empty: none).
  std::string run();

 private:
  struct Rank;
  void start_step();
  void issue(Rank& r);
  void begin(Rank& r);
  void look_up(Rank& r);
  void send_op(Rank& r);
  void op_done(Rank& r);
  void write_data(Rank& r);
  void rank_done();
  void fail(const std::string& message);

  IngestSetup s_;
  Timer& timer_;
  IngestTally& tally_;
  std::vector<Rank> ranks_;
  std::vector<DirCache> caches_;  // per client host
  size_t step_ = 0, ranks_left_ = 0;
  double step_start_s_ = 0, phase_start_s_ = 0, step_ops_ = 0;
  bool over_ = false;
  std::string error_;
  std::unique_ptr<WaitPoint> finished_;
};

}  // namespace llsim
