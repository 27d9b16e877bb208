// Estimates routers make of an instance's time to a new request's first token, with the phase's
// iteration model: the prefill of `tokens` after `context` tokens of cached or computed prefix,
// and of every prompt an instance has queued or running, prompt by prompt.
#pragma once
#include <cstdint>

namespace llsim {

class Batcher;
class IterationModel;

double prefill_seconds(const IterationModel& model, int64_t tokens, int64_t context);
double queued_prefill_seconds(const IterationModel& model, const Batcher& batcher);

}  // namespace llsim
