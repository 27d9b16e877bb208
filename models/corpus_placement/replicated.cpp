// Corpus placement `replicated`: `replicas` copies of each corpus file, file f on servers f, f + 1,
// ..., f + replicas - 1 (mod servers), as HDFS keeps 3 copies by default (Shvachko et al., "The
// Hadoop distributed file system", MSST 2010) on distinct nodes. More copies than servers is an
// error.
//   replicas: 3    copies of each file (1 to 100)
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/preprocess_dedup.yaml --set 'phases.dedup.placement={impl: replicated, replicas: 2}'
#include "sim/core/registry.hpp"
#include "sim/preprocess/corpus_placement.hpp"

#include <string>

namespace llsim {

namespace {

const ParamTable kReplicatedParams = {
    ParamSpec::integer("replicas", "copies of each file, on consecutive servers")
        .defaults("3")
        .at_least(1)
        .at_most(100),
};

class Replicated : public CorpusPlacement {
 public:
  Replicated(const Params& p, const Context& c)
      : servers_(c.servers)
      , replicas_(p.integer("replicas"))
  {
    if (replicas_ > servers_)
      p.fail("replicas", std::to_string(replicas_) + " copies of each file on " + std::to_string(servers_) +
                             " servers of '" + c.storage + "'");
  }
  int64_t copies() const override { return replicas_; }
  int64_t server(int64_t file, int64_t copy) const override { return (file + copy) % servers_; }

 private:
  int64_t servers_, replicas_;
};

}  // namespace

LLSIM_REGISTER(CorpusPlacement, "replicated", Replicated, "copies of each file on consecutive servers",
               kReplicatedParams);

}  // namespace llsim
