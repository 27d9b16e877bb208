#include "sim/scenario/scenario.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/stable_hash.hpp"
#include "sim/core/text.hpp"
#include "sim/scenario/overrides.hpp"
#include "sim/scenario/phase_graph.hpp"
#include "sim/scenario/vllm_config.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace llsim {

namespace {

constexpr size_t kMaxPhases = 1000;  // each phase is a few actors and output files

}  // namespace

const ParamTable& scenario_params()
{
  static const ParamTable t = {
      ParamSpec::text("name", "scenario name (default: the file name); names the output directory").may_be_absent(),
      ParamSpec::integer("seed", "seed of every random draw").defaults("1").at_least(0),
      ParamSpec::section("platform", "host groups and the network joining them"),
      ParamSpec::list("faults", "host fault models, one entry per group: {group, impl, ...}").defaults("[]"),
      ParamSpec::mapping("services", "shared services by name: {kind, servers, ...}").defaults("{}"),
      ParamSpec::list("phases", "the phases to simulate"),
      ParamSpec::section("accounting", "{currency, pue, per_kWh}: how cost and energy are added up")
          .defaults("{}")
          .with_fields(accounting_params()),
  };
  return t;
}

const ParamTable& phase_common_params()
{
  static const ParamTable t = {
      ParamSpec::text("name", "phase name, unique; names its outputs and its metrics"),
      ParamSpec::text_list("after", "phases that must end before this one starts").defaults("[]"),
      ParamSpec::quantity("start", Dimension::Duration, "earliest start, from the beginning of the simulation")
          .defaults("0s")
          .at_least(0),
      ParamSpec::flag("enabled", "false: the phase is checked but not run (a what-if switch for --set and sweeps); "
                                 "no running phase may wait for it")
          .defaults("true"),
  };
  return t;
}

std::string scenario_text_hash(const std::string& file)
{
  std::ifstream in(file, std::ios::binary);
  if (!in)
    return "";
  std::ostringstream text;
  text << in.rdbuf();
  char hex[32];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(text.str())));
  return hex;
}

namespace {

// The scenario's phases: every one loaded and checked, the enabled ones kept with their
// dependencies (`after`) resolved to indices; the graph acyclic and no group claimed twice.
void load_phases(const YamlRef& phases, Scenario& s)
{
  if (!phases.node().IsSequence() || phases.node().size() == 0)
    phases.fail("expected a non-empty list of phases, e.g. - {name: stage, kind: transfer, ...}");
  if (phases.node().size() > kMaxPhases)
    phases.fail("more than " + std::to_string(kMaxPhases) + " phases, llsim's limit");
  // Every phase is loaded and checked, enabled or not, so that switching one on with --set cannot
  // reveal an error; only the enabled ones are kept.
  std::map<std::string, size_t> index_of;
  std::set<std::string> disabled;
  std::vector<std::vector<std::string>> after_names;
  std::vector<YamlRef> after_refs;
  for (size_t i = 0; i < phases.node().size(); ++i) {
    const YamlRef item                  = phases.item(i);
    const Registry<Phase>::Entry& entry = Registry<Phase>::lookup(item);
    const ParamTable table              = Registry<Phase>::table_for(entry, phase_common_params());
    const Params p(item, table);
    PhaseEntry phase;
    phase.name = p.text("name");
    phase.kind = p.text("kind");
    if (phase.name.empty() || phase.name.find_first_of("/. ") != std::string::npos)
      p.fail("name", "expected a non-empty name without '/', '.' or spaces");
    if (phase.name == "run" || phase.name == "services")
      p.fail("name", "'" + phase.name + "' is reserved: sweeps and plans name run.<metric> and services.<metric>");
    if (index_of.count(phase.name) || disabled.count(phase.name))
      p.fail("name", "two phases are named '" + phase.name + "'");
    std::vector<std::string> after = p.text_list("after");
    phase.start_s                  = p.quantity("start");
    const bool enabled             = p.flag("enabled");  // a disabled phase has nothing to tell
    phase.model = entry.make(p, PhaseLoadContext{*s.platform, phase.name, s.seed, *s.services, after, phase.claims,
                                                 phase.uses, enabled ? &s.notes : nullptr});
    if (!enabled) {
      disabled.insert(phase.name);
      continue;
    }
    index_of.emplace(phase.name, s.phases.size());
    after_names.push_back(std::move(after));
    after_refs.push_back(item.child("after"));
    s.phases.push_back(std::move(phase));
  }
  if (s.phases.empty())
    phases.fail("every phase has 'enabled: false'; at least one must run");
  for (const PhaseEntry& phase : s.phases)
    phase.model->check_with_others();
  for (size_t i = 0; i < s.phases.size(); ++i)
    for (const auto& dep : after_names[i]) {
      const YamlRef& after = after_refs[i];
      if (disabled.count(dep))
        after.fail("phase '" + dep + "' has 'enabled: false', so '" + s.phases[i].name +
                   "' would wait for a phase that never runs; disable it too or drop the dependency");
      const auto it = index_of.find(dep);
      if (it == index_of.end()) {
        std::vector<std::string> names;
        for (const auto& [n, _] : index_of)
          names.push_back(n);
        after.fail("no phase named '" + dep + "': " + suggestion(dep, names));
      }
      if (it->second == i)
        after.fail("phase '" + dep + "' cannot wait for itself");
      s.phases[i].after.push_back(it->second);
    }
  check_acyclic(s.phases, after_refs);
  check_group_claims(s.phases);
}

}  // namespace

void merge_notes(std::vector<std::string>& into, const std::vector<std::string>& from)
{
  for (const std::string& note : from)
    if (std::find(into.begin(), into.end(), note) == into.end())
      into.push_back(note);
}

Scenario load_scenario(const std::string& file, const LoadOptions& options)
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = file;
  Scenario s;
  s.file      = file;
  s.text_hash = scenario_text_hash(file);
  s.tree      = parse_yaml_file(file, *source);
  for (const auto& argument : options.overrides)
    apply_override(s.tree, argument, *source);
  if (options.seed) {
    s.tree["seed"]            = *options.seed;
    source->overrides["seed"] = "--seed " + std::to_string(*options.seed);
  }
  import_vllm_configs(s.tree, *source);

  const Params top(YamlRef(s.tree, "", source), scenario_params());
  s.name = top.has("name") ? top.text("name") : std::filesystem::path(file).stem().string();
  if (s.name.empty() || s.name.find('/') != std::string::npos)
    top.fail("name", "expected a non-empty name without '/'");
  s.tree["name"] = s.name;
  s.seed         = static_cast<uint64_t>(top.integer("seed"));
  s.platform     = std::make_unique<PlatformSpec>(parse_platform(top.section("platform", platform_params())));
  s.faults       = std::make_unique<HostFaults>(*s.platform, s.seed);
  s.faults->load(top.raw("faults"));
  s.services = std::make_unique<ServiceDirectory>(*s.platform, s.seed);
  s.services->load(top.raw("services"));
  s.accounting = parse_accounting(top.section("accounting", accounting_params()), *s.platform);

  load_phases(top.raw("phases"), s);
  return s;
}

}  // namespace llsim
