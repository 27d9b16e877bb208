#include "sim/loads/dlio_workload.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/loads/dlio_config.hpp"

#include <cstdio>

namespace llsim {

namespace {

// MLPerf Storage v1.0's workload configurations (mlcommons/storage, storage-conf/workload/
// <model>_<accelerator>.yaml, as the v1.0 results ran them: every result of the calibration set
// in traces/calibration/ states these figures). The file counts are DLIO's configured defaults;
// a submission sizes its dataset to its clients' memory and sets its own read_threads.
// prefetch: these files do not set it, so DLIO's default prefetch_size of 2 batches applies,
// ceil(2 / read_threads) per thread (dlio_config.hpp).
DlioWorkload preset(std::string name, DlioLoader loader, int64_t files, int64_t samples_per_file, double record_B,
                    double stdev_B, int64_t batch, int64_t threads, double computation_s, double au)
{
  DlioWorkload w;
  w.name             = std::move(name);
  w.loader           = loader;
  w.streamed         = loader == DlioLoader::TensorFlow;  // these presets' TensorFlow files are tfrecord
  w.files            = files;
  w.samples_per_file = samples_per_file;
  w.record_B         = record_B;
  w.record_stdev_B   = stdev_B;
  w.batch_size       = batch;
  w.read_threads     = threads;
  w.computation_s    = computation_s;
  w.epochs           = 5;
  w.au_threshold     = au;
  return w;
}

}  // namespace

int64_t dlio_prefetch_factor(int64_t prefetch_size, int64_t read_threads)
{
  return prefetch_size > 0 ? (prefetch_size + read_threads - 1) / read_threads : 2;
}

const std::vector<DlioWorkload>& dlio_presets()
{
  // Loaders as the calibration set's README gives them: PyTorch for unet3d, TensorFlow for
  // resnet50 and cosmoflow.
  // unet3d: npz, one 146.6 MB sample (stdev 68.3 MB) per file, batch 7, 4 read threads;
  // resnet50: tfrecord, 1,251 samples of 114.66 kB per file, batch 400, 8 threads;
  // cosmoflow: tfrecord, one 2.83 MB sample (stdev 71 kB) per file, batch 1, 4 threads.
  // Compute per batch (A100 / H100): 0.636 / 0.323 s, 0.435 / 0.224 s, 5.51 / 3.50 ms.
  static const std::vector<DlioWorkload> presets = {
      preset("unet3d_a100", DlioLoader::PyTorch, 168, 1, 146600628, 68341808, 7, 4, 0.636, 0.9),
      preset("unet3d_h100", DlioLoader::PyTorch, 168, 1, 146600628, 68341808, 7, 4, 0.323, 0.9),
      preset("resnet50_a100", DlioLoader::TensorFlow, 1024, 1251, 114660.07, 0, 400, 8, 0.435, 0.9),
      preset("resnet50_h100", DlioLoader::TensorFlow, 1024, 1251, 114660.07, 0, 400, 8, 0.224, 0.9),
      preset("cosmoflow_a100", DlioLoader::TensorFlow, 524288, 1, 2828486, 71311, 1, 4, 0.00551, 0.7),
      preset("cosmoflow_h100", DlioLoader::TensorFlow, 524288, 1, 2828486, 71311, 1, 4, 0.0035, 0.7),
  };
  return presets;
}

const ParamTable& dlio_workload_params()
{
  static const ParamTable t = {
      ParamSpec::text("workload", "MLPerf Storage's workload: unet3d, resnet50 or cosmoflow on a100 or h100, "
                                  "e.g. unet3d_h100 (docs/phases/dlio.md; the keys below override its figures)")
          .may_be_absent(),
      ParamSpec::text("config", "instead of workload: a DLIO workload YAML as DLIO reads it (relative to the "
                                "scenario; the keys below override its figures)")
          .may_be_absent(),
      ParamSpec::one_of("data_loader", {"pytorch", "tensorflow", "dali"},
                        "how a rank's read threads share the reads: pytorch, each worker a whole batch; "
                        "tensorflow or dali, each thread the next sample")
          .may_be_absent(),
      ParamSpec::one_of("format", {"npz", "tfrecord"},
                        "the files' access pattern: npz, each sample read on its own (a whole file of one "
                        "sample); tfrecord, a tensorflow or dali thread reads a file's records as one stream")
          .may_be_absent(),
      ParamSpec::integer("files", "files of the dataset (DLIO's num_files_train)").may_be_absent().at_least(1),
      ParamSpec::integer("samples_per_file", "samples in one file").may_be_absent().at_least(1),
      ParamSpec::quantity("record_length", Dimension::Size, "mean bytes of one sample").may_be_absent().positive(),
      ParamSpec::quantity("record_length_stdev", Dimension::Size,
                          "standard deviation of the files' sample sizes (drawn once per file, normal, at least "
                          "1 B)")
          .may_be_absent()
          .at_least(0),
      ParamSpec::integer("batch_size", "samples of one step of one accelerator").may_be_absent().at_least(1),
      ParamSpec::integer("read_threads", "reads one accelerator's data loader has in flight")
          .may_be_absent()
          .at_least(1),
      ParamSpec::integer("prefetch", "batches each read thread reads ahead of the one its accelerator waits for, as "
                                     "PyTorch's prefetch_factor (0: a batch is read when asked for; absent: DLIO's "
                                     "prefetch_size of 2 over the threads, ceil(2 / read_threads))")
          .may_be_absent()
          .at_least(0),
      ParamSpec::quantity("computation_time", Dimension::Duration, "emulated compute of one step")
          .may_be_absent()
          .at_least(0),
      ParamSpec::integer("epochs", "passes over the dataset").may_be_absent().at_least(1),
      ParamSpec::quantity("au_threshold", Dimension::Number, "the least accelerator utilisation of a valid result")
          .may_be_absent()
          .at_least(0)
          .at_most(1),
  };
  return t;
}

namespace {

DlioWorkload named_preset(const Params& p)
{
  const std::string name = p.text("workload");
  std::vector<std::string> names;
  for (const DlioWorkload& w : dlio_presets()) {
    if (w.name == name)
      return w;
    names.push_back(w.name);
  }
  p.fail("workload", unknown_word("workload", name, names));
}

// Figures beyond these would overflow the phase's counts or hold up the run without end.
void check_limits(const DlioWorkload& w, const Params& p)
{
  const auto at_most = [&p](const char* key, double value, double most) {
    if (value > most)
      p.fail(p.has(key) ? key : (p.has("config") ? "config" : "workload"),
             std::string(key) + " " + format_number(value) + " is above llsim's limit of " + format_number(most));
  };
  at_most("files", static_cast<double>(w.files), 1e9);
  at_most("samples_per_file", static_cast<double>(w.samples_per_file), 1e9);
  at_most("files x samples_per_file", static_cast<double>(w.files) * static_cast<double>(w.samples_per_file), 1e12);
  at_most("batch_size", static_cast<double>(w.batch_size), 1e7);
  at_most("read_threads", static_cast<double>(w.read_threads), 4096);
  at_most("prefetch", static_cast<double>(w.prefetch), 1e6);
  at_most("epochs", static_cast<double>(w.epochs), 1e4);
}

// Writes the figures the section does not give into it, so that resolved.yaml shows what was
// run whether they came from a preset or a DLIO file.
void show_figures(const DlioWorkload& w, const Params& p)
{
  YAML::Node node = p.ref().node();
  const auto show = [&](const char* key, const std::string& text) {
    if (!p.has(key))
      node[key] = without_marks(YAML::Load(text));
  };
  const auto exact = [](double v, const char* unit) {
    char text[40];
    std::snprintf(text, sizeof text, "%.15g%s", v, unit);
    return std::string(text);
  };
  show("data_loader", w.loader == DlioLoader::PyTorch ? "pytorch" : "tensorflow");
  show("format", w.streamed ? "tfrecord" : "npz");
  show("files", std::to_string(w.files));
  show("samples_per_file", std::to_string(w.samples_per_file));
  show("record_length", exact(w.record_B, "B"));
  show("record_length_stdev", exact(w.record_stdev_B, "B"));
  show("batch_size", std::to_string(w.batch_size));
  show("read_threads", std::to_string(w.read_threads));
  show("prefetch", std::to_string(w.prefetch));
  show("computation_time", exact(w.computation_s, "s"));
  show("epochs", std::to_string(w.epochs));
  show("au_threshold", exact(w.au_threshold, ""));
}

DlioWorkload configured(const Params& p)
{
  try {
    return read_dlio_config(p.path("config"));
  } catch (const ConfigError& e) {
    p.fail("config", e.what());
  }
}

}  // namespace

DlioWorkload dlio_workload(const Params& p)
{
  if (p.has("workload") == p.has("config"))
    p.fail(p.has("config") ? "config" : "workload",
           "give one of workload (MLPerf Storage's, by name) and config (a DLIO workload file)");
  DlioWorkload w     = p.has("config") ? configured(p) : named_preset(p);
  const auto integer = [&p](const char* key, int64_t& into) {
    if (p.has(key))
      into = p.integer(key);
  };
  const auto quantity = [&p](const char* key, double& into) {
    if (p.has(key))
      into = p.quantity(key);
  };
  if (p.has("data_loader"))
    w.loader = p.text("data_loader") == "pytorch" ? DlioLoader::PyTorch : DlioLoader::TensorFlow;
  if (p.has("format"))
    w.streamed = p.text("format") == "tfrecord";
  integer("files", w.files);
  integer("samples_per_file", w.samples_per_file);
  quantity("record_length", w.record_B);
  quantity("record_length_stdev", w.record_stdev_B);
  integer("batch_size", w.batch_size);
  integer("read_threads", w.read_threads);
  integer("prefetch", w.prefetch);
  quantity("computation_time", w.computation_s);
  integer("epochs", w.epochs);
  quantity("au_threshold", w.au_threshold);
  if (w.prefetch < 0)
    w.prefetch = dlio_prefetch_factor(2, w.read_threads);
  check_limits(w, p);
  show_figures(w, p);
  return w;
}

}  // namespace llsim
