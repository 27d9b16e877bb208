// Measured attention kernel times in Vidur's attention.csv layout: rows of one model shape
// (n_embd, n_q_head, n_kv_head) at num_tensor_parallel_workers, each either a prefill
// (is_prefill True: one sequence's chunk of prefill_chunk_size new tokens after kv_cache_size
// tokens of context) or a decode (a batch of batch_size sequences, each after kv_cache_size
// tokens of context). The time of a row is its attn_prefill or attn_decode median plus the
// medians of the reshapes and the KV-cache save around it where the file has them (ms, per
// layer). Rows at the same point are averaged.
#pragma once
#include "sim/core/csv.hpp"
#include "sim/core/curve_family.hpp"
#include "sim/serve/cost/iteration_model.hpp"

#include <string>
#include <vector>

namespace llsim {

struct AttentionRow {
  bool prefill   = false;
  double key     = 0;  // prefill: the chunk's new tokens; decode: the batch's sequences
  double context = 0;  // tokens of context before it, per sequence
  int64_t tp     = 1;
  double time_ms = 0;  // one layer
};

// Every row of an attention.csv, its shape checked against `model`; ConfigError at the file and
// line of a bad one.
std::vector<AttentionRow> read_attention_rows(const CsvTable& csv, const LlmModel& model);

class AttentionProfile {
 public:
  AttentionProfile() = default;
  // The rows at tensor-parallel degree `tp`; ConfigError when there are none (naming the degrees
  // the file has).
  AttentionProfile(const std::string& file, const LlmModel& model, int64_t tp);

  bool has_prefill() const { return !prefill_.empty(); }
  bool has_decode() const { return !decode_.empty(); }
  // Seconds of one layer's attention over the batch's prefill parts, read as one prefill of
  // sqrt(sum of the chunks squared) tokens after the sum of their contexts, as Vidur aggregates a
  // batch's prefills (attention grows with a chunk's square); a lone prefill reads back its
  // profile point. Beyond the longest chunk profiled, the time at that chunk grows with the
  // token pairs attended, n c + n (n + 1) / 2 (the kernel is compute-bound there).
  double prefill_seconds(const BatchWork& w) const;
  // Seconds of one layer's decode attention: the batch's decodes at their mean context.
  double decode_seconds(const BatchWork& w) const;

 private:
  CurveFamily prefill_;  // seconds against chunk tokens, then context tokens
  CurveFamily decode_;   // seconds against batch size, then context tokens
};

}  // namespace llsim
