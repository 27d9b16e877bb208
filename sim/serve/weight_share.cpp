#include "sim/serve/weight_share.hpp"

namespace llsim {

// One engine's view of the shared load of one generation.
class WeightShare::Member : public WeightLoad {
 public:
  Member(WeightShare& share, uint64_t generation, uint64_t& completed)
      : share_(share)
      , generation_(generation)
      , completed_(completed)
  {}
  bool over() const override
  {
    const bool over = share_.over(generation_);
    if (over)
      completed_ = generation_;  // the engine's record, for its next join
    return over;
  }
  void cancel() override
  {
    if (!left_)
      share_.leave();
    left_ = true;
  }
  const std::string& source() const override { return share_.source(); }

 private:
  WeightShare& share_;
  uint64_t generation_;
  uint64_t& completed_;
  bool left_ = false;
};

WeightShare::WeightShare(WeightSource& source, const WeightTarget& whole)
    : source_(source)
    , whole_(whole)
{}

std::shared_ptr<WeightLoad> WeightShare::join(uint64_t& completed, std::function<void()> changed)
{
  wakers_.push_back(std::move(changed));
  members_ += 1;
  // The load under way, or one completed since this engine last completed one.
  if (members_ > 1 && generation_ > completed)
    return std::make_shared<Member>(*this, generation_, completed);
  // A new one. Starting it may let other engines run (and join it) before it returns.
  generation_ += 1;
  members_ = 1;
  wakers_.erase(wakers_.begin(), wakers_.end() - 1);
  load_.reset();
  auto member = std::make_shared<Member>(*this, generation_, completed);
  load_       = source_.load(whole_, [this] { this->changed(); });
  if (members_ == 0)  // every engine left meanwhile
    load_->cancel();
  return member;
}

bool WeightShare::over(uint64_t generation) const
{
  return generation == generation_ && load_ && load_->over();
}

const std::string& WeightShare::source() const
{
  static const std::string starting = "(starting)";
  return load_ ? load_->source() : starting;
}

void WeightShare::changed()
{
  for (const auto& wake : wakers_)
    wake();
}

void WeightShare::leave()
{
  members_ -= 1;
  if (members_ == 0 && load_ && !load_->over())
    load_->cancel();
}

}  // namespace llsim
