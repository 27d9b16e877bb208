// Contract of a metadata partitioning model (registry "metadata partitioning", chosen with
// `impl:` under a metadata service's `partition:`): which server of the service owns a path.
// Pure logic. The ingest phase adds the models of the published designs.
#pragma once
#include <cstddef>
#include <string>

namespace llsim {

class MetadataPartition {
 public:
  struct Context {
    size_t servers;
  };
  static constexpr const char* kInterfaceName = "metadata partitioning";
  static constexpr const char* kSelector      = "impl";

  virtual ~MetadataPartition() = default;
  virtual size_t server_of(const std::string& path) const = 0;
};

}  // namespace llsim
