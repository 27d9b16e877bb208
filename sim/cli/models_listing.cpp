#include "sim/cli/models_listing.hpp"

#include "sim/cli/metrics_listing.hpp"
#include "sim/core/distribution.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/faults/host_faults.hpp"
#include "sim/platform/platform_spec.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serve/cost/llm_model.hpp"
#include "sim/svc/service.hpp"

#include <algorithm>
#include <sstream>

namespace llsim {

namespace {

std::string default_or_required(const ParamSpec& p)
{
  if (p.default_text)
    return "default: " + *p.default_text;
  return p.optional ? "optional" : "required";
}

// "one of: a, b" for a key that names an implementation, read from the registry.
std::string choices_text(const ParamSpec& p)
{
  if (!p.words.empty())
    return "one of: " + join(p.words, ", ");
  if (p.choices == nullptr)
    return "";
  return (p.selector.empty() ? "" : "'" + p.selector + ":' ") + "one of: " + join(p.choices(), ", ");
}

// One catalogue, written as indented text (`llsim models`) or as Markdown (`--markdown`,
// docs/models.md): the same sections in the same order.
class Listing {
 public:
  explicit Listing(bool markdown)
      : markdown_(markdown)
  {}

  void heading(int level, const std::string& text)
  {
    if (markdown_)
      out_ << (out_.tellp() > 0 ? "\n" : "") << std::string(static_cast<size_t>(level), '#') << " "
           << markdown_cell(text) << "\n";
    else if (level <= 2)
      out_ << (out_.tellp() > 0 ? "\n" : "") << text << ":\n";
    else
      out_ << "  " << text << "\n";
  }

  // A paragraph (Markdown: after a blank line) or, with `item`, an entry of a list.
  void line(const std::string& text, bool item = false)
  {
    if (markdown_)
      out_ << (item ? "- " : out_.tellp() > 0 ? "\n" : "") << text << "\n";
    else
      out_ << "  " << text << "\n";
  }

  void params(const ParamTable& table, const std::string& indent)
  {
    if (table.empty())
      return;
    if (markdown_)
      out_ << "\n| key | type | default | range | description |\n|---|---|---|---|---|\n";
    rows(table, indent, "");
  }

  void metrics(const std::string& family, const std::string& name)
  {
    const std::string listing = metrics_listing(family, name, markdown_);
    out_ << (markdown_ && !listing.empty() ? "\n" : "") << listing;
  }

  std::string text() const { return out_.str(); }

 private:
  void rows(const ParamTable& table, const std::string& indent, const std::string& prefix)
  {
    for (const auto& p : table) {
      const std::string choices = choices_text(p);
      if (markdown_) {
        const std::string description = p.description + (choices.empty() ? "" : " (" + choices + ")");
        out_ << "| `" << prefix << p.name << "` | " << p.type_name() << " | "
             << markdown_cell(p.default_text ? "`" + *p.default_text + "`"
                              : p.optional   ? "optional"
                                             : "required")
             << " | " << markdown_cell(p.range_text()) << " | " << markdown_cell(description) << " |\n";
      } else {
        out_ << indent << prefix << p.name << "  (" << p.type_name() << ")  " << default_or_required(p);
        if (!p.range_text().empty())
          out_ << "  range: " << p.range_text();
        out_ << "\n" << indent << "    " << p.description << "\n";
        if (!choices.empty())
          out_ << indent << "    " << choices << "\n";
      }
      if (p.fields != nullptr)
        rows(*p.fields, markdown_ ? indent : indent + "  ", prefix + p.name + ".");
    }
  }

  bool markdown_;
  std::ostringstream out_;
};

// The folder the implementations of one interface live in ("" when they are elsewhere).
std::string models_folder(const std::vector<ModelInfo>& models)
{
  std::string folder;
  for (const auto& m : models) {
    const std::string dir = m.source.substr(0, m.source.rfind('/') + 1);
    if (!folder.empty() && dir != folder)
      return "";
    folder = dir;
  }
  return folder;
}

void list_interfaces(Listing& out, bool markdown)
{
  auto interfaces = RegistryCatalog::interfaces();
  std::sort(interfaces.begin(), interfaces.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  for (const auto& interface : interfaces) {
    const auto models       = interface.models();
    const std::string where = models_folder(models);
    out.heading(2, markdown ? "Interface `" + interface.name + "`" : "Interface '" + interface.name + "'");
    out.line("choose with '" + interface.selector + ":'; contract: " + interface.header +
             (where.empty() ? "" : "; implementations: " + where));
    for (const auto& model : models) {
      out.heading(3, markdown ? "`" + model.name + "`" : model.name + ": " + model.description);
      out.line(markdown ? model.description + " (" + model.source + ")" : "    " + model.source);
      out.params(*model.params, "      ");
      out.metrics(interface.name, model.name);
    }
  }
}

std::string model_figures(const LlmModel& m)
{
  const auto n     = [](int64_t v) { return std::to_string(v); };
  std::string text = m.name + ": " + format_number(m.params / 1e9) + " G parameters, " + n(m.layers) +
                     " layers, d_model " + n(m.d_model) + ", " + n(m.heads) + " query heads, " + n(m.kv_heads) +
                     " KV heads x " + n(m.head_dim) + " (" + attention_name(m.attention());
  if (m.attention() == Attention::Mla)
    text += ": latent " + n(m.kv_lora_rank) + " + RoPE key " + n(m.rope_head_dim);
  text += "), MLP " + n(m.ffn) + (m.gated_mlp ? " gated" : "") + ", vocab " + n(m.vocab);
  if (m.moe())
    text += ", " + n(m.experts) + " experts of " + n(m.expert_ffn) + " (" + n(m.experts_per_token) + " per token, " +
            n(m.shared_experts) + " shared" +
            (m.dense_layers > 0 ? ", first " + n(m.dense_layers) + " layers dense" : "") + ") -> " +
            format_number(m.active_params() / 1e9) + " G active";
  return text + "; " + format_number(m.dtype_B) + " B per value -> " + format_number(m.kv_B_per_token) +
         " B of KV per token";
}

// One line per entry of a hardware catalogue (GPUs, drives): its name, what it is and its figures.
template <class Preset>
void list_catalogue(Listing& out, const std::vector<Preset>& presets)
{
  for (const Preset& p : presets) {
    std::vector<std::string> figures;
    for (const auto& [key, value] : p.figures)
      figures.push_back(key + " " + value);
    out.line(p.name + " (" + p.description + "): " + join(figures, ", "), true);
  }
}

void list_presets(Listing& out)
{
  out.heading(2, "Served models (serve phase 'model: {preset: NAME}'), with the KV bytes one token holds");
  out.line("Sources: the config.json of each release and its model card (sim/serve/cost/llm_presets.cpp).");
  for (const auto& m : llm_presets())
    out.line(model_figures(m), true);
  out.heading(2, "GPUs (platform 'gpu: {preset: NAME, count: N}'; any key beside preset overrides its figure)");
  out.line("Sources: the vendors' datasheets, each figure's named in sim/platform/gpu_presets.cpp; peaks are dense; "
           "interconnect_bandwidth is each direction; PCIe bandwidth follows from pcie_gen x pcie_lanes.");
  list_catalogue(out, gpu_presets());
  out.heading(2, "Drives (platform 'disks: {preset: NAME, count: N}'; any key beside preset overrides its figure)");
  out.line("Sources: the vendors' published specifications as reports quote them, each named in "
           "sim/platform/disk_presets.cpp; bandwidths are "
           "sequential 128 KiB transfers, IOPS random 4 KiB ones.");
  list_catalogue(out, disk_presets());
}

}  // namespace

std::string models_listing(bool markdown)
{
  Listing out(markdown);
  if (markdown)
    out.line("# Models and parameters\n\nGenerated by `llsim models --markdown`; do not edit by hand "
             "(tests/llsim/test_models_reference.py checks that this file equals its output).");
  out.heading(2, "Scenario top level");
  out.params(scenario_params(), "  ");
  out.heading(2, "platform");
  out.params(platform_params(), "  ");
  out.heading(2, "platform.groups.<name>");
  out.params(group_params(), "  ");
  out.heading(2, "Every phase (besides its kind's own keys)");
  out.params(phase_common_params(), "  ");
  out.heading(2, "Every service, services.<name> (besides its kind's own keys)");
  out.params(Service::common_params(), "  ");
  out.heading(2, "Every entry of faults (besides its fault model's own keys)");
  out.params(HostFaults::entry_params(), "  ");
  list_interfaces(out, markdown);
  list_presets(out);

  out.heading(2, "Distributions (wherever a parameter says 'or distribution'; values take that parameter's unit, "
                 "shown here with a duration as example)");
  for (const auto& kind : distribution_kinds(Dimension::Duration)) {
    out.heading(3, kind.name + ": " + kind.description);
    out.params(kind.params, "      ");
  }
  out.heading(2, "Units");
  out.line("sizes B KB MB GB TB PB (base 10) KiB MiB GiB TiB PiB (base 2); bandwidths Bps MBps GBps GiBps ... and "
           "bps Mbps Gbps Tbps (bits); durations ns us ms s min h d y; rates /s /min /h; compute Flops GFlops TFlops "
           "PFlops; counts 64, 10k, 10M, 10G.");
  return out.text();
}

}  // namespace llsim
