// Ingest workload `mdtest`: the metadata part of IO500 (its mdtest-easy and mdtest-hard).
//
//   workload: {impl: mdtest, pattern: easy, files_per_rank: 1000, phases: [create, stat, delete]}
//
// - easy: a private directory per rank, /mdtest-easy/r<rank>, with empty files (create only).
// - hard: one directory shared by every rank, /mdtest-hard, with 3,901-byte files (create, write
//   the bytes to the storage service, close).
// Steps, each after a barrier: `setup` (rank 0 makes the top directory; easy: then each rank its
// own), then the listed phases in order: `create`, `stat` (each file once), `delete` (unlink).
// Rates per step are in <phase>_steps.csv.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/ingest_mdtest.yaml --set 'phases.md.workload={impl: mdtest, pattern: hard, files_per_rank: 20}'
#include "sim/core/registry.hpp"
#include "sim/ingest/ingest_workload.hpp"

#include <vector>

namespace llsim {

namespace {

constexpr double kHardFileBytes = 3901;  // IO500's mdtest-hard file size

const ParamTable kMdtestParams = {
    ParamSpec::one_of("pattern", {"easy", "hard"},
                      "easy (a private directory per rank, empty files) or hard (one shared directory, "
                      "3,901-byte files)")
        .defaults("easy"),
    ParamSpec::integer("files_per_rank", "files each rank creates").defaults("1000").at_least(1).at_most(1e9),
    ParamSpec::text_list("phases", "steps after setup, in order: create, stat, delete")
        .defaults("[create, stat, delete]"),
};

class Mdtest : public IngestWorkload {
 public:
  Mdtest(const Params& p, const Context& c)
      : files_(p.integer("files_per_rank"))
      , done_(static_cast<size_t>(c.ranks), 0)
  {
    hard_ = p.text("pattern") == "hard";
    top_  = hard_ ? "/mdtest-hard" : "/mdtest-easy";
    // IO500's order; each at most once, and create first (stat and delete need its files).
    const std::vector<std::pair<std::string, MetaOp>> known = {
        {"create", MetaOp::Create}, {"stat", MetaOp::Stat}, {"delete", MetaOp::Unlink}};
    size_t next = 0;
    for (const auto& name : p.text_list("phases")) {
      size_t k = 0;
      while (k < known.size() && known[k].first != name)
        ++k;
      if (k == known.size())
        p.fail("phases", "mdtest's phases are create, stat and delete, not '" + name + "'");
      if (k < next || (phases_.empty() && k != 0))
        p.fail("phases", "create, then stat and delete, each at most once and in that order");
      phases_.push_back(known[k]);
      next = k + 1;
    }
    if (phases_.empty())
      p.fail("phases", "give at least create");
    if (p.integer("files_per_rank") * c.ranks > static_cast<int64_t>(1e10))
      p.fail("files_per_rank", "more than 10 billion files in all: use the phase's `scale`");
  }

  size_t steps() const override { return 1 + phases_.size(); }
  std::string step_name(size_t step) const override { return step == 0 ? "setup" : phases_[step - 1].first; }

  bool next(size_t step, int64_t rank, IngestOp* op) override
  {
    if (step != step_) {  // a new step: every rank starts over
      std::fill(done_.begin(), done_.end(), 0);
      step_ = step;
    }
    int64_t& done = done_[static_cast<size_t>(rank)];
    if (step == 0) {
      // Rank 0 makes the top directory and, for easy, its own; the others only their own. The
      // top directory must exist before a rank directory in it: easy ranks other than 0 make
      // theirs at the start of the next step instead.
      if (done > 0 || (rank != 0))
        return false;
      *op = {MetaOp::Mkdir, top_, 0, 0};
      done += 1;
      return true;
    }
    const bool own_dir = !hard_;
    if (own_dir && done == 0 && step == 1) {
      *op  = {MetaOp::Mkdir, rank_dir(rank), 0, 0};
      done = -1;  // -1: the directory is made, no file yet
      return true;
    }
    const int64_t index = done < 0 ? 0 : done;
    if (index >= files_)
      return false;
    *op = {phases_[step - 1].second, file(rank, index), 0, 0};
    if (op->op == MetaOp::Create && hard_)
      op->bytes = kHardFileBytes;
    done = index + 1;
    return true;
  }

 private:
  std::string rank_dir(int64_t rank) const { return top_ + "/r" + std::to_string(rank); }
  std::string file(int64_t rank, int64_t i) const
  {
    return hard_ ? top_ + "/f" + std::to_string(rank) + "." + std::to_string(i)
                 : rank_dir(rank) + "/f" + std::to_string(i);
  }

  int64_t files_;
  bool hard_ = false;
  std::string top_;
  std::vector<std::pair<std::string, MetaOp>> phases_;
  std::vector<int64_t> done_;
  size_t step_ = 0;  // the step done_ counts for
};

}  // namespace

LLSIM_REGISTER(IngestWorkload, "mdtest", Mdtest, "IO500 mdtest-easy or mdtest-hard: create, stat, delete",
               kMdtestParams);

}  // namespace llsim
