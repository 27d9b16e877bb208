// Fault model `components`: a host fails when any of its components does. Each component has a
// class (what its failures count under: gpu, hbm, nic, switch, host, software, other), a count
// per host, an up time (`mtbf`: exponential of that mean, or `uptime`: any distribution) and a
// `repair` time; a unit with `shared_by: N` stands above N consecutive hosts (a leaf switch) and
// takes all of them down at once. Overlapping repairs of one host merge into one outage, caused
// by the unit that failed first (sim/faults/component_faults.hpp).
//   components: list, required, each
//     {class, name (default: the class), count: 1, shared_by: 1, mtbf | uptime, repair: 0s}
// Source of the classes and their weights: "The Llama 3 herd of models" (Dubey et al., 2024),
// Table 5: 419 unexpected interruptions of a 16,384-GPU job in 54 days, 148 of them a faulty
// GPU, 72 HBM3, 54 software, 35 a network switch or cable, 7 a NIC.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'faults=[{group: compute, impl: components, components: [{class: gpu, count: 8, mtbf: 2000h, repair: 2h}, {class: switch, shared_by: 4, mtbf: 500h, repair: 30min}]}]'
#include "sim/core/registry.hpp"
#include "sim/faults/component_faults.hpp"

#include <cmath>

namespace llsim {

namespace {

// Every fault class but maintenance, which is planned, not a component's failure.
std::vector<std::string> component_classes()
{
  std::vector<std::string> out;
  for (FaultClass c : kFaultClasses)
    if (c != FaultClass::Maintenance)
      out.emplace_back(fault_class_name(c));
  return out;
}

const ParamTable& component_params()
{
  static const ParamTable t = {
      ParamSpec::one_of("class", component_classes(), "what its failures count under"),
      ParamSpec::text("name", "the cause its failures are recorded as (default: the class)").may_be_absent(),
      ParamSpec::integer("count", "units of it per host (per shared_by hosts when shared)").defaults("1").at_least(1),
      ParamSpec::integer("shared_by", "consecutive hosts under one unit (a leaf switch): one failure takes all "
                                      "of them down")
          .defaults("1")
          .at_least(1),
      ParamSpec::quantity("mtbf", Dimension::Duration,
                          "mean up time of one unit, exponentially distributed (or "
                          "uptime)")
          .positive()
          .may_be_absent(),
      ParamSpec::distribution("uptime", Dimension::Duration,
                              "up time of one unit as a distribution of positive "
                              "mean (or mtbf)")
          .at_least(0)
          .may_be_absent(),
      ParamSpec::distribution("repair", Dimension::Duration,
                              "time to repair a failed unit; its host is down "
                              "meanwhile")
          .defaults("0s")
          .at_least(0),
  };
  return t;
}

const ParamTable kComponentsParams = {
    ParamSpec::list("components", "the host's components: [{class, name, count, shared_by, mtbf | uptime, repair}]")
        .with_fields(component_params()),
};

ComponentSpec parse_component(const Params& c)
{
  ComponentSpec spec;
  const std::string cls = c.text("class");
  spec.cause            = {c.has("name") ? c.text("name") : cls, *parse_fault_class(cls)};
  spec.count            = c.integer("count");
  spec.shared_by        = c.integer("shared_by");
  if (c.has("mtbf") == c.has("uptime"))
    c.ref().fail("give exactly one of 'mtbf' (exponential up times) or 'uptime' (a distribution)");
  spec.uptime = c.has("mtbf") ? exponential_distribution(c.quantity("mtbf")) : c.distribution("uptime");
  if (!(spec.uptime->mean() > 0))
    c.fail("uptime", "expected up times of a positive mean");
  spec.repair = c.distribution("repair");
  return spec;
}

class ComponentsModel : public FaultModel {
 public:
  ComponentsModel(const Params& p, const Context& c)
      : faults_(parse(p, c.group), c.key, static_cast<size_t>(c.group.count))
  {}

  Outage outage(size_t index, size_t k, double, Rng&) const override { return faults_.outage(index, k); }
  double mtbf_s(size_t) const override { return 1 / faults_.host_rate(); }
  double set_rate(size_t first, size_t count) const override { return faults_.set_rate(first, count); }
  std::vector<FaultCause> causes() const override { return faults_.causes(); }

 private:
  static std::vector<ComponentSpec> parse(const Params& p, const GroupSpec& group)
  {
    const YamlRef list = p.raw("components");
    if (!list.node().IsSequence() || list.node().size() == 0)
      list.fail("expected a non-empty list of {class, count, mtbf | uptime, repair, ...}");
    std::vector<ComponentSpec> specs;
    for (size_t i = 0; i < list.node().size(); ++i) {
      const Params item(list.item(i), component_params());
      specs.push_back(parse_component(item));
      if (specs.back().shared_by > group.count)
        item.fail("shared_by", "a unit over " + std::to_string(specs.back().shared_by) + " hosts, but group '" +
                                   group.name + "' has " + std::to_string(group.count));
    }
    return specs;
  }

  // HostFaults asks each host's outages in order, from one thread; the units' cursors advance.
  mutable ComponentFaults faults_;
};

}  // namespace

LLSIM_REGISTER(FaultModel, "components", ComponentsModel,
               "a host fails when any of its components (GPU, HBM, NIC, switch, ...) does; per-class repair times",
               kComponentsParams);

}  // namespace llsim
