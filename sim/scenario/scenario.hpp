// A loaded, fully checked scenario: the platform spec, the host faults, the services and the
// phases with their models built, and the YAML tree with every default filled in (for
// resolved.yaml).
//
//   name: demo          # default: the file name without .yaml
//   seed: 1             # the one seed of every random draw
//   platform: {...}     # see platform_spec.hpp
//   faults: [...]       # host fault models by group, see sim/faults/host_faults.hpp
//   services: {...}     # shared servers by name, see sim/svc/service.hpp
//   accounting: {...}   # currency, PUE, price of energy: accounting_spec.hpp
//   phases:
//     - {name: stage, kind: transfer, after: [..], start: 10s, ...}
#pragma once
#include "sim/accounting/accounting_spec.hpp"
#include "sim/core/yaml_ref.hpp"
#include "sim/faults/host_faults.hpp"
#include "sim/phase/phase.hpp"
#include "sim/platform/platform_spec.hpp"
#include "sim/svc/directory.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llsim {

struct PhaseEntry {
  std::string name;
  std::string kind;
  std::vector<size_t> after;  // indices of the phases this one waits for
  double start_s = 0;         // not before this simulated time
  std::vector<GroupClaim> claims;
  std::vector<std::string> uses;  // groups it runs on without claiming them
  std::unique_ptr<Phase> model;
};

struct Scenario {
  std::string file;
  std::string text_hash;  // scenario_text_hash(file) when it was loaded
  std::string name;
  uint64_t seed = 1;
  YAML::Node tree;  // with defaults and overrides applied
  std::unique_ptr<PlatformSpec> platform;
  std::unique_ptr<HostFaults> faults;
  std::unique_ptr<ServiceDirectory> services;
  std::vector<PhaseEntry> phases;
  AccountingSpec accounting;
  // What a run must tell its user once, in the console and report.md (figures assumed rather
  // than measured), in the order the phases gave them, each once.
  std::vector<std::string> notes;
};

// Appends the notes of `from` that `into` lacks, in their order (a sweep's or a plan's notes are
// those of its points, each once).
void merge_notes(std::vector<std::string>& into, const std::vector<std::string>& from);

// FNV-1a of a scenario file's text, as 16 hex digits ("" when it cannot be read): what tells runs
// of two versions of a file apart.
std::string scenario_text_hash(const std::string& file);

struct LoadOptions {
  std::vector<std::string> overrides;  // "path=value"
  std::optional<uint64_t> seed;
};

// Keys of the scenario's top level, and keys every phase has besides its kind's own.
const ParamTable& scenario_params();
const ParamTable& phase_common_params();

// Everything is checked here; a ConfigError names file, line, column and path.
Scenario load_scenario(const std::string& file, const LoadOptions& options);

}  // namespace llsim
