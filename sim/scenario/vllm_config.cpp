#include "sim/scenario/vllm_config.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/foreign_yaml.hpp"
#include "sim/core/text.hpp"
#include "sim/scenario/hugging_face_names.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace llsim {

namespace {

// How an argument's value is written as its llsim key's.
enum class ValueKind {
  Count,  // a whole number >= 1
  Share,  // a number
  Flag,   // True or False
  Word,   // a word, in lower case (the llsim key checks it)
  GiB,    // a number of GiB (vLLM's unit for swap space)
};

struct ModelledArgument {
  const char* name;     // vLLM's, with dashes
  const char* section;  // the phase's section that models it
  const char* key;      // and its key there
  ValueKind kind;
};

// vLLM's arguments that map one to one onto a phase key (vllm/engine/arg_utils.py's names).
const std::vector<ModelledArgument>& one_to_one()
{
  static const std::vector<ModelledArgument> args = {
      {"max-num-seqs", "batching", "max_batch_size", ValueKind::Count},
      {"max-num-batched-tokens", "batching", "max_batch_tokens", ValueKind::Count},
      {"block-size", "batching", "block_size", ValueKind::Count},
      {"gpu-memory-utilization", "batching", "gpu_memory_utilization", ValueKind::Share},
      {"max-model-len", "batching", "max_model_len", ValueKind::Count},
      {"num-gpu-blocks-override", "batching", "kv_blocks", ValueKind::Count},
      {"long-prefill-token-threshold", "batching", "prefill_chunk", ValueKind::Count},
      {"preemption-mode", "batching", "preemption", ValueKind::Word},
      {"tensor-parallel-size", "system", "tp", ValueKind::Count},
      {"pipeline-parallel-size", "system", "pp", ValueKind::Count},
      {"enable-prefix-caching", "system", "prefix_caching", ValueKind::Flag},
      {"api-server-count", "api_server", "processes", ValueKind::Count},
      {"max-cudagraph-capture-size", "iteration", "cuda_graph_max_tokens", ValueKind::Count},
  };
  return args;
}

// Arguments of the API server that change no figure llsim computes.
const std::set<std::string>& without_effect()
{
  static const std::set<std::string> names = {"host",
                                              "port",
                                              "served-model-name",
                                              "api-key",
                                              "uvicorn-log-level",
                                              "disable-log-requests",
                                              "disable-log-stats",
                                              "trust-remote-code",
                                              "download-dir",
                                              "seed"};
  return names;
}

// The other arguments llsim reads, each with its own rule below.
const std::vector<std::string>& read_otherwise()
{
  static const std::vector<std::string> names = {"model",
                                                 "dtype",
                                                 "enable-chunked-prefill",
                                                 "swap-space",
                                                 "data-parallel-size",
                                                 "enable-expert-parallel",
                                                 "async-scheduling",
                                                 "enforce-eager",
                                                 "kv-cache-dtype",
                                                 "scheduling-policy"};
  return names;
}

// One serve phase's import.
class PhaseImport {
 public:
  PhaseImport(YAML::Node phase, std::string path, SourceInfo& source)
      : phase_(std::move(phase))
      , path_(std::move(path))
      , source_(source)
  {}

  void run(const YamlRef& config_key, const std::string& scenario_dir)
  {
    std::filesystem::path file = scalar_text(config_key, "a vLLM config file (YAML)");
    if (file.is_relative())
      file = std::filesystem::path(scenario_dir) / file;
    auto config_source  = std::make_shared<SourceInfo>();
    config_source->file = file.string();
    YAML::Node config;
    try {
      config = parse_yaml_file(file.string(), *config_source, "vLLM engine arguments (max-num-seqs: 128, ...)");
    } catch (const ConfigError& e) {
      config_key.fail(e.what());
    }
    const YamlRef top(config, "", config_source);
    // Errors name the scenario's line of the key, then the config's of the argument.
    const std::string scenario_place = config_key.location() + ": " + config_key.path() + ": ";
    try {
      for (const auto& entry : config) {
        const std::string written = entry.first.Scalar();
        const YamlRef value       = top.child(written);
        std::string name          = written;
        std::replace(name.begin(), name.end(), '_', '-');
        if (!names_seen_.insert(name).second)
          value.fail("vLLM argument '" + name + "' is given twice");
        argument(name, value, scenario_place + value.location() + ": " + written);
      }
      finish(scenario_place);
    } catch (const ConfigError& e) {
      throw ConfigError(scenario_place + e.what());
    }
  }

 private:
  void argument(const std::string& name, const YamlRef& value, const std::string& where)
  {
    for (const ModelledArgument& a : one_to_one())
      if (name == a.name) {
        if (std::string(a.section) == "system")
          require_vllm_system(name, value);
        if (std::string(a.section) == "iteration" && !operators())
          value.fail(name + " is modelled by the operators iteration model (iteration: {impl: operators})");
        if (name == "long-prefill-token-threshold" && foreign_number(value, 0, true) == 0)
          return;  // vLLM's default, no cap per prompt: finish() gives it
        if (name == "block-size")
          check_block_size(value);
        return set(a.section, a.key, converted(a.kind, value), value, where);
      }
    if (without_effect().count(name) > 0)
      return;
    if (name == "model")
      return model(value, where);
    if (name == "dtype")
      return dtype(value, where);
    if (name == "enable-chunked-prefill") {
      if (!foreign_flag(value))
        value.fail("false is not modelled: vLLM V1 then still mixes whole prompts with the decodes in one step, "
                   "which neither llsim scheduler does (v1 chunks prompts; v0, vLLM V0's, prefills them in steps "
                   "of their own: give batching.scheduler in the scenario for it)");
      return set("batching", "scheduler", "v1", value, where);
    }
    if (name == "swap-space") {
      swap_space_.emplace_back(converted(ValueKind::GiB, value), value, where);  // finish() decides
      return;
    }
    if (name == "enable-expert-parallel")
      return operators_flag(value, where, "expert_parallel", "true", "false", "expert parallelism");
    if (name == "async-scheduling")
      return operators_flag(value, where, "scheduling", "async", "serial", "async scheduling");
    if (name == "enforce-eager") {
      if (foreign_flag(value))
        value.fail("true is not modelled: an eager engine pays the CPU's launch of every kernel, which llsim does "
                   "not price (cuda_graphs: false only drops the graphs' padding)");
      return;  // vLLM's default: CUDA graphs, as the operators model's
    }
    if (name == "data-parallel-size") {  // 1, vLLM's default, is every system's; above, vllm's dp
      if (foreign_number(value, 1, true) == 1)
        return;
      require_vllm_system(name, value);
      return set("system", "dp", converted(ValueKind::Count, value), value, where);
    }
    if (name == "kv-cache-dtype" && lower_text(value, "a KV cache dtype") != "auto")
      value.fail("only auto is modelled (the KV in the model's dtype_bytes)");
    if (name == "scheduling-policy" && lower_text(value, "a scheduling policy") != "fcfs")
      value.fail("only fcfs is modelled (llsim's batches admit requests in arrival order)");
    if (name == "kv-cache-dtype" || name == "scheduling-policy")
      return;
    std::vector<std::string> known;
    for (const ModelledArgument& a : one_to_one())
      known.emplace_back(a.name);
    known.insert(known.end(), read_otherwise().begin(), read_otherwise().end());
    known.insert(known.end(), without_effect().begin(), without_effect().end());
    value.fail("vLLM argument '" + name + "' is not modelled by llsim (it reads " + join(known, ", ") + ")");
  }

  // What depends on the whole config: swap space, which only preemption by swap uses (V1 has none
  // and vLLM V0 reserves it whatever the mode), and vLLM V1's defaults for the arguments the
  // config leaves out where llsim's differ: one GPU per instance, prefix caching on, and no cap on
  // a prompt's chunk but the batch's token budget.
  void finish(const std::string& scenario_place)
  {
    const auto text = [this](const char* section, const char* key, const char* absent) {
      const std::string written = phase_text(section, key);
      return written.empty() ? std::string(absent) : written;
    };
    for (const auto& [gib, value, where] : swap_space_)
      if (text("batching", "preemption", "recompute") == "swap")
        set("batching", "swap_space", gib, value, where);
    const std::string by_default = scenario_place + "vLLM's default for ";
    if (text("system", "impl", "") == "vllm") {
      if (names_seen_.count("tensor-parallel-size") == 0)
        default_to("system", "tp", "1", by_default + "tensor-parallel-size");
      if (names_seen_.count("enable-prefix-caching") == 0)
        default_to("system", "prefix_caching", "true", by_default + "enable-prefix-caching");
    }
    if (text("batching", "scheduler", "v1") == "v1")
      default_to("batching", "prefill_chunk", text("batching", "max_batch_tokens", "8192"),
                 by_default + "long-prefill-token-threshold (0: the batch's token budget)");
  }

  // phase.section.key = text where neither the scenario nor a --set gives it.
  void default_to(const std::string& section, const std::string& key, const std::string& text, const std::string& where)
  {
    YAML::Node s = phase_[section];
    if (s && s.IsMap() && s[key])
      return;
    const std::string section_path = path_ + "." + section;
    if (!s || s.IsNull())
      phase_[section] = YAML::Node(YAML::NodeType::Map);
    else if (!s.IsMap())
      return;  // the phase's own check says what it expected
    phase_[section][key]                        = text;
    source_.overrides[section_path + "." + key] = where;
  }

  // vLLM's KV block sizes on GPUs (vllm/config: BlockSize).
  static void check_block_size(const YamlRef& value)
  {
    const double b = foreign_number(value, 1, true);
    if (b != 1 && b != 8 && b != 16 && b != 32 && b != 64 && b != 128)
      value.fail("vLLM takes a block size of 1, 8, 16, 32, 64 or 128 tokens");
  }

  // The phase's `section.key` where it is a scalar; empty where the section or the key is absent.
  std::string phase_text(const char* section, const char* key) const
  {
    const YAML::Node& phase = phase_;
    const YAML::Node s      = phase[section];
    if (!s || !s.IsMap())
      return "";
    const YAML::Node n = s[key];
    return n && n.IsScalar() ? n.Scalar() : "";
  }

  bool operators() const { return phase_text("iteration", "impl") == "operators"; }

  // A flag of the operators model (`key`: `on` when true, `off` when false, `what` modelled there);
  // false, vLLM's default, needs no operators model.
  void operators_flag(const YamlRef& value, const std::string& where, const char* key, const char* on, const char* off,
                      const std::string& what)
  {
    if (foreign_flag(value) && !operators())
      value.fail(what + " is modelled by the operators iteration model (iteration: {impl: operators})");
    if (operators())
      set("iteration", key, foreign_flag(value) ? on : off, value, where);
  }

  static std::string converted(ValueKind kind, const YamlRef& value)
  {
    switch (kind) {
    case ValueKind::Count:
      return std::to_string(static_cast<long long>(foreign_number(value, 1, true)));
    case ValueKind::Share:
      foreign_number(value, 0, false);
      return scalar_text(value, "a number");
    case ValueKind::Flag:
      return foreign_flag(value) ? "true" : "false";
    case ValueKind::Word:
      return lower_text(value, "a word");
    case ValueKind::GiB:
      foreign_number(value, 0, false);
      return scalar_text(value, "a number of GiB") + "GiB";
    }
    return "";
  }

  void require_vllm_system(const std::string& name, const YamlRef& value) const
  {
    const std::string system = phase_text("system", "impl");
    if (system != "vllm")
      value.fail(name + " applies to system vllm; this phase's system is '" + system +
                 "', whose instances' GPUs are its own keys");
  }

  // The served model: the phase's preset when it names one, else the phase takes it.
  void model(const YamlRef& value, const std::string& where)
  {
    const std::string name   = scalar_text(value, "a model name");
    const std::string preset = preset_of_hugging_face_name(name);
    if (preset.empty())
      value.fail("'" + name +
                 "' is no model of llsim's catalogue (llsim models lists them; the Hugging Face "
                 "names of their releases, and their chat and instruct variants, are taken)");
    const YAML::Node given = phase_["model"];
    if (!given || given.IsNull())
      return set("model", "preset", preset, value, where);
    const YAML::Node own = given["preset"];
    if (!own)
      value.fail("'" + name + "' is the catalogue's " + preset +
                 ", but the phase gives its model by its shape: give the model in one place");
    if (own.IsScalar() && own.Scalar() != preset)
      value.fail("'" + name + "' is the catalogue's " + preset + ", but the phase serves " + own.Scalar() +
                 " (model.preset): give the same model in both, or drop one");
  }

  void dtype(const YamlRef& value, const std::string& where)
  {
    const std::string d = lower_text(value, "a dtype");
    if (d == "auto")
      return;
    if (d != "half" && d != "float16" && d != "bfloat16" && d != "float" && d != "float32")
      value.fail("expected auto, half, float16, bfloat16, float or float32, got '" + d + "'");
    set("model", "dtype_bytes", d == "float" || d == "float32" ? "4" : "2", value, where);
  }

  // phase.section.key = text, unless a --set gave that key (the command line wins); an error where
  // the scenario file gives it.
  void set(const std::string& section, const std::string& key, const std::string& text, const YamlRef& value,
           const std::string& where)
  {
    const std::string section_path = path_ + "." + section;
    const std::string key_path     = section_path + "." + key;
    YAML::Node s                   = phase_[section];
    if (s && s.IsMap() && s[key])
      for (const auto& [set_path, argument] : source_.overrides)
        if (path_within(key_path, set_path))
          return;
    if (s && !s.IsNull() && !s.IsMap())
      value.fail("sets " + key_path + ", but the phase's " + section + " is not a mapping");
    if (s && !s.Mark().is_null() && source_.shared.count(s.Mark().pos) > 0)
      value.fail("sets " + key_path + ", but the scenario's " + section_path +
                 " is used through YAML aliases: write it out in this phase");
    if (s && s.IsMap() && s[key])
      value.fail("sets " + key_path + ", which the scenario gives (" + source_.file + ":" +
                 std::to_string(s[key].Mark().line + 1) + "): give it in one place");
    if (!s || s.IsNull()) {
      phase_[section]                 = YAML::Node(YAML::NodeType::Map);
      source_.overrides[section_path] = where;
    }
    phase_[section][key]        = text;
    source_.overrides[key_path] = where;
  }

  YAML::Node phase_;
  std::string path_;  // "phases[i]"
  SourceInfo& source_;
  std::set<std::string> names_seen_;
  std::vector<std::tuple<std::string, YamlRef, std::string>> swap_space_;  // GiB, the value, where
};

}  // namespace

void import_vllm_configs(YAML::Node root, SourceInfo& source)
{
  YAML::Node phases = root["phases"];
  if (!phases || !phases.IsSequence())
    return;  // the loader says what it expected
  const std::string scenario_dir = std::filesystem::path(source.file).parent_path().string();
  const auto shared_source       = std::make_shared<SourceInfo>(source);
  for (size_t i = 0; i < phases.size(); ++i) {
    YAML::Node phase = phases[i];
    if (!phase.IsMap() || !phase["vllm_config"] || !phase["kind"] || !phase["kind"].IsScalar() ||
        phase["kind"].Scalar() != "serve")
      continue;  // another kind refuses the key as unknown
    const std::string path = "phases[" + std::to_string(i) + "]";
    const YamlRef key(phase["vllm_config"], path + ".vllm_config", shared_source);
    PhaseImport(phase, path, source).run(key, scenario_dir);
    phase.remove("vllm_config");
  }
}

}  // namespace llsim
