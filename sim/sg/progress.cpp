#include "sim/sg/progress.hpp"

#include "sim/core/progress_board.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <cstdio>

namespace llsim {

ProgressLine::ProgressLine()
    : started_(std::chrono::steady_clock::now())
    , last_print_(started_)
{
  // SimGrid signals cannot be disconnected in 3.32; this object lives until the process ends
  // its single simulation, so the callback never outlives it in practice.
  simgrid::s4u::Engine::on_time_advance_cb([this](double) { on_event(simgrid::s4u::Engine::get_clock()); });
}

ProgressLine::~ProgressLine()
{
  if (printed_)
    std::fprintf(stderr, "\r%100s\r", "");
}

void ProgressLine::on_event(double now)
{
  ++steps_;
  const auto wall = std::chrono::steady_clock::now();
  if (wall - started_ < std::chrono::seconds(1) || wall - last_print_ < std::chrono::milliseconds(500))
    return;
  last_print_             = wall;
  printed_                = true;
  const double elapsed    = std::chrono::duration<double>(wall - started_).count();
  const std::string board = ProgressBoard::text();
  std::fprintf(stderr, "\r[llsim] simulated %.3f s, %.0f time steps/s, %.0f s wall%s%s   ", now,
               static_cast<double>(steps_) / elapsed, elapsed, board.empty() ? "" : "; ", board.c_str());
  std::fflush(stderr);
}

}  // namespace llsim
