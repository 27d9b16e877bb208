// Preprocess engine `compute_centric`: a PySpark-like engine. Executors pull every input byte
// from the storage service over the network (no node-local reads, as with a separate file system
// or remote HDFS reads); each operator runs in Python workers beside a JVM, which costs a
// `runtime_overhead` factor on the operators and serialises each stage's bytes across the
// JVM-Python boundary (`serialization` core-seconds per byte, in and out); every stage's output
// is materialised on the executors' disks before the next stage starts; each record takes
// `memory_factor` times the stage's memory per document (JVM and Python objects).
//
//   engine: {impl: compute_centric, runtime_overhead: 3, serialization: 5ns, memory_factor: 2}
//
// All three are assumptions: the only published comparison found (text-dedup's, MinHash
// in native Python 18.88 s vs on Spark 691.77 s on one small corpus) mixes start-up, scheduling
// and operator costs and is not used to set them. Vary them (docs/results/fuzzy_dedup.md, "What
// sets the speed-up").
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/preprocess_dedup.yaml --set 'phases.dedup.engine={impl: compute_centric}'
#include "sim/core/registry.hpp"
#include "sim/preprocess/preprocess_engine.hpp"

namespace llsim {

namespace {

const ParamTable kParams = {
    ParamSpec::quantity("runtime_overhead", Dimension::Number,
                        "factor on every operator's cost (JVM plus Python "
                        "workers; assumption)")
        .defaults("3")
        .at_least(1),
    ParamSpec::quantity("serialization", Dimension::Duration,
                        "core time per byte crossing the JVM-Python boundary, "
                        "each way (assumption)")
        .defaults("5ns")
        .at_least(0),
    ParamSpec::quantity("memory_factor", Dimension::Number, "factor on memory per document (assumption)")
        .defaults("2")
        .positive(),
};

class ComputeCentric : public PreprocessEngine {
 public:
  ComputeCentric(const Params& p, const Context&)
  {
    traits_.operator_factor   = p.quantity("runtime_overhead");
    traits_.serialize_s_per_B = 2 * p.quantity("serialization");
    traits_.memory_factor     = p.quantity("memory_factor");
    traits_.pull_remote       = true;
  }
  EngineTraits traits() const override { return traits_; }

 private:
  EngineTraits traits_;
};

}  // namespace

LLSIM_REGISTER(PreprocessEngine, "compute_centric", ComputeCentric,
               "PySpark-like: remote reads, runtime overhead, serialisation, materialised stages", kParams);

}  // namespace llsim
