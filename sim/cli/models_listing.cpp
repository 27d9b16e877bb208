#include "sim/cli/models_listing.hpp"

#include "sim/core/distribution.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/platform/platform_spec.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serve/llm_model.hpp"
#include "sim/svc/host_faults.hpp"
#include "sim/svc/service.hpp"

#include <algorithm>
#include <sstream>

namespace llsim {

namespace {

void list_params(std::ostringstream& out, const ParamTable& table, const std::string& indent,
                 const std::string& prefix = "")
{
  for (const auto& p : table) {
    out << indent << prefix << p.name << "  (" << p.type_name() << ")";
    if (p.default_text)
      out << "  default: " << *p.default_text;
    else if (p.optional)
      out << "  optional";
    else
      out << "  required";
    if (!p.range_text().empty())
      out << "  range: " << p.range_text();
    out << "\n" << indent << "    " << p.description << "\n";
    if (p.fields != nullptr)
      list_params(out, *p.fields, indent + "  ", prefix + p.name + ".");
  }
}

}  // namespace

std::string models_listing()
{
  std::ostringstream out;
  out << "Scenario top level:\n";
  list_params(out, scenario_params(), "  ");
  out << "\nplatform:\n";
  list_params(out, platform_params(), "  ");
  out << "\nplatform.groups.<name>:\n";
  list_params(out, group_params(), "  ");
  out << "\nEvery phase (besides its kind's own keys):\n";
  list_params(out, phase_common_params(), "  ");
  out << "\nEvery service, services.<name> (besides its kind's own keys):\n";
  list_params(out, Service::common_params(), "  ");
  out << "\nEvery entry of faults (besides its fault model's own keys):\n";
  list_params(out, HostFaults::entry_params(), "  ");

  auto interfaces = RegistryCatalog::interfaces();
  std::sort(interfaces.begin(), interfaces.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  for (const auto& interface : interfaces) {
    out << "\nInterface '" << interface.name << "' (choose with '" << interface.selector << ":'):\n";
    for (const auto& model : interface.models()) {
      out << "  " << model.name << ": " << model.description << "\n";
      list_params(out, *model.params, "      ");
    }
  }

  out << "\nServed models (serve phase 'model: {preset: NAME}'), with the KV bytes one token holds:\n";
  for (const auto& m : llm_presets())
    out << "  " << m.name << ": " << format_number(m.params / 1e9) << " G parameters, " << m.layers << " layers, d_model "
        << m.d_model << ", " << m.kv_heads << " KV heads x " << m.head_dim << ", " << format_number(m.dtype_bytes)
        << " B per value -> " << format_number(m.kv_bytes_per_token) << " B of KV per token\n";

  out << "\nDistributions (wherever a parameter says 'or distribution'; values take that parameter's unit,\n"
         "shown here with a duration as example):\n";
  for (const auto& kind : distribution_kinds(Dimension::Duration)) {
    out << "  " << kind.name << ": " << kind.description << "\n";
    list_params(out, kind.params, "      ");
  }
  out << "\nUnits: sizes B KB MB GB TB PB (base 10) KiB MiB GiB TiB PiB (base 2); bandwidths Bps MBps GBps\n"
         "GiBps ... and bps Mbps Gbps Tbps (bits); durations ns us ms s min h d y; rates /s /min /h;\n"
         "compute Flops GFlops TFlops PFlops; counts 64, 10k, 10M, 10G.\n";
  return out.str();
}

}  // namespace llsim
