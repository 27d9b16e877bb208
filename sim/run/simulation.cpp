#include "sim/run/simulation.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/metrics.hpp"
#include "sim/core/text.hpp"
#include "sim/sg/actors.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/engine.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/platform.hpp"
#include "sim/sg/progress.hpp"
#include "sim/sg/timer.hpp"
#include "sim/sg/traffic_ledger.hpp"
#include "sim/sg/wait_ledger.hpp"
#include "sim/svc/service.hpp"

#include <optional>

XBT_LOG_EXTERNAL_CATEGORY(llsim_run);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_run_simulation, llsim_run, "phase start and end");

namespace llsim {

namespace {

// Every metric written is declared by its kind (sim/core/metrics.hpp): one that is not is a
// mistake of llsim's, not of the scenario.
void check_declared(const SimulationResult& result)
{
  std::vector<std::string> errors = MetricCatalog::errors();
  for (const PhaseResult& p : result.phases)
    for (const std::string& e : metric_errors(Phase::kInterfaceName, p.kind, p.metrics))
      errors.push_back(e);
  for (const ServiceResult& s : result.services)
    for (const std::string& e : metric_errors(Service::kInterfaceName, s.kind, s.totals))
      errors.push_back(e);
  if (!errors.empty())
    throw SimulationError("internal error: " + join(errors, "; "));
}

}  // namespace

SimulationResult simulate(Scenario& scenario, const SimulationOptions& options)
{
  Engine engine(EngineOptions{scenario.platform->network, options.log_settings});
  const Platform platform(*scenario.platform, scenario.seed);
  std::optional<ProgressLine> progress;
  if (options.progress)
    progress.emplace();

  // Services start before the simulation does (outside any actor, so starting them cannot
  // yield to a phase): their queues and threads exist before any phase submits a request.
  clear_wait_ledger();
  start_traffic_ledger(!scenario.accounting.network.empty());
  Timer timer(platform);
  for (Service* s : scenario.services->all())
    s->start(ServiceRuntime{platform, *scenario.faults, timer});
  const HostId first_host = 0;

  SimulationResult result;
  result.phases.resize(scenario.phases.size());
  std::vector<Actor> runners(scenario.phases.size());
  size_t running = 0;
  for (size_t i = 0; i < scenario.phases.size(); ++i) {
    PhaseEntry& phase   = scenario.phases[i];
    PhaseResult& record = result.phases[i];
    record.name         = phase.name;
    record.kind         = phase.kind;
    for (const GroupClaim& claim : phase.claims)
      record.groups.push_back(claim.group);
    record.groups.insert(record.groups.end(), phase.uses.begin(), phase.uses.end());
    // Phases are created in file order, and `after` only names other phases, so a runner joins
    // runners that exist by the time it runs (all are created before the simulation starts).
    const std::string label = "phase '" + phase.name + "'";
    runners[i]              = start_actor(platform, first_host, "phase:" + phase.name, label, [&, i, label] {
      PhaseEntry& self = scenario.phases[i];
      set_phase_tag(static_cast<int>(i));  // its actors' waits are its own (sim/sg/wait_ledger.hpp)
      for (size_t dep : self.after)
        runners[dep].join();
      sleep_until(self.start_s);
      PhaseResult& out = result.phases[i];
      out.start_s      = now();
      XBT_VERB("phase '%s' starts", self.name.c_str());
      running += 1;
      const auto metrics_of = [&scenario](const std::string& name) {
        for (const PhaseEntry& other : scenario.phases)
          if (other.name == name)
            return other.model->metrics();
        return Metrics{};
      };
      PhaseRuntime runtime{platform,  *scenario.faults,
                           timer,     Rng::stream(scenario.seed, "phase." + self.name),
                           label,     [&running] { return running > 1; },
                           metrics_of};
      self.model->run(runtime);
      running -= 1;
      out.end_s = now();
      XBT_VERB("phase '%s' ends", self.name.c_str());
    });
  }
  engine.run();

  result.simulated_time_s = now();
  for (size_t i = 0; i < scenario.phases.size(); ++i) {
    result.phases[i].metrics          = scenario.phases[i].model->metrics();
    result.phases[i].tables           = scenario.phases[i].model->tables();
    result.phases[i].usage            = scenario.phases[i].model->usage();
    PhaseTime spent                   = scenario.phases[i].model->time_spent(phase_waits(static_cast<int>(i)));
    result.phases[i].waits            = std::move(spent.seconds);
    result.phases[i].waits_of         = std::move(spent.of);
    result.phases[i].turned_away      = phase_turned_away(static_cast<int>(i));
    result.phases[i].background_waits = phase_waits(background_tag(static_cast<int>(i)));
    result.phases[i].traffic          = phase_traffic(static_cast<int>(i));
  }
  for (Service* s : scenario.services->all()) {
    s->finish(result.simulated_time_s);
    result.services.push_back({s->name(), s->kind(), s->totals(), s->table(*scenario.platform)});
  }
  check_declared(result);
  result.accounting = account(finished_run(scenario, result));
  return result;
}

FinishedRun finished_run(const Scenario& scenario, const SimulationResult& result)
{
  return {*scenario.platform,      scenario.accounting, *scenario.services,
          result.simulated_time_s, result.phases,       result.services};
}

}  // namespace llsim
