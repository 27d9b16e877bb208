#include "sim/sg/engine.hpp"

#include "sim/sg/log_setting.hpp"

#include <simgrid/s4u/Engine.hpp>

namespace llsim {

Engine::Engine(const EngineOptions& options)
{
  std::vector<std::string> args = {"llsim",
                                   "--log=root.thresh:warning",
                                   "--log=xbt_cfg.thresh:warning",
                                   options.network == NetworkModel::Lv08 ? "--cfg=network/model:LV08"
                                                                         : "--cfg=network/model:CM02",
                                   "--cfg=network/crosstraffic:0",
                                   "--cfg=network/optim:Full",
                                   "--cfg=contexts/stack-size:128",
                                   "--cfg=contexts/guard-size:0"};
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
