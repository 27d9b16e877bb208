// The integral over time of a level that moves in steps (bytes stored): byte-seconds for a
// storage price per TB-month. Times must not go backwards.
#pragma once

namespace llsim {

class LevelIntegral {
 public:
  void change(double now_s, double delta)
  {
    advance(now_s);
    level_ += delta;
  }
  double level() const { return level_; }
  // The area under the level from time 0 until `end_s` (the level held after the last change).
  double integral(double end_s) const { return area_ + level_ * (end_s > last_s_ ? end_s - last_s_ : 0); }

 private:
  void advance(double now_s)
  {
    if (now_s > last_s_) {
      area_ += level_ * (now_s - last_s_);
      last_s_ = now_s;
    }
  }
  double level_ = 0, last_s_ = 0, area_ = 0;
};

}  // namespace llsim
