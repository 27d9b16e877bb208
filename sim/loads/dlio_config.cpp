#include "sim/loads/dlio_config.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/foreign_yaml.hpp"
#include "sim/core/yaml_ref.hpp"

#include <memory>

namespace llsim {

namespace {

std::string model_name(const YamlRef& top)
{
  if (!top.node()["model"])
    return "dlio";
  const YamlRef model = top.child("model");
  if (model.node().IsMap())
    return model.node()["name"] ? scalar_text(model.child("name"), "the model's name") : "dlio";
  return scalar_text(model, "the model's name, or a mapping with its name");
}

}  // namespace

DlioWorkload read_dlio_config(const std::string& file)
{
  auto source           = std::make_shared<SourceInfo>();
  source->file          = file;
  const YAML::Node tree = parse_yaml_file(file, *source, "DLIO workload keys (model, workflow, dataset, ...)");
  const YamlRef top(tree, "", source);
  const auto train_flag = optional_key(optional_section(top, "workflow", "DLIO's workflow keys"), "train");
  if (train_flag && !foreign_flag(*train_flag))
    train_flag->fail("this workload does not train (workflow.train is False): a dlio phase reads what training "
                     "reads");
  const auto dataset = optional_section(top, "dataset", "DLIO's dataset keys");
  const auto reader  = optional_section(top, "reader", "DLIO's reader keys");
  const auto train   = optional_section(top, "train", "DLIO's train keys");
  const auto metric  = optional_section(top, "metric", "DLIO's metric keys");
  DlioWorkload w;
  w.loader           = DlioLoader::TensorFlow;  // DLIO's defaults: the tensorflow loader, tfrecord files
  w.streamed         = true;
  w.name             = model_name(top);
  w.files            = static_cast<int64_t>(foreign_number_of(dataset, {"num_files_train"}, 1, true, 8));
  w.samples_per_file = static_cast<int64_t>(foreign_number_of(dataset, {"num_samples_per_file"}, 1, true, 1));
  w.record_B         = foreign_number_of(dataset, {"record_length", "record_length_bytes"}, 1, false, 65536);
  w.record_stdev_B   = foreign_number_of(dataset, {"record_length_stdev", "record_length_bytes_stdev"}, 0, false, 0);
  if (auto loader = optional_key(reader, "data_loader")) {
    const std::string l = lower_text(*loader, "pytorch, tensorflow or dali");
    if (l != "pytorch" && l != "tensorflow" && l != "dali")
      loader->fail("llsim models the pytorch, tensorflow and dali loaders, not '" + l + "'");
    w.loader = l == "pytorch" ? DlioLoader::PyTorch : DlioLoader::TensorFlow;
  }
  if (auto format = optional_key(dataset, "format"))
    w.streamed = lower_text(*format, "DLIO's data format, e.g. npz or tfrecord") == "tfrecord";
  w.batch_size   = static_cast<int64_t>(foreign_number_of(reader, {"batch_size"}, 1, true, 1));
  w.read_threads = static_cast<int64_t>(foreign_number_of(reader, {"read_threads"}, 1, true, 1));
  if (auto size = optional_key(reader, "prefetch_size"))
    w.prefetch = dlio_prefetch_factor(static_cast<int64_t>(foreign_number(*size, 0, true)), w.read_threads);
  w.epochs = static_cast<int64_t>(foreign_number_of(train, {"epochs"}, 1, true, 1));
  if (auto compute = optional_key(train, "computation_time"); compute && !compute->node().IsScalar())
    compute->fail("llsim takes a fixed computation_time in seconds, not a distribution");
  w.computation_s      = foreign_number_of(train, {"computation_time"}, 0, false, 0);
  const bool cosmoflow = w.name.rfind("cosmoflow", 0) == 0;
  w.au_threshold       = foreign_number_of(metric, {"au"}, 0, false, cosmoflow ? 0.7 : 0.9);
  if (w.au_threshold > 1)
    optional_key(metric, "au")->fail("expected a share between 0 and 1");
  return w;
}

}  // namespace llsim
