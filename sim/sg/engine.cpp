#include "sim/sg/engine.hpp"

#include "sim/sg/log_setting.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <malloc.h>

#include <cstdlib>
#include <string>

namespace llsim {

namespace {

// Every actor runs on a stack of its own of this size. Without guard pages (SimGrid's one
// protected page per stack costs a memory mapping each, and tens of thousands of actors exhaust
// vm.max_map_count), an overflow would silently corrupt the next stack: LLSIM_STACK_GUARD=1 in
// the environment turns the guard pages on, and tests/llsim/test_stack_guard.py runs the
// deepest call paths that way.
constexpr int kActorStackKiB = 128;

bool stack_guard_requested()
{
  const char* v = std::getenv("LLSIM_STACK_GUARD");
  return v != nullptr && std::string(v) == "1";
}

}  // namespace

Engine::Engine(const EngineOptions& options)
{
  // SimGrid allocates each actor's stack zeroed (calloc). Served by mmap, that costs no memory
  // until the stack is used; but glibc raises its mmap threshold whenever an mmapped block is
  // freed, after which stacks come from the heap and are zeroed page by page: every actor then
  // holds its whole stack. A fixed threshold keeps stacks mmapped (tens of thousands of service
  // actors: about 1.8 GB less for 4,096 workers with node-local disks).
  mallopt(M_MMAP_THRESHOLD, kActorStackKiB * 1024);
  std::vector<std::string> args = {"llsim",
                                   "--log=root.thresh:warning",
                                   "--log=xbt_cfg.thresh:warning",
                                   options.network == NetworkModel::Lv08 ? "--cfg=network/model:LV08"
                                                                         : "--cfg=network/model:CM02",
                                   "--cfg=network/crosstraffic:0",
                                   "--cfg=network/optim:Full",
                                   "--cfg=contexts/stack-size:" + std::to_string(kActorStackKiB),
                                   std::string("--cfg=contexts/guard-size:") + (stack_guard_requested() ? "1" : "0")};
  for (const auto& setting : options.log_settings)
    args.push_back("--log=" + xbt_log_setting(setting));
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  engine_  = std::make_unique<simgrid::s4u::Engine>(&argc, argv.data());
}

Engine::~Engine() = default;

void Engine::run()
{
  engine_->run();
}

}  // namespace llsim
