#include "sim/serve/weights/weight_share.hpp"

#include "sim/sg/clock.hpp"

namespace llsim {

WeightShare::WeightShare(WeightSource& source, const WeightTarget& whole, LoadTally& loads)
    : source_(source)
    , whole_(whole)
    , loads_(loads)
{}

WeightShare::Turn WeightShare::join(std::function<void()> wake, bool initial, Turn last_completed)
{
  const bool joinable = turn_ > last_completed && waiting_ > 0;  // under way, or completed (never left)
  if (joinable) {
    waiting_ += 1;
    wakes_.push_back(std::move(wake));
    return turn_;
  }
  turn_ += 1;
  waiting_  = 1;
  recorded_ = false;
  wakes_    = {std::move(wake)};
  load_.reset();
  record_ = loads_.started(whole_.instance, now(), initial);
  // Starting the load may let the other engines run (and join) before it returns.
  load_ = source_.load(whole_, [this] { changed(); });
  changed();  // in case it is over already
  return turn_;
}

void WeightShare::changed()
{
  if (!load_ || !load_->over())
    return;
  if (!recorded_)
    loads_.completed(record_, now(), whole_.weight_B, load_->source());
  recorded_ = true;
  for (const auto& wake : wakes_)
    wake();
}

void WeightShare::leave(Turn turn, bool abandoned)
{
  if (turn != turn_ || over(turn))
    return;
  waiting_ -= 1;
  if (waiting_ > 0)
    return;
  const std::string source = load_ ? load_->source() : std::string();
  if (load_)
    load_->cancel();
  if (abandoned)
    loads_.abandoned(record_, now(), source);
  else
    loads_.interrupted(record_, now(), source);
  recorded_ = true;
}

}  // namespace llsim
