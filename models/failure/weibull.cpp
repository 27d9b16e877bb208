// Failure model `weibull`: every node's times between failures follow a Weibull law (scale
// `node_scale`, shape `shape`; shape < 1: failures cluster after a replacement); each node is a
// renewal process, and the job sees their superposition. The job MTBF given to the checkpoint
// policies is node_scale * Gamma(1 + 1/shape) / nodes.
//   node_scale: duration, required     shape: number > 0, required
// Source: Schroeder & Gibson, DSN 2006 (Weibull shape 0.7-0.8 for HPC node failures).
#include "sim/core/registry.hpp"
#include "sim/train/interfaces.hpp"

#include <cmath>
#include <queue>
#include <vector>

namespace llsim {

namespace {

const ParamTable kWeibullParams = {
    ParamSpec::quantity("node_scale", Dimension::Duration, "Weibull scale of one node's times between failures")
        .positive(),
    ParamSpec::quantity("shape", Dimension::Number, "Weibull shape").positive(),
};

class WeibullFailures : public FailureModel {
 public:
  WeibullFailures(const Params& p, const Context& c)
      : nodes_(c.nodes), scale_s_(p.quantity("node_scale")), shape_(p.quantity("shape"))
  {
  }
  Failure next_failure(double after, Rng& rng) override
  {
    if (pending_.empty())
      for (int64_t n = 0; n < nodes_; ++n)
        pending_.push({draw(rng), n});
    while (pending_.top().time_s <= after) {  // renew nodes whose failure is already past
      const Failure past = pending_.top();
      pending_.pop();
      pending_.push({past.time_s + draw(rng), past.node});
    }
    Failure next = pending_.top();
    pending_.pop();
    pending_.push({next.time_s + draw(rng), next.node});
    return next;
  }
  double job_mtbf_s() const override { return scale_s_ * std::tgamma(1 + 1 / shape_) / static_cast<double>(nodes_); }

 private:
  double draw(Rng& rng) const { return scale_s_ * std::pow(-std::log(1.0 - rng.uniform()), 1.0 / shape_); }
  struct Later {
    bool operator()(const Failure& a, const Failure& b) const { return a.time_s > b.time_s; }
  };

  int64_t nodes_;
  double scale_s_, shape_;
  std::priority_queue<Failure, std::vector<Failure>, Later> pending_;
};

}  // namespace

LLSIM_REGISTER(FailureModel, "weibull", WeibullFailures, "Weibull renewal process per node", kWeibullParams);

}  // namespace llsim
