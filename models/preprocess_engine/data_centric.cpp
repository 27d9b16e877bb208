// Preprocess engine `data_centric`: a data-centric engine in the manner of the one the founding
// paper reports (a native runtime that moves tasks to their data). Tasks read the corpus on the
// node that holds it when the scheduler puts them there (use the `locality` scheduler); operators
// run natively (factor 1); `read` and `minhash` are fused into one pass over each partition with
// nothing materialised between them; records take `memory_factor` times the stage's memory per
// document (compact native layouts; assumption).
//
//   engine: {impl: data_centric, memory_factor: 0.5}
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/preprocess_dedup.yaml --set 'phases.dedup.engine={impl: data_centric}'
#include "sim/core/registry.hpp"
#include "sim/preprocess/preprocess_engine.hpp"

namespace llsim {

namespace {

const ParamTable kParams = {
    ParamSpec::quantity("memory_factor", Dimension::Number, "factor on memory per document (assumption)")
        .defaults("0.5")
        .positive(),
};

class DataCentric : public PreprocessEngine {
 public:
  DataCentric(const Params& p, const Context&)
  {
    traits_.memory_factor     = p.quantity("memory_factor");
    traits_.fuse_read_minhash = true;
  }
  EngineTraits traits() const override { return traits_; }

 private:
  EngineTraits traits_;
};

}  // namespace

LLSIM_REGISTER(PreprocessEngine, "data_centric", DataCentric, "native, data-local, read and minhash fused", kParams);

}  // namespace llsim
