// Ingest workload `tree`: a crawled corpus stored as a directory tree, one top-level directory per
// site, as a web crawl stores pages by site.
//
//   workload: {impl: tree, files: 10M, sites: 10000, fanout: {dist: uniform, min: 1, max: 8},
//              skew: 1.0, file_size: {dist: lognormal, mean: 20KB, sigma: 1}}
//
// - Site i (/crawl/s<i>) has `fanout` subdirectories (/crawl/s<i>/d<k>; drawn once per site,
//   rounded, at least 1).
// - File j goes to a site drawn from a Zipf law of exponent `skew` over the sites (site i with
//   weight 1 / (i+1)^skew: a few sites hold most pages; 0: uniform), then to one of that site's
//   subdirectories uniformly; its size is drawn from `file_size`.
// Steps: `root` (rank 0 makes /crawl), `sites` (the site directories), `dirs` (their
// subdirectories), `create` (each file: create, write its bytes, close). Item j of a step is
// done by rank j mod ranks. Every draw comes from a stream keyed by the item, so the tree does
// not depend on the number of ranks.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/ingest_mdtest.yaml --set 'phases.md.workload={impl: tree, files: 2000, sites: 10, fanout: 4, skew: 1, file_size: 10KB}'
#include "sim/core/distribution.hpp"
#include "sim/core/random.hpp"
#include "sim/core/registry.hpp"
#include "sim/ingest/ingest_workload.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace llsim {

namespace {

const ParamTable kTreeParams = {
    ParamSpec::integer("files", "files in the corpus").at_least(1).at_most(1e10),
    ParamSpec::integer("sites", "top-level directories").defaults("1000").at_least(1).at_most(1e7),
    ParamSpec::distribution("fanout", Dimension::Number, "subdirectories per site (rounded, at least 1)")
        .defaults("1")
        .at_least(0),
    ParamSpec::quantity("skew", Dimension::Number, "Zipf exponent of the files per site (0: uniform)")
        .defaults("1")
        .at_least(0),
    ParamSpec::distribution("file_size", Dimension::Size, "bytes of a file").defaults("0B").at_least(0),
};

class CrawlTree : public IngestWorkload {
 public:
  CrawlTree(const Params& p, const Context& c)
      : ranks_(c.ranks)
      , files_(p.integer("files"))
      , size_(p.distribution("file_size"))
      , key_(Rng::stream_key(c.seed, c.stream))
  {
    const int64_t sites = p.integer("sites");
    const auto fanout   = p.distribution("fanout");
    Rng rng             = Rng::keyed(key_, 0);
    double weight_sum   = 0;
    first_dir_.push_back(0);
    for (int64_t i = 0; i < sites; ++i) {
      const int64_t n = std::max<int64_t>(1, std::llround(fanout->sample(rng)));
      if (first_dir_.back() + n > static_cast<int64_t>(1e8))
        p.fail("fanout", "more than 100 million directories");
      first_dir_.push_back(first_dir_.back() + n);
      weight_sum += std::pow(static_cast<double>(i + 1), -p.quantity("skew"));
      site_cdf_.push_back(weight_sum);
    }
    for (double& w : site_cdf_)
      w /= weight_sum;
  }

  size_t steps() const override { return 4; }
  std::string step_name(size_t step) const override
  {
    static const char* const names[] = {"root", "sites", "dirs", "create"};
    return names[step];
  }

  bool next(size_t step, int64_t rank, IngestOp* op) override
  {
    if (step != step_) {
      next_.assign(static_cast<size_t>(ranks_), 0);
      step_ = step;
    }
    int64_t& k          = next_[static_cast<size_t>(rank)];
    const int64_t item  = rank + k * ranks_;
    const int64_t sites = static_cast<int64_t>(site_cdf_.size());
    if (step == 0) {
      if (item >= 1)
        return false;
      *op = {MetaOp::Mkdir, "/crawl", 0, 0};
    } else if (step == 1) {
      if (item >= sites)
        return false;
      *op = {MetaOp::Mkdir, site_dir(item), 0, 0};
    } else if (step == 2) {
      if (item >= first_dir_.back())
        return false;
      const int64_t site = site_of_dir(item);
      *op                = {MetaOp::Mkdir, site_dir(site) + "/d" + std::to_string(item - first_dir_[site]), 0, 0};
    } else {
      if (item >= files_)
        return false;
      Rng rng            = Rng::keyed(key_, static_cast<uint64_t>(item) + 1);
      const auto site_it = std::upper_bound(site_cdf_.begin(), site_cdf_.end(), rng.uniform());
      const int64_t site = std::min<int64_t>(site_it - site_cdf_.begin(), sites - 1);
      const int64_t dirs = first_dir_[site + 1] - first_dir_[site];
      const auto sub     = static_cast<int64_t>(rng.uniform() * static_cast<double>(dirs));
      *op                = {MetaOp::Create, site_dir(site) + "/d" + std::to_string(sub) + "/f" + std::to_string(item),
                            size_->sample(rng), 0};
    }
    k += 1;
    return true;
  }

 private:
  static std::string site_dir(int64_t site) { return "/crawl/s" + std::to_string(site); }
  int64_t site_of_dir(int64_t dir) const
  {
    return std::upper_bound(first_dir_.begin(), first_dir_.end(), dir) - first_dir_.begin() - 1;
  }

  int64_t ranks_, files_;
  std::shared_ptr<const Distribution> size_;
  uint64_t key_;
  std::vector<double> site_cdf_;
  std::vector<int64_t> first_dir_;  // per site: its first directory's global index; then the total
  std::vector<int64_t> next_;
  size_t step_ = static_cast<size_t>(-1);
};

}  // namespace

LLSIM_REGISTER(IngestWorkload, "tree", CrawlTree, "a crawled corpus: sites, subdirectories, Zipf files per site",
               kTreeParams);

}  // namespace llsim
