#include "sim/train/dlio_checkpoint_workload.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/train/dlio_checkpoint_config.hpp"

namespace llsim {

namespace {

constexpr double kWeightB                 = 2;          // fp16 weights (DLIO's model_datatype)
constexpr double kOptimizerB              = 3 * 4;      // three fp32 optimizer groups (optimizer_datatype)
constexpr double kBookkeepingB_per_hidden = 3 * 5 * 4;  // per rank: three groups of 5 x hidden fp32

// The largest figures llsim takes: beyond them a count overflows or the run holds up without end.
// A preset's or a config's figures are held to them as the keys' are.
constexpr int64_t kMostLayers      = 100000;
constexpr int64_t kMostHidden      = 10000000;
constexpr int64_t kMostFfnHidden   = 100000000;
constexpr int64_t kMostVocab       = 100000000;
constexpr int64_t kMostHeads       = 10000000;
constexpr int64_t kMostParallel    = 1000000;
constexpr int64_t kMostZeroStage   = 3;
constexpr int64_t kMostCheckpoints = 1000;

DlioCheckpointWorkload preset(std::string name, TransformerShape shape, int64_t tensor, int64_t pipeline,
                              int64_t zero_stage)
{
  DlioCheckpointWorkload w;
  w.name       = std::move(name);
  w.shape      = shape;
  w.tensor     = tensor;
  w.pipeline   = pipeline;
  w.zero_stage = zero_stage;
  return w;
}

}  // namespace

double dlio_parameter_count(const TransformerShape& s)
{
  const auto h        = static_cast<double>(s.hidden);
  const double kv_dim = static_cast<double>(s.kv_heads * (s.hidden / s.heads));
  const double layer  = 2 * h + 2 * h * h + 2 * h * kv_dim + 3 * h * static_cast<double>(s.ffn_hidden);
  return 2 * static_cast<double>(s.vocab) * h + static_cast<double>(s.layers) * layer + h;
}

ModelState dlio_model_state(const DlioCheckpointWorkload& w, int64_t ranks)
{
  static const Sharding kByStage[] = {Sharding::None, Sharding::Zero1, Sharding::Zero2, Sharding::Zero3};
  ModelState m;
  m.params = dlio_parameter_count(w.shape);
  // The bookkeeping is per rank, so its share per parameter depends on the rank count.
  const double bookkeeping = kBookkeepingB_per_hidden * static_cast<double>(w.shape.hidden * ranks) / m.params;
  m.B_per_param            = kWeightB + kOptimizerB + bookkeeping;
  m.weight_B_per_param     = kWeightB;
  m.sharding               = kByStage[w.zero_stage];
  return m;
}

// MLPerf Storage's checkpointing configurations (mlcommons/storage, configs/dlio/workload/
// llama3_<size>.yaml): the shapes as given there (the 70B's 128 heads and the 1T's 192 heads
// and 32 KV heads included, which set the K and V widths), and the parallelism and ZeRO stage
// of the README's table; the data-parallel degree is what the ranks leave over.
const std::vector<DlioCheckpointWorkload>& dlio_checkpoint_presets()
{
  static const std::vector<DlioCheckpointWorkload> presets = {
      preset("llama3-8b", {32, 4096, 14336, 128256, 32, 8}, 1, 1, 3),
      preset("llama3-70b", {80, 8192, 28672, 128256, 128, 8}, 8, 1, 3),
      preset("llama3-405b", {126, 16384, 53248, 128256, 128, 8}, 8, 32, 1),
      preset("llama3-1t", {128, 25872, 98304, 128256, 192, 32}, 8, 64, 1),
  };
  return presets;
}

const ParamTable& dlio_checkpoint_workload_params()
{
  static const ParamTable t = {
      ParamSpec::text("workload", "MLPerf Storage's checkpoint workload: llama3-8b, llama3-70b, llama3-405b or "
                                  "llama3-1t (docs/phases/dlio_checkpoint.md; the keys below override its figures)")
          .may_be_absent(),
      ParamSpec::text("config", "instead of workload: a DLIO checkpoint workload YAML as MLPerf Storage writes it "
                                "(relative to the scenario; the keys below override its figures)")
          .may_be_absent(),
      ParamSpec::integer("num_layers", "transformer layers").may_be_absent().at_least(1).at_most(kMostLayers),
      ParamSpec::integer("hidden_size", "hidden width").may_be_absent().at_least(1).at_most(kMostHidden),
      ParamSpec::integer("ffn_hidden_size", "width of the gated MLP")
          .may_be_absent()
          .at_least(1)
          .at_most(kMostFfnHidden),
      ParamSpec::integer("vocab_size", "tokens of the vocabulary").may_be_absent().at_least(1).at_most(kMostVocab),
      ParamSpec::integer("num_attention_heads", "attention heads").may_be_absent().at_least(1).at_most(kMostHeads),
      ParamSpec::integer("num_kv_heads", "key and value heads").may_be_absent().at_least(1).at_most(kMostHeads),
      ParamSpec::integer("tensor", "tensor-parallel degree").may_be_absent().at_least(1).at_most(kMostParallel),
      ParamSpec::integer("pipeline", "pipeline-parallel degree").may_be_absent().at_least(1).at_most(kMostParallel),
      ParamSpec::integer("zero_stage", "ZeRO stage: 0, 1, 2 or 3 (who writes which part of the state)")
          .may_be_absent()
          .at_least(0)
          .at_most(kMostZeroStage),
      ParamSpec::integer("saves", "checkpoints written one after another (DLIO's num_checkpoints_write; absent: "
                                  "the config's, else 1)")
          .may_be_absent()
          .at_least(0)
          .at_most(kMostCheckpoints),
      ParamSpec::integer("loads", "checkpoints read back after the saves (num_checkpoints_read; absent: the "
                                  "config's, else 1)")
          .may_be_absent()
          .at_least(0)
          .at_most(kMostCheckpoints),
  };
  return t;
}

namespace {

// A key that overrides a figure of the preset or config, the figure it sets, and its limit.
struct KeyedFigure {
  const char* key;
  int64_t* figure;
  int64_t most;
};

std::vector<KeyedFigure> keyed_figures(DlioCheckpointWorkload& w)
{
  return {{"num_layers", &w.shape.layers, kMostLayers},
          {"hidden_size", &w.shape.hidden, kMostHidden},
          {"ffn_hidden_size", &w.shape.ffn_hidden, kMostFfnHidden},
          {"vocab_size", &w.shape.vocab, kMostVocab},
          {"num_attention_heads", &w.shape.heads, kMostHeads},
          {"num_kv_heads", &w.shape.kv_heads, kMostHeads},
          {"tensor", &w.tensor, kMostParallel},
          {"pipeline", &w.pipeline, kMostParallel},
          {"zero_stage", &w.zero_stage, kMostZeroStage},
          {"saves", &w.saves, kMostCheckpoints},
          {"loads", &w.loads, kMostCheckpoints}};
}

DlioCheckpointWorkload named_preset(const Params& p)
{
  const std::string name = p.text("workload");
  std::vector<std::string> names;
  for (const DlioCheckpointWorkload& w : dlio_checkpoint_presets()) {
    if (w.name == name)
      return w;
    names.push_back(w.name);
  }
  p.fail("workload", unknown_word("workload", name, names));
}

DlioCheckpointWorkload configured(const Params& p)
{
  try {
    return read_dlio_checkpoint_config(p.path("config"));
  } catch (const ConfigError& e) {
    p.fail("config", e.what());
  }
}

}  // namespace

void show_checkpoint_figures(const DlioCheckpointWorkload& w, const Params& p)
{
  DlioCheckpointWorkload shown = w;
  YAML::Node node              = p.ref().node();
  for (const KeyedFigure& f : keyed_figures(shown))
    if (!p.has(f.key))
      node[f.key] = std::to_string(*f.figure);
}

DlioCheckpointWorkload dlio_checkpoint_workload(const Params& p)
{
  if (p.has("workload") == p.has("config"))
    p.fail(p.has("config") ? "config" : "workload",
           "give one of workload (MLPerf Storage's, by name) and config (a DLIO checkpoint workload file)");
  DlioCheckpointWorkload w = p.has("config") ? configured(p) : named_preset(p);
  // A figure that does not fit is the fault of the key that gave it, or of the file or preset.
  const char* source = p.has("config") ? "config" : "workload";
  const auto blame   = [&p, source](const char* key) { return p.has(key) ? key : source; };
  for (const KeyedFigure& f : keyed_figures(w)) {
    if (p.has(f.key))
      *f.figure = p.integer(f.key);
    if (*f.figure > f.most)
      p.fail(blame(f.key), std::string(p.has(f.key) ? "" : std::string("the ") + source + "'s ") + f.key + " " +
                               std::to_string(*f.figure) + " is above llsim's limit of " + std::to_string(f.most));
  }
  if (w.shape.heads > w.shape.hidden)
    p.fail(blame("num_attention_heads"),
           std::to_string(w.shape.heads) + " heads cannot share a hidden width of " + std::to_string(w.shape.hidden));
  if (w.shape.kv_heads > w.shape.heads)
    p.fail(blame("num_kv_heads"), std::to_string(w.shape.kv_heads) + " key and value heads, more than the " +
                                      std::to_string(w.shape.heads) + " attention heads");
  if (w.tensor > w.shape.heads)
    p.fail(blame("tensor"), "tensor parallelism " + std::to_string(w.tensor) + " splits " +
                                std::to_string(w.shape.heads) + " attention heads: at most one rank per head");
  if (w.pipeline > w.shape.layers)
    p.fail(blame("pipeline"),
           std::to_string(w.pipeline) + " pipeline stages for " + std::to_string(w.shape.layers) + " layers");
  if (w.saves + w.loads == 0)
    p.fail(blame("saves"), "saves and loads are both 0: nothing to run");
  return w;
}

}  // namespace llsim
