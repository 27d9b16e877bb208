// Contract of an iteration-time model (registry "iteration_model", chosen with `impl:` under a
// serve phase's `iteration:`): how long one forward pass of a serving instance takes for the
// batch it runs. Pure logic; the constructor reads and checks every key (and may read a file).
#pragma once
#include "sim/platform/platform_spec.hpp"
#include "sim/serve/llm_model.hpp"

#include <cstdint>
#include <string>

namespace llsim {

// What one iteration computes, summed over the batch. A prefill part of n new tokens after c
// tokens of context attends to n*c + n*(n+1)/2 token pairs (causal); a decode of a request with
// c tokens of context attends to c + 1.
struct BatchWork {
  int64_t prefills         = 0;  // sequences prefilling
  int64_t prefill_tokens   = 0;  // new prompt tokens
  double prefill_pairs     = 0;  // attention token pairs of the prefill parts
  double prefill_kv_tokens = 0;  // context + new tokens of the prefill parts (KV read and written)
  int64_t decodes          = 0;  // requests generating one token each
  double decode_context    = 0;  // context tokens of the decodes (KV read)

  void add_prefill(int64_t context, int64_t n)
  {
    prefills += 1;
    prefill_tokens += n;
    prefill_pairs +=
        static_cast<double>(n) * static_cast<double>(context) + static_cast<double>(n) * static_cast<double>(n + 1) / 2;
    prefill_kv_tokens += static_cast<double>(context + n);
  }
  void add_decode(int64_t context)
  {
    decodes += 1;
    decode_context += static_cast<double>(context + 1);
  }
  bool empty() const { return prefill_tokens == 0 && decodes == 0; }
};

class IterationModel {
 public:
  struct Context {
    const LlmModel& model;
    const GpuSpec& gpu;        // the instance's host
    const std::string& group;  // its group's name, for messages
  };
  static constexpr const char* kInterfaceName = "iteration_model";
  static constexpr const char* kHeader        = "sim/serve/iteration_model.hpp";
  static constexpr const char* kSelector      = "impl";

  virtual ~IterationModel()                           = default;
  virtual double seconds(const BatchWork& work) const = 0;
};

}  // namespace llsim
