#include "sim/sg/engine.hpp"

#include <string>
#include <vector>

namespace llsim {

std::unique_ptr<simgrid::s4u::Engine> make_engine()
{
  static std::vector<std::string> args = {"llsim",
                                          "--log=root.thresh:warning",
                                          "--log=xbt_cfg.thresh:warning",
                                          "--cfg=network/model:CM02",
                                          "--cfg=network/crosstraffic:0",
                                          "--cfg=contexts/stack-size:128",
                                          "--cfg=contexts/guard-size:0"};
  static std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  return std::make_unique<simgrid::s4u::Engine>(&argc, argv.data());
}

}  // namespace llsim
