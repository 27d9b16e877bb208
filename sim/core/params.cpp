#include "sim/core/params.hpp"

#include "sim/core/distribution.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

namespace llsim {

namespace {
ParamSpec make(std::string name, ParamKind kind, Dimension d, std::string description)
{
  ParamSpec s;
  s.name        = std::move(name);
  s.kind        = kind;
  s.dimension   = d;
  s.description = std::move(description);
  return s;
}
}  // namespace

ParamSpec ParamSpec::quantity(std::string name, Dimension d, std::string description)
{
  return make(std::move(name), ParamKind::Quantity, d, std::move(description));
}
ParamSpec ParamSpec::integer(std::string name, std::string description)
{
  return make(std::move(name), ParamKind::Integer, Dimension::Count, std::move(description));
}
ParamSpec ParamSpec::text(std::string name, std::string description)
{
  return make(std::move(name), ParamKind::Text, Dimension::Number, std::move(description));
}
ParamSpec ParamSpec::one_of(std::string name, std::vector<std::string> words, std::string description)
{
  ParamSpec spec = make(std::move(name), ParamKind::Text, Dimension::Number, std::move(description));
  spec.words     = std::move(words);
  return spec;
}
ParamSpec ParamSpec::flag(std::string name, std::string description)
{
  return make(std::move(name), ParamKind::Flag, Dimension::Number, std::move(description));
}
ParamSpec ParamSpec::text_list(std::string name, std::string description)
{
  return make(std::move(name), ParamKind::TextList, Dimension::Number, std::move(description));
}
ParamSpec ParamSpec::section(std::string name, std::string description)
{
  return make(std::move(name), ParamKind::Section, Dimension::Number, std::move(description));
}
ParamSpec ParamSpec::distribution(std::string name, Dimension d, std::string description)
{
  return make(std::move(name), ParamKind::Distribution, d, std::move(description));
}
ParamSpec ParamSpec::mapping(std::string name, std::string description)
{
  return make(std::move(name), ParamKind::Mapping, Dimension::Number, std::move(description));
}
ParamSpec ParamSpec::list(std::string name, std::string description)
{
  return make(std::move(name), ParamKind::List, Dimension::Number, std::move(description));
}

ParamSpec ParamSpec::defaults(std::string text) &&
{
  default_text = std::move(text);
  return std::move(*this);
}
ParamSpec ParamSpec::may_be_absent() &&
{
  optional = true;
  return std::move(*this);
}
ParamSpec ParamSpec::positive() &&
{
  min           = 0;
  min_exclusive = true;
  return std::move(*this);
}
ParamSpec ParamSpec::at_least(double v) &&
{
  min = v;
  return std::move(*this);
}
ParamSpec ParamSpec::at_most(double v) &&
{
  max = v;
  return std::move(*this);
}
ParamSpec ParamSpec::with_fields(const std::vector<ParamSpec>& keys) &&
{
  fields = &keys;
  return std::move(*this);
}
ParamSpec ParamSpec::among(std::vector<std::string> (*names)()) &&
{
  choices = names;
  return std::move(*this);
}

std::string ParamSpec::type_name() const
{
  switch (kind) {
  case ParamKind::Quantity:
    return dimension_name(dimension);
  case ParamKind::Integer:
    return "integer";
  case ParamKind::Text:
    return "string";
  case ParamKind::Flag:
    return "bool";
  case ParamKind::TextList:
    return "list of strings";
  case ParamKind::Section:
    return "mapping";
  case ParamKind::Distribution:
    return std::string(dimension_name(dimension)) + " or distribution";
  case ParamKind::Mapping:
    return "mapping of named entries";
  case ParamKind::List:
    return "list of mappings";
  }
  return "?";
}

std::string ParamSpec::range_text() const
{
  std::string out;
  if (std::isfinite(min))
    out += (min_exclusive ? "> " : ">= ") + format_number(min);
  if (std::isfinite(max))
    out += (out.empty() ? "" : ", ") + std::string("<= ") + format_number(max);
  return out;
}

Params::Params(YamlRef ref, const ParamTable& specs)
    : ref_(std::move(ref))
    , specs_(&specs)
{
  if (!ref_.node().IsDefined() || ref_.node().IsNull()) {
    ref_.node() = YAML::Node(YAML::NodeType::Map);
    return;
  }
  if (!ref_.node().IsMap())
    ref_.fail("expected a mapping of keys");
  std::vector<std::string> known;
  for (const auto& s : specs)
    known.push_back(s.name);
  for (const auto& entry : ref_.node()) {
    const std::string key = entry.first.Scalar();
    bool declared         = false;
    for (const auto& s : specs)
      declared = declared || s.name == key;
    if (!declared) {
      YamlRef at(entry.first, ref_.path().empty() ? key : ref_.path() + "." + key, ref_.source());
      at.fail("unknown key '" + key + "': " + suggestion(key, known));
    }
  }
}

bool Params::has(const std::string& key) const
{
  const YAML::Node& node = ref_.node();
  return node[key].IsDefined() && !node[key].IsNull();
}

const ParamSpec& Params::spec(const std::string& key, ParamKind kind) const
{
  for (const auto& s : *specs_)
    if (s.name == key) {
      if (s.kind != kind)
        throw std::logic_error("parameter '" + key + "' read with the wrong kind");
      return s;
    }
  throw std::logic_error("parameter '" + key + "' read but not declared");
}

YamlRef Params::value(const ParamSpec& s) const
{
  if (!has(s.name)) {
    if (s.default_text) {
      YAML::Node node = ref_.node();
      node[s.name]    = without_marks(YAML::Load(*s.default_text));
    } else if (!s.optional) {
      ref_.fail("missing required key '" + s.name + "' (" + s.type_name() + ": " + s.description + ")");
    }
  } else if (s.kind == ParamKind::Section && s.default_text) {
    // A section given in part (`iteration: {mfu: 0.3}`, or one --set key under an absent section)
    // takes the keys it lacks from its default (`{impl: roofline}`).
    YAML::Node given          = ref_.node()[s.name];
    const YAML::Node defaults = without_marks(YAML::Load(*s.default_text));
    if (given.IsMap() && defaults.IsMap())
      for (const auto& entry : defaults)
        if (!given[entry.first.Scalar()])
          given[entry.first.Scalar()] = entry.second;
  }
  return ref_.child(s.name);
}

void Params::check_range(const ParamSpec& s, const YamlRef& at, double v) const
{
  const bool below = s.min_exclusive ? !(v > s.min) : v < s.min;
  if (!below && !(v > s.max))
    return;
  // The figures as the scenario would write them (0.5 s, not 0.5), with digits enough to tell
  // the value from the bound it crosses.
  const double bound = below ? s.min : s.max;
  const auto text    = [&s](double x, int digits) { return format_quantity(x, s.dimension, digits); };
  const int digits   = digits_to_tell_apart(v, bound, text);
  std::string range;
  if (std::isfinite(s.min))
    range += (s.min_exclusive ? "> " : ">= ") + text(s.min, digits);
  if (std::isfinite(s.max))
    range += (range.empty() ? "" : ", ") + std::string("<= ") + text(s.max, digits);
  at.fail("value " + text(v, digits) + " is out of range (expected " + range + ")");
}

double Params::quantity(const std::string& key) const
{
  const ParamSpec& s = spec(key, ParamKind::Quantity);
  const YamlRef at   = value(s);
  double v           = 0;
  try {
    const std::string expected =
        std::string("a ") + dimension_name(s.dimension) + " such as " + dimension_example(s.dimension);
    v = parse_quantity(scalar_text(at, expected.c_str()), s.dimension);
  } catch (const std::invalid_argument& e) {
    at.fail(e.what());
  }
  check_range(s, at, v);
  return v;
}

int64_t Params::integer(const std::string& key) const
{
  const ParamSpec& s = spec(key, ParamKind::Integer);
  const YamlRef at   = value(s);
  double v           = 0;
  try {
    v = parse_quantity(scalar_text(at, "an integer"), Dimension::Count);
  } catch (const std::invalid_argument& e) {
    at.fail(e.what());
  }
  if (v != std::floor(v) || std::fabs(v) > 9e15)
    at.fail("expected a whole number, got " + format_number(v));
  check_range(s, at, v);
  return static_cast<int64_t>(v);
}

std::string Params::text(const std::string& key) const
{
  const ParamSpec& s = spec(key, ParamKind::Text);
  const YamlRef at   = value(s);
  if (!at.node().IsDefined())
    return "";
  std::string v                          = scalar_text(at, "a string");
  const std::vector<std::string> allowed = !s.words.empty() ? s.words : s.choices ? s.choices() : s.words;
  if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), v) == allowed.end())
    at.fail(unknown_word(key, v, allowed));
  return v;
}

std::string Params::path(const std::string& key) const
{
  std::filesystem::path file = text(key);
  if (file.is_relative())
    file = std::filesystem::path(ref_.source()->file).parent_path() / file;
  return file.string();
}

std::vector<std::string> Params::paths(const std::string& key) const
{
  std::vector<std::string> out;
  for (std::filesystem::path file : text_list(key))
    out.push_back(
        (file.is_relative() ? std::filesystem::path(ref_.source()->file).parent_path() / file : file).string());
  return out;
}

bool Params::flag(const std::string& key) const
{
  const ParamSpec& s  = spec(key, ParamKind::Flag);
  const YamlRef at    = value(s);
  const std::string t = scalar_text(at, "true or false");
  if (t == "true")
    return true;
  if (t == "false")
    return false;
  at.fail("expected true or false, got '" + t + "'");
}

std::vector<std::string> Params::text_list(const std::string& key) const
{
  const ParamSpec& s = spec(key, ParamKind::TextList);
  const YamlRef at   = value(s);
  std::vector<std::string> out;
  if (!at.node().IsDefined() || at.node().IsNull())
    return out;
  if (at.node().IsScalar())
    return {at.node().Scalar()};
  if (!at.node().IsSequence())
    at.fail("expected a list of strings");
  for (size_t i = 0; i < at.node().size(); ++i)
    out.push_back(scalar_text(at.item(i), "a string"));
  return out;
}

std::shared_ptr<const Distribution> Params::distribution(const std::string& key) const
{
  const ParamSpec& s = spec(key, ParamKind::Distribution);
  auto dist          = make_distribution(value(s), s.dimension);
  check_range(s, ref_.child(key), dist->min_value());
  return dist;
}

Params Params::section(const std::string& key, const ParamTable& specs) const
{
  const ParamSpec& s = spec(key, ParamKind::Section);
  YamlRef at         = value(s);
  if (!at.node().IsDefined()) {
    YAML::Node node = ref_.node();
    node[key]       = YAML::Node(YAML::NodeType::Map);
    at              = ref_.child(key);
  }
  return Params(at, specs);
}

YamlRef Params::raw(const std::string& key) const
{
  for (const auto& s : *specs_)
    if (s.name == key)
      return value(s);
  throw std::logic_error("parameter '" + key + "' read but not declared");
}

void Params::fail(const std::string& key, const std::string& message) const
{
  throw ConfigError(located(key) + ": " + message);
}

std::string Params::located(const std::string& key) const
{
  return ref_.place_of(key);
}

}  // namespace llsim
