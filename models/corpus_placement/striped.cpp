// Corpus placement `striped`: one copy of each corpus file, file f on server f mod servers, as a
// distributed file system's round robin spreads partitions with no replication.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/preprocess_dedup.yaml --set 'phases.dedup.placement={impl: striped}'
#include "sim/core/registry.hpp"
#include "sim/preprocess/corpus_placement.hpp"

namespace llsim {

namespace {

const ParamTable kStripedParams = {};

class Striped : public CorpusPlacement {
 public:
  Striped(const Params&, const Context& c)
      : servers_(c.servers)
  {}
  int64_t copies() const override { return 1; }
  int64_t server(int64_t file, int64_t) const override { return file % servers_; }

 private:
  int64_t servers_;
};

}  // namespace

LLSIM_REGISTER(CorpusPlacement, "striped", Striped, "one copy of each file, file f on server f mod servers",
               kStripedParams);

}  // namespace llsim
