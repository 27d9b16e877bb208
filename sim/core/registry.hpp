// Registry<Interface>: named implementations of one interface, chosen in the scenario by the
// interface's selector key (`impl:` for models, `kind:` for phases). A model registers itself
// with one LLSIM_REGISTER line at the bottom of its .cpp. The map lives in a function-local
// static, so registration order between files does not matter.
//
// An Interface provides:
//   using Context = ...;                      what its factories get besides their parameters
//   static constexpr const char* kInterfaceName = "...";  the family's one name (snake_case): its
//                                                          folder under models/, its unit test file
//   static constexpr const char* kHeader        = "sim/.../x.hpp";  where the contract is written
//   static constexpr const char* kSelector      = "impl";
#pragma once
#include "sim/core/params.hpp"
#include "sim/core/text.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace llsim {

struct ModelInfo {
  std::string name;
  std::string description;
  const ParamTable* params;
  std::string source;  // the file that registers it, relative to the source tree
};

// A source file's path relative to the source tree (__FILE__ is absolute in CMake builds).
std::string source_relative(const char* file);

// Everything registered, for `llsim models` and the start-up duplicate check.
struct RegistryCatalog {
  struct Interface {
    std::string name;
    std::string selector;
    std::string header;
    std::function<std::vector<ModelInfo>()> models;
  };
  static std::vector<Interface>& interfaces();
  static std::vector<std::string>& errors();  // e.g. duplicate names, reported by main()
};

template <class I>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<I>(const Params&, const typename I::Context&)>;
  struct Entry {
    ModelInfo info;
    Factory make;
  };

  // Returns false (and records the error) when the name is taken.
  static bool add(const std::string& name, const std::string& description, const ParamTable& params, Factory make,
                  const char* source_file = "")
  {
    auto& map = entries();
    if (map.count(name) != 0) {
      RegistryCatalog::errors().push_back(std::string(I::kInterfaceName) + ": two models are registered as '" + name +
                                          "'");
      return false;
    }
    map.emplace(name, Entry{{name, description, &params, source_relative(source_file)}, std::move(make)});
    return true;
  }

  static std::vector<std::string> names()
  {
    std::vector<std::string> out;
    for (const auto& e : entries())
      out.push_back(e.first);
    return out;
  }

  // The parameter table a node of this interface is checked against: the shared keys of the
  // place it appears in, the selector, then the chosen model's own.
  static ParamTable table_for(const Entry& entry, const ParamTable& shared_keys)
  {
    ParamTable table = shared_keys;
    table.push_back(ParamSpec::text(I::kSelector, std::string("which ") + I::kInterfaceName).among(&names));
    table.insert(table.end(), entry.info.params->begin(), entry.info.params->end());
    return table;
  }

  static const Entry& lookup(const YamlRef& ref)
  {
    if (!ref.node().IsMap())
      ref.fail(std::string("expected a mapping with '") + I::kSelector + ":' naming one of: " + join(names(), ", "));
    const YamlRef selector = ref.child(I::kSelector);
    if (!selector.node().IsDefined())
      ref.fail(std::string("missing '") + I::kSelector + ":' (one of: " + join(names(), ", ") + ")");
    const std::string name = scalar_text(selector, "a model name");
    const auto it          = entries().find(name);
    if (it == entries().end())
      selector.fail(unknown_word(I::kInterfaceName, name, names()));
    return it->second;
  }

  // Models read every parameter in their constructor and keep no Params (the table is local).
  static std::unique_ptr<I> create(const YamlRef& ref, const typename I::Context& context,
                                   const ParamTable& shared_keys = {})
  {
    const Entry& entry     = lookup(ref);
    const ParamTable table = table_for(entry, shared_keys);
    return entry.make(Params(ref, table), context);
  }

  // An implementation named by the value of a text key (`router: least_loaded`, declared
  // `ParamSpec::text(...).among(&Registry<I>::names)`, which Params::text checks): it has no
  // parameters of its own. `at` is that value, for errors.
  static std::unique_ptr<I> create_named(const YamlRef& at, const typename I::Context& context)
  {
    const std::string name = scalar_text(at, "a model name");
    const auto it          = entries().find(name);
    if (it == entries().end())
      at.fail(unknown_word(I::kInterfaceName, name, names()));
    const YamlRef none(YAML::Node(YAML::NodeType::Map), at.path(), at.source());
    return it->second.make(Params(none, *it->second.info.params), context);
  }

  static std::map<std::string, Entry>& entries()
  {
    static std::map<std::string, Entry> map;
    static const bool listed = [] {
      RegistryCatalog::interfaces().push_back({I::kInterfaceName, I::kSelector, I::kHeader, [] {
                                                 std::vector<ModelInfo> out;
                                                 for (const auto& e : entries())
                                                   out.push_back(e.second.info);
                                                 return out;
                                               }});
      return true;
    }();
    (void)listed;
    return map;
  }
};

template <class I>
ParamSpec ParamSpec::choice(std::string name, std::string description)
{
  ParamSpec spec = section(std::move(name), std::move(description));
  spec.selector  = I::kSelector;
  return std::move(spec).among(&Registry<I>::names);
}

}  // namespace llsim

#define LLSIM_CONCAT_INNER(a, b) a##b
#define LLSIM_CONCAT(a, b) LLSIM_CONCAT_INNER(a, b)
// LLSIM_REGISTER(Phase, "transfer", TransferPhase, "description", kTransferParams);
#define LLSIM_REGISTER(Interface, name, Type, description, params)                                                     \
  static const bool LLSIM_CONCAT(llsim_registered_, __LINE__) = ::llsim::Registry<Interface>::add(                     \
      name, description, params,                                                                                       \
      [](const ::llsim::Params& p, const Interface::Context& c) -> std::unique_ptr<Interface> {                        \
        return std::make_unique<Type>(p, c);                                                                           \
      },                                                                                                               \
      __FILE__)
