#include "sim/loads/dlio_config.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/units.hpp"
#include "sim/core/yaml_ref.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>

namespace llsim {

namespace {

// A mapping of the file, or none when the key is absent.
std::optional<YamlRef> section(const YamlRef& top, const char* key)
{
  if (!top.node()[key])
    return std::nullopt;
  YamlRef s = top.child(key);
  if (!s.node().IsMap())
    s.fail("expected a mapping of DLIO's " + std::string(key) + " keys");
  return s;
}

std::optional<YamlRef> key_of(const std::optional<YamlRef>& s, const char* key)
{
  if (!s || !s->node()[key])
    return std::nullopt;
  return s->child(key);
}

// A number of the file, at least `least` (0 or 1), whole where DLIO takes an integer.
double number(const YamlRef& ref, int least, bool whole)
{
  const std::string expected = std::string(whole ? "a whole number" : "a number") + " >= " + std::to_string(least);
  const std::string text     = scalar_text(ref, expected.c_str());
  double v                   = NAN;
  try {
    v = parse_quantity(text, Dimension::Number);
  } catch (const std::invalid_argument&) {
  }
  if (!(v >= least) || !std::isfinite(v) || (whole && (v != std::floor(v) || v > 9e15)))
    ref.fail("expected " + expected + ", got '" + text + "'");
  return v;
}

// The first of `keys` the section has, read as a number; DLIO's default when none is there.
double number_of(const std::optional<YamlRef>& s, std::initializer_list<const char*> keys, int least, bool whole,
                 double fallback)
{
  for (const char* k : keys)
    if (auto ref = key_of(s, k))
      return number(*ref, least, whole);
  return fallback;
}

std::string lower_text(const YamlRef& ref, const char* expected)
{
  std::string t = scalar_text(ref, expected);
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
  return t;
}

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
  const YAML::Node tree = parse_yaml_file(file, *source);
  const YamlRef top(tree, "", source);
  if (auto train_flag = key_of(section(top, "workflow"), "train")) {
    const std::string t = lower_text(*train_flag, "True or False");
    if (t != "true" && t != "false" && t != "yes" && t != "no")
      train_flag->fail("expected True or False, got '" + t + "'");
    if (t == "false" || t == "no")
      train_flag->fail("this workload does not train (workflow.train is False): a dlio phase reads what training "
                       "reads");
  }
  const auto dataset = section(top, "dataset");
  const auto reader  = section(top, "reader");
  const auto train   = section(top, "train");
  const auto metric  = section(top, "metric");
  DlioWorkload w;
  w.loader           = DlioLoader::TensorFlow;  // DLIO's defaults: the tensorflow loader, tfrecord files
  w.streamed         = true;
  w.name             = model_name(top);
  w.files            = static_cast<int64_t>(number_of(dataset, {"num_files_train"}, 1, true, 8));
  w.samples_per_file = static_cast<int64_t>(number_of(dataset, {"num_samples_per_file"}, 1, true, 1));
  w.record_B         = number_of(dataset, {"record_length", "record_length_bytes"}, 1, false, 65536);
  w.record_stdev_B   = number_of(dataset, {"record_length_stdev", "record_length_bytes_stdev"}, 0, false, 0);
  if (auto loader = key_of(reader, "data_loader")) {
    const std::string l = lower_text(*loader, "pytorch, tensorflow or dali");
    if (l != "pytorch" && l != "tensorflow" && l != "dali")
      loader->fail("llsim models the pytorch, tensorflow and dali loaders, not '" + l + "'");
    w.loader = l == "pytorch" ? DlioLoader::PyTorch : DlioLoader::TensorFlow;
  }
  if (auto format = key_of(dataset, "format"))
    w.streamed = lower_text(*format, "DLIO's data format, e.g. npz or tfrecord") == "tfrecord";
  w.batch_size   = static_cast<int64_t>(number_of(reader, {"batch_size"}, 1, true, 1));
  w.read_threads = static_cast<int64_t>(number_of(reader, {"read_threads"}, 1, true, 1));
  if (auto size = key_of(reader, "prefetch_size"))
    w.prefetch = dlio_prefetch_factor(static_cast<int64_t>(number(*size, 0, true)), w.read_threads);
  w.epochs = static_cast<int64_t>(number_of(train, {"epochs"}, 1, true, 1));
  if (auto compute = key_of(train, "computation_time"); compute && !compute->node().IsScalar())
    compute->fail("llsim takes a fixed computation_time in seconds, not a distribution");
  w.computation_s      = number_of(train, {"computation_time"}, 0, false, 0);
  const bool cosmoflow = w.name.rfind("cosmoflow", 0) == 0;
  w.au_threshold       = number_of(metric, {"au"}, 0, false, cosmoflow ? 0.7 : 0.9);
  if (w.au_threshold > 1)
    key_of(metric, "au")->fail("expected a share between 0 and 1");
  return w;
}

}  // namespace llsim
