// Contract of a preprocessing engine (registry "preprocess_engine", chosen with `impl:` under a
// preprocess phase's `engine:`): how the engine runs the pipeline's operators. Pure data: the
// phase's runtime (sim/preprocess/preprocess_run.hpp) turns stages into tasks with these traits.
#pragma once

namespace llsim {

struct EngineTraits {
  double operator_factor   = 1;      // multiplies every operator's cost (runtime overhead)
  double serialize_s_per_B = 0;      // core-seconds per byte crossing a process boundary per stage
  bool fuse_read_minhash   = false;  // read and minhash in one pass, nothing materialised between
  bool pull_remote         = false;  // executors read the corpus over the network, not node-locally
  double memory_factor     = 1;      // multiplies each stage's memory per document
};

class PreprocessEngine {
 public:
  struct Context {};
  static constexpr const char* kInterfaceName = "preprocess_engine";
  static constexpr const char* kHeader        = "sim/preprocess/preprocess_engine.hpp";
  static constexpr const char* kSelector      = "impl";

  virtual ~PreprocessEngine()         = default;
  virtual EngineTraits traits() const = 0;
};

}  // namespace llsim
