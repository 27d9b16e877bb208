// Declared parameters. A model declares each key it reads (name, type, unit, default or required,
// range, one-line description) in a table next to the code that reads it; the same table drives
// validation, error messages, the defaults written to resolved.yaml and `llsim models`.
#pragma once
#include "sim/core/units.hpp"
#include "sim/core/yaml_ref.hpp"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llsim {

class Distribution;

enum class ParamKind { Quantity, Integer, Text, Flag, TextList, Section, Distribution, Mapping, List };

struct ParamSpec {
  std::string name;
  ParamKind kind      = ParamKind::Text;
  Dimension dimension = Dimension::Number;
  std::string description;
  std::optional<std::string> default_text;       // written into the scenario when the key is absent
  bool optional                        = false;  // may be absent with no default
  double min                           = -std::numeric_limits<double>::infinity();
  double max                           = std::numeric_limits<double>::infinity();
  bool min_exclusive                   = false;
  const std::vector<ParamSpec>* fields = nullptr;  // a section's own keys, for `llsim models`
  // A choice among a registry's implementations: their names, read from the registry itself, and
  // the key that names one inside the section ("impl"; empty when the value itself is the name).
  std::vector<std::string> (*choices)() = nullptr;
  std::string selector;
  std::vector<std::string> words;  // a text that must be one of these (one_of)

  static ParamSpec quantity(std::string name, Dimension d, std::string description);
  static ParamSpec integer(std::string name, std::string description);
  static ParamSpec text(std::string name, std::string description);
  // A text that must be one of `words`; Params::text refuses any other with one message,
  // "unknown KEY 'VALUE' (expected a, b or c)", and `llsim models` lists them.
  static ParamSpec one_of(std::string name, std::vector<std::string> words, std::string description);
  static ParamSpec flag(std::string name, std::string description);
  static ParamSpec text_list(std::string name, std::string description);
  static ParamSpec section(std::string name, std::string description);
  static ParamSpec distribution(std::string name, Dimension d, std::string description);
  static ParamSpec mapping(std::string name, std::string description);  // free keys, each a section
  static ParamSpec list(std::string name, std::string description);     // list of sections
  // A section {impl: NAME, ...} that picks an implementation of interface I (sim/core/registry.hpp).
  template <class I>
  static ParamSpec choice(std::string name, std::string description);

  ParamSpec defaults(std::string text) &&;
  ParamSpec may_be_absent() &&;
  ParamSpec positive() &&;
  ParamSpec at_least(double v) &&;
  ParamSpec at_most(double v) &&;
  ParamSpec with_fields(const std::vector<ParamSpec>& keys) &&;
  // A text naming an implementation (the selector of a section, or a key whose value is the
  // name): `names` lists them, and Params::text refuses any other as one_of does.
  ParamSpec among(std::vector<std::string> (*names)()) &&;

  std::string type_name() const;   // "size", "integer", "distribution of duration", ...
  std::string range_text() const;  // "> 0", ">= 1", "" ...
};

using ParamTable = std::vector<ParamSpec>;

class Params {
 public:
  // Checks that `ref` is a mapping whose keys are all declared in `specs` (nearest key suggested).
  Params(YamlRef ref, const ParamTable& specs);

  const YamlRef& ref() const { return ref_; }
  bool has(const std::string& key) const;

  double quantity(const std::string& key) const;
  Bytes size(const std::string& key) const { return {quantity(key)}; }
  BytesPerSecond bandwidth(const std::string& key) const { return {quantity(key)}; }
  Seconds duration(const std::string& key) const { return {quantity(key)}; }
  int64_t integer(const std::string& key) const;
  std::string text(const std::string& key) const;
  bool flag(const std::string& key) const;
  std::vector<std::string> text_list(const std::string& key) const;
  // A text list of files or directories, each relative to the scenario file's directory.
  std::vector<std::string> paths(const std::string& key) const;
  // A text parameter naming a file, resolved relative to the scenario file's directory.
  std::string path(const std::string& key) const;
  std::shared_ptr<const Distribution> distribution(const std::string& key) const;
  Params section(const std::string& key, const ParamTable& specs) const;
  // The raw node at `key` (a Mapping or List parameter); the caller builds Params per entry.
  YamlRef raw(const std::string& key) const;

  [[noreturn]] void fail(const std::string& key, const std::string& message) const;
  // "file:line:col: path.to.key", as fail() begins its message (the section's place when the key
  // is not written).
  std::string located(const std::string& key) const;

 private:
  const ParamSpec& spec(const std::string& key, ParamKind kind) const;
  // The node at `key`, with the default filled in when absent; errors when required and absent.
  YamlRef value(const ParamSpec& spec) const;
  void check_range(const ParamSpec& spec, const YamlRef& at, double v) const;

  YamlRef ref_;
  const ParamTable* specs_;
};

}  // namespace llsim
