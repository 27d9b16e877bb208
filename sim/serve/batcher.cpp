#include "sim/serve/batcher.hpp"

#include <algorithm>

namespace llsim {

Batcher::Batcher(const BatcherConfig& config, InstanceRole role)
    : config_(config), role_(role), free_blocks_(config.kv_blocks)
{
  if (config_.prefix_caching)
    cache_ = std::make_unique<LruBlockCache>(0);
}

bool Batcher::fits(int64_t tokens) const
{
  return blocks_for(tokens) <= config_.kv_blocks;
}

void Batcher::add(const SeqArrival& a)
{
  Seq s;
  s.a        = a;
  s.prompt   = a.input_tokens;
  s.computed = std::min(a.cached_tokens, a.input_tokens);
  seqs_.emplace(a.id, s);
  waiting_.push_back(a.id);
}

int64_t Batcher::queued_prompt_tokens() const
{
  int64_t n = 0;
  for (int64_t id : waiting_) {
    const Seq& s = seqs_.at(id);
    n += s.prompt - s.computed;
  }
  for (int64_t id : running_) {
    const Seq& s = seqs_.at(id);
    n += std::max<int64_t>(0, s.prompt - s.computed);
  }
  return n;
}

bool Batcher::grow(Seq& s, int64_t tokens)
{
  const int64_t need = blocks_for(tokens) - s.blocks;
  if (need <= 0)
    return true;
  if (need > free_blocks_)
    return false;
  free_blocks_ -= need;
  s.blocks += need;
  return true;
}

void Batcher::release(Seq& s)
{
  free_blocks_ += s.blocks;
  s.blocks = 0;
}

void Batcher::preempt_last()
{
  const int64_t id = running_.back();
  running_.pop_back();
  Seq& s = seqs_.at(id);
  release(s);
  s.prompt   = s.a.input_tokens + s.a.generated;
  s.computed = 0;
  s.step     = 0;
  waiting_.push_front(id);
  preemptions_ += 1;
}

int64_t Batcher::cached_prefix(const Seq& s)
{
  if (!cache_ || s.a.hash_ids == nullptr)
    return 0;
  const auto blocks = static_cast<int64_t>(cache_->cached_prefix(*s.a.hash_ids));
  return std::min(blocks * config_.hash_block_tokens, s.prompt - 1);  // the last token is always computed
}

void Batcher::trim_cache()
{
  if (cache_)
    cache_->set_capacity(static_cast<size_t>(free_blocks_ * config_.block_size /
                                             config_.hash_block_tokens));
}

BatchWork Batcher::plan()
{
  BatchWork w = plan_once();
  while (w.empty() && !running_.empty()) {
    preempt_last();
    w = plan_once();
  }
  return w;
}

BatchWork Batcher::plan_once()
{
  batch_.clear();
  BatchWork w;
  // Sequences whose prompt KV is already here (handed to a decode instance) join the decodes.
  while (!waiting_.empty() && running() < config_.max_batch_size) {
    Seq& s = seqs_.at(waiting_.front());
    if (s.computed < s.prompt || !grow(s, s.computed + 1))
      break;
    running_.push_back(waiting_.front());
    waiting_.pop_front();
  }
  for (size_t i = 0; i < running_.size(); ++i) {
    const int64_t id = running_[i];
    Seq& s           = seqs_.at(id);
    if (s.computed < s.prompt)
      continue;
    bool kept = true;
    while (kept && !grow(s, s.computed + 1)) {
      kept = running_.back() != id;
      preempt_last();
    }
    if (!kept)
      break;
    s.step = 1;
    batch_.push_back(id);
    w.add_decode(s.computed);
  }
  int64_t budget = config_.max_batch_tokens - w.decodes;
  // A chunk of at most `budget` tokens that the free blocks can hold; 0 when none.
  const auto chunk_of = [&](const Seq& s) {
    const int64_t room = (s.blocks + free_blocks_) * config_.block_size - s.computed;
    return std::max<int64_t>(0, std::min({s.prompt - s.computed, config_.prefill_chunk, budget, room}));
  };
  const auto take = [&](int64_t id, Seq& s, int64_t chunk) {
    grow(s, s.computed + chunk);
    s.step = chunk;
    batch_.push_back(id);
    w.add_prefill(s.computed, chunk);
    budget -= chunk;
  };
  for (int64_t id : running_) {
    Seq& s = seqs_.at(id);
    if (s.computed >= s.prompt || budget <= 0)
      continue;
    if (const int64_t chunk = chunk_of(s); chunk > 0)
      take(id, s, chunk);
  }
  while (!waiting_.empty() && budget > 0 && running() < config_.max_batch_size) {
    const int64_t id = waiting_.front();
    Seq& s           = seqs_.at(id);
    if (s.computed >= s.prompt)
      break;  // decode-ready, waits for blocks above
    const int64_t hit = cached_prefix(s);
    if (hit > s.computed)
      prefix_hit_tokens_ += static_cast<double>(hit - s.computed);
    s.computed        = std::max(s.computed, hit);
    const int64_t chunk = chunk_of(s);
    if (chunk <= 0)
      break;
    waiting_.pop_front();
    running_.push_back(id);
    take(id, s, chunk);
  }
  trim_cache();
  return w;
}

void Batcher::complete(BatchListener& listener)
{
  std::vector<int64_t> gone;
  for (int64_t id : batch_) {
    Seq& s = seqs_.at(id);
    s.computed += s.step;
    s.step = 0;
    if (s.computed < s.prompt)
      continue;  // a prompt chunk that did not end the prompt
    s.a.generated += 1;
    listener.token(id, s.a.generated == 1);
    const bool done    = s.a.generated >= s.a.output_tokens;
    const bool hand_off = role_ == InstanceRole::PrefillOnly && !done;
    if (!done && !hand_off)
      continue;
    if (cache_ && s.a.hash_ids != nullptr)
      cache_->use(*s.a.hash_ids);
    release(s);
    gone.push_back(id);
    if (done)
      listener.finished(id);
    else
      listener.handed_off(id);
  }
  batch_.clear();
  if (gone.empty())
    return;
  for (int64_t id : gone)
    seqs_.erase(id);
  running_.erase(std::remove_if(running_.begin(), running_.end(), [this](int64_t id) { return seqs_.count(id) == 0; }),
                 running_.end());
  trim_cache();
}

}  // namespace llsim
