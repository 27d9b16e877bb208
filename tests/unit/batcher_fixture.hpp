// What the batcher tests share: a listener that counts tokens, a small instance's config, and a
// loop that runs iterations until the batcher is idle.
#pragma once
#include "sim/core/registry.hpp"
#include "sim/serve/engine/batcher.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <vector>

namespace llsim::testing {

struct Log : BatchListener {
  std::map<int64_t, int> tokens;
  std::vector<int64_t> finished_ids, handed;
  std::map<int64_t, int64_t> told_up_to;  // per sequence, the iteration after its last token told
  void first_token(int64_t id) override
  {
    CHECK(tokens[id] == 0);
    tokens[id] += 1;
  }
  void decoded(int64_t id, int64_t from, int64_t n) override
  {
    CHECK(n > 0);
    CHECK(from >= told_up_to[id]);  // runs told in order, never twice
    told_up_to[id] = from + n;
    tokens[id] += static_cast<int>(n);
  }
  void finished(int64_t id) override { finished_ids.push_back(id); }
  void handed_off(int64_t id) override { handed.push_back(id); }
  void prefix_hit(int64_t, int64_t blocks) override { hit_blocks += blocks; }
  int64_t hit_blocks = 0;
};

// The registered batch scheduler `name` (models/batch_scheduler/).
inline std::shared_ptr<const BatchScheduler> batch_scheduler(const std::string& name)
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = "test.yaml";
  return Registry<BatchScheduler>::create_named(YamlRef(YAML::Load(name), "scheduler", source), {});
}

inline BatcherConfig config(int64_t blocks)
{
  BatcherConfig c;
  c.scheduler        = batch_scheduler("v1");
  c.kv_blocks        = blocks;
  c.block_size       = 16;
  c.max_batch_tokens = 64;
  c.max_batch_size   = 4;
  c.prefill_chunk    = 32;
  return c;
}

// Runs iterations until idle; returns how many.
inline int drain(Batcher& b, Log& log, int limit = 10000)
{
  int n = 0;
  while (!b.idle() && n < limit) {
    REQUIRE_FALSE(b.plan().empty());
    b.complete(log);
    ++n;
  }
  return n;
}

}  // namespace llsim::testing
