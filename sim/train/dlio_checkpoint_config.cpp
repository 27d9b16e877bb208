#include "sim/train/dlio_checkpoint_config.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/foreign_yaml.hpp"
#include "sim/core/yaml_ref.hpp"

#include <memory>

namespace llsim {

namespace {

// A figure of the model's shape: required, a whole number of at least 1.
int64_t shape_figure(const std::optional<YamlRef>& section, const YamlRef& parent, const char* key)
{
  const auto ref = optional_key(section, key);
  if (!ref)
    parent.fail(std::string("expected ") + key + ": the model's shape has no default");
  return static_cast<int64_t>(foreign_number(*ref, 1, true));
}

// The datatypes DLIO's MLPerf configurations use, whose sizes llsim counts.
void check_datatype(const std::optional<YamlRef>& model, const char* key, std::initializer_list<const char*> known)
{
  const auto ref = optional_key(model, key);
  if (!ref)
    return;
  const std::string t = lower_text(*ref, "a datatype");
  for (const char* k : known)
    if (t == k)
      return;
  ref->fail("llsim sizes checkpoints of fp16 or bf16 weights with fp32 optimizer state (MLPerf Storage's "
            "configurations), not " +
            std::string(key) + " '" + t + "'");
}

}  // namespace

DlioCheckpointWorkload read_dlio_checkpoint_config(const std::string& file)
{
  auto source           = std::make_shared<SourceInfo>();
  source->file          = file;
  const YAML::Node tree = parse_yaml_file(file, *source, "DLIO workload keys (model, workflow, dataset, ...)");
  const YamlRef top(tree, "", source);
  const auto workflow = optional_section(top, "workflow", "DLIO's workflow keys");
  if (const auto flag = optional_key(workflow, "checkpoint"); !flag || !foreign_flag(*flag))
    (flag ? *flag : top)
        .fail("this workload does not checkpoint (workflow.checkpoint is not True): a "
              "dlio_checkpoint phase saves and loads checkpoints");
  if (const auto flag = optional_key(workflow, "train"); flag && foreign_flag(*flag))
    flag->fail("this workload trains (workflow.train is True): llsim runs DLIO's checkpoint-only workflow; a "
               "training run's reads are a dlio phase's");
  if (!top.node()["model"] || !top.node()["model"].IsMap())
    (top.node()["model"] ? top.child("model") : top)
        .fail("expected model: a mapping of the model's name, num_layers, parallelism and transformer shape");
  const YamlRef model_ref = top.child("model");
  const std::optional<YamlRef> model(model_ref);
  check_datatype(model, "model_datatype", {"fp16", "bf16"});
  check_datatype(model, "optimizer_datatype", {"fp32"});
  const auto transformer = optional_section(model_ref, "transformer", "DLIO's transformer keys");
  if (!transformer)
    model_ref.fail("expected model.transformer: vocab_size, hidden_size, ffn_hidden_size, num_attention_heads and "
                   "num_kv_heads");
  const auto parallelism = optional_section(model_ref, "parallelism", "DLIO's parallelism keys");
  const auto checkpoint  = optional_section(top, "checkpoint", "DLIO's checkpoint keys");
  if (const auto fsync = optional_key(checkpoint, "fsync"); fsync && !foreign_flag(*fsync))
    fsync->fail("llsim's storage writes through to its drives, as fsync: True asks; fsync: False (writes left in "
                "the page cache) is not modelled");

  DlioCheckpointWorkload w;
  w.name = model_ref.node()["name"] ? scalar_text(model_ref.child("name"), "the model's name") : std::string("dlio");
  w.shape.layers     = shape_figure(model, model_ref, "num_layers");
  w.shape.vocab      = shape_figure(transformer, *transformer, "vocab_size");
  w.shape.hidden     = shape_figure(transformer, *transformer, "hidden_size");
  w.shape.ffn_hidden = shape_figure(transformer, *transformer, "ffn_hidden_size");
  w.shape.heads      = shape_figure(transformer, *transformer, "num_attention_heads");
  w.shape.kv_heads   = shape_figure(transformer, *transformer, "num_kv_heads");
  w.tensor           = static_cast<int64_t>(foreign_number_of(parallelism, {"tensor"}, 1, true, 1));
  w.pipeline         = static_cast<int64_t>(foreign_number_of(parallelism, {"pipeline"}, 1, true, 1));
  w.zero_stage       = static_cast<int64_t>(foreign_number_of(parallelism, {"zero_stage"}, 0, true, 0));
  if (w.zero_stage > 3)
    optional_key(parallelism, "zero_stage")->fail("expected a ZeRO stage of 0, 1, 2 or 3");
  w.saves = static_cast<int64_t>(foreign_number_of(checkpoint, {"num_checkpoints_write"}, 0, true, 1));
  w.loads = static_cast<int64_t>(foreign_number_of(checkpoint, {"num_checkpoints_read"}, 0, true, 1));
  return w;
}

}  // namespace llsim
