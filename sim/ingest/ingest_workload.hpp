// Contract of an ingest workload (registry "ingest_workload", chosen with `impl:` under an ingest
// phase's `workload:`): what each client rank does, as a stream of metadata operations in steps.
// Every rank finishes a step before any starts the next (mdtest's phases are separated by
// barriers). Operations are generated on demand, so a workload of millions of files holds none
// of them in memory. Pure logic.
// - The constructor reads and checks every key (ConfigError with file:line) and may read a file.
// - next(step, rank, op) fills the rank's next operation of the step; false when it has none.
#pragma once
#include "sim/svc/meta_op.hpp"

#include <cstdint>
#include <string>

namespace llsim {

struct IngestOp {
  MetaOp op = MetaOp::Create;
  std::string path;
  double bytes = 0;  // create: the file's bytes (written to storage, then closed)
  double at_s  = 0;  // not issued before this time after the phase starts
};

class IngestWorkload {
 public:
  struct Context {
    int64_t ranks;
    uint64_t seed;       // the scenario's
    std::string stream;  // name of this workload's random stream
  };
  static constexpr const char* kInterfaceName = "ingest_workload";
  static constexpr const char* kHeader        = "sim/ingest/ingest_workload.hpp";
  static constexpr const char* kSelector      = "impl";

  virtual ~IngestWorkload()                                  = default;
  virtual size_t steps() const                               = 0;
  virtual std::string step_name(size_t step) const           = 0;
  virtual bool next(size_t step, int64_t rank, IngestOp* op) = 0;
};

}  // namespace llsim
