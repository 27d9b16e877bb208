#include "sim/run/simulation.hpp"

#include "sim/run/actors.hpp"
#include "sim/run/progress.hpp"
#include "sim/sg/engine.hpp"
#include "sim/sg/platform.hpp"

#include <simgrid/s4u.hpp>

#include <optional>

namespace sg4 = simgrid::s4u;

namespace llsim {

SimulationResult simulate(Scenario& scenario, const SimulationOptions& options)
{
  auto engine = make_engine();
  const Platform platform(*scenario.platform, scenario.seed);
  std::optional<ProgressLine> progress;
  if (options.progress)
    progress.emplace();

  SimulationResult result;
  result.phases.resize(scenario.phases.size());
  std::vector<sg4::ActorPtr> runners(scenario.phases.size());

  for (size_t i = 0; i < scenario.phases.size(); ++i) {
    PhaseEntry& phase   = scenario.phases[i];
    PhaseResult& record = result.phases[i];
    record.name         = phase.name;
    record.kind         = phase.kind;
    // Phases are created in file order, and `after` only names other phases, so a runner joins
    // runners that exist by the time it runs (all are created before the simulation starts).
    const std::string label = "phase '" + phase.name + "'";
    runners[i] = start_actor("phase:" + phase.name, platform.first_host(), label, [&, i, label] {
      PhaseEntry& self = scenario.phases[i];
      for (size_t dep : self.after)
        runners[dep]->join();
      if (sg4::Engine::get_clock() < self.start_s)
        sg4::this_actor::sleep_until(self.start_s);
      PhaseResult& out = result.phases[i];
      out.start_s      = sg4::Engine::get_clock();
      PhaseRuntime runtime{platform, Rng::stream(scenario.seed, "phase." + self.name), label};
      self.model->run(runtime);
      out.end_s = sg4::Engine::get_clock();
    });
  }
  engine->run();

  result.simulated_time_s = sg4::Engine::get_clock();
  for (size_t i = 0; i < scenario.phases.size(); ++i) {
    result.phases[i].metrics = scenario.phases[i].model->metrics();
    result.phases[i].tables  = scenario.phases[i].model->tables();
  }
  return result;
}

}  // namespace llsim
