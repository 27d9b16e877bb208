#include "sim/core/registry.hpp"
#include "sim/serve/engine/batch_scheduler.hpp"
#include "sim/serve/engine/batcher.hpp"
#include "tests/unit/batcher_fixture.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace llsim;
using namespace llsim::testing;

namespace {

// The steps a scheduler takes, in order, each with the work it was given so far.
struct StepLog : BatchSteps {
  std::vector<std::string> steps;
  bool preempted = false;
  void admit_decode_ready() override { steps.push_back("ready"); }
  void prefill_whole_prompts(BatchWork& w) override
  {
    steps.push_back("whole");
    if (whole_prompt)
      w.add_prefill(0, 10);
  }
  void schedule_decodes(BatchWork&) override { steps.push_back("decodes"); }
  bool preempted_now() const override { return preempted; }
  void swap_in(BatchWork&) override { steps.push_back("swap_in"); }
  void schedule_chunks(BatchWork&) override { steps.push_back("chunks"); }
  bool whole_prompt = false;  // prefill_whole_prompts finds one to admit
};

using Steps = std::vector<std::string>;

Steps plan_with(const std::string& name, bool whole_prompt, bool preempted)
{
  StepLog log;
  log.whole_prompt = whole_prompt;
  log.preempted    = preempted;
  BatchWork w;
  batch_scheduler(name)->plan(log, w);
  return log.steps;
}

}  // namespace

TEST_CASE("batch scheduler: v1 decodes, brings swapped sequences back unless it preempted, then chunks prompts",
          "[batch_scheduler]")
{
  CHECK(plan_with("v1", false, false) == Steps{"ready", "decodes", "swap_in", "chunks"});
  CHECK(plan_with("v1", false, true) == Steps{"ready", "decodes", "chunks"});
  CHECK(plan_with("v1", true, false) == Steps{"ready", "decodes", "swap_in", "chunks"});  // never whole prompts
  CHECK(batch_scheduler("v1")->chunks_prompts());
}

TEST_CASE("batch scheduler: v0 prefills whole prompts alone, and decodes only when none is admitted",
          "[batch_scheduler]")
{
  CHECK(plan_with("v0", true, false) == Steps{"ready", "whole"});
  CHECK(plan_with("v0", false, false) == Steps{"ready", "whole", "decodes", "swap_in"});
  CHECK(plan_with("v0", false, true) == Steps{"ready", "whole", "decodes"});
  CHECK_FALSE(batch_scheduler("v0")->chunks_prompts());
}

TEST_CASE("batch scheduler: on a batcher, v1 mixes a prompt's chunk with the decodes and v0 does not",
          "[batch_scheduler]")
{
  for (const std::string name : {"v1", "v0"}) {
    BatcherConfig c = config(100);
    c.scheduler     = batch_scheduler(name);
    Batcher b(c, InstanceRole::Colocated);
    Log log;
    b.add({1, 16, 5});
    drain(b, log, 2);  // its prompt, then a decode
    b.add({2, 16, 5});
    const BatchWork w = b.plan();
    CHECK(w.prefills == 1);
    CHECK(w.decodes == (name == "v1" ? 1 : 0));
  }
}

TEST_CASE("batch scheduler: the registered names", "[batch_scheduler]")
{
  CHECK(Registry<BatchScheduler>::names() == std::vector<std::string>{"v0", "v1"});
}
