// Reading YAML files that other tools write (DLIO's workload files): optional sections and keys,
// numbers checked against what the tool takes, words compared without case. Every failure is a
// ConfigError at the node's file, line and column.
#pragma once
#include "sim/core/yaml_ref.hpp"

#include <initializer_list>
#include <optional>
#include <string>

namespace llsim {

// The mapping under `key`, or none when the key is absent; `what` names the keys it should hold.
std::optional<YamlRef> optional_section(const YamlRef& top, const char* key, const std::string& what);
// The node under `key` of a section, or none when the section or the key is absent.
std::optional<YamlRef> optional_key(const std::optional<YamlRef>& section, const char* key);
// A number of the file, at least `least`, whole where the tool takes an integer.
double foreign_number(const YamlRef& ref, int least, bool whole);
// The first of `keys` the section has, read as foreign_number; `fallback` when none is there.
double foreign_number_of(const std::optional<YamlRef>& section, std::initializer_list<const char*> keys, int least,
                         bool whole, double fallback);
// A flag written True or False (yes or no, any case).
bool foreign_flag(const YamlRef& ref);
// A scalar's text in lower case.
std::string lower_text(const YamlRef& ref, const char* expected);

}  // namespace llsim
