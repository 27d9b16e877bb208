#include "sim/serve/engine/batcher.hpp"

#include "sim/sg/log.hpp"

#include <algorithm>
#include <stdexcept>

XBT_LOG_EXTERNAL_CATEGORY(llsim_serve);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_serve_batcher, llsim_serve, "admission and preemption on a serving instance");

namespace llsim {

Batcher::Batcher(const BatcherConfig& config, InstanceRole role)
    : config_(config)
    , role_(role)
    , kv_({config.kv_blocks, config.block_size, config.watermark_blocks, config.prefix_caching,
           config.hash_block_tokens})
    , swap_(config.swap_blocks)
{
  if (!config_.scheduler)
    throw std::invalid_argument("a batcher needs a batch scheduler");
}

bool Batcher::fits(int64_t prompt, int64_t total) const
{
  return blocks_for(prompt) <= config_.kv_blocks - config_.watermark_blocks && blocks_for(total) <= config_.kv_blocks &&
         (config_.max_model_len == 0 || (prompt < config_.max_model_len && total <= config_.max_model_len));
}

void Batcher::add(const SeqArrival& a)
{
  Sequence s;
  s.a        = a;
  s.prompt   = a.input_tokens;
  s.computed = std::min(a.cached_tokens, a.input_tokens);
  seqs_.emplace(a.id, s);
  waiting_.push_back(a.id);
}

void Batcher::for_each_unfinished_prompt(const std::function<void(int64_t, int64_t)>& f) const
{
  const auto visit = [&](int64_t id) {
    const Sequence& s = seqs_.at(id);
    if (s.computed < s.prompt)
      f(s.computed, s.prompt - s.computed);
  };
  for (const Sequence* s : running_)
    visit(s->a.id);
  for (int64_t id : waiting_)
    visit(id);
}

// A prompt admitted from the queue: its tokens spared by the prefix cache, and, the first time,
// its hit as the request's (a hit on blocks it cached itself before a preemption is not one).
void Batcher::count_hits(Sequence& s)
{
  prefix_hit_tokens_ += static_cast<double>(s.hit_tokens);
  if (s.first_hit_blocks < 0)
    s.first_hit_blocks = s.hit_blocks;
}

// Running sequences are kept in arrival order (ids are given in arrival order), as vLLM sorts
// them by priority, so that the victim of a preemption is the latest arrival, not a sequence
// that was just readmitted after its own preemption.
void Batcher::admit(Sequence& s)
{
  const auto after = [](int64_t id, const Sequence* other) { return id < other->a.id; };
  running_.insert(std::upper_bound(running_.begin(), running_.end(), s.a.id, after), &s);
}

void Batcher::preempt_last()
{
  Sequence& s      = *running_.back();
  const int64_t id = s.a.id;
  running_.pop_back();
  s.step = 0;
  preemptions_ += 1;
  if (swap_out(id, s))
    return;
  recompute(id, s, true);
  XBT_DEBUG("preempts request %ld (the latest arrival) to recompute %ld tokens: KV blocks %ld free of %ld",
            static_cast<long>(id), static_cast<long>(s.prompt), static_cast<long>(kv_.free()),
            static_cast<long>(kv_.total()));
}

void Batcher::release_to_cache(Sequence& s, bool kv_in_hbm)
{
  // The prompt's whole blocks computed so far stay in the prefix cache, as vLLM's freed blocks do
  // until another sequence takes them (blocks of generated tokens carry no hash here).
  kv_.release(s.blocks);
  if (kv_in_hbm && s.a.hash_ids != nullptr) {
    const auto whole =
        static_cast<size_t>(std::min(s.computed, s.a.input_tokens) / std::max<int64_t>(1, config_.hash_block_tokens));
    const auto& ids = *s.a.hash_ids;
    kv_.remember({ids.begin(), ids.begin() + static_cast<long>(std::min(whole, ids.size()))});
  }
}

void Batcher::recompute(int64_t id, Sequence& s, bool kv_in_hbm)
{
  release_to_cache(s, kv_in_hbm);
  s.recompute_upto = std::max(s.recompute_upto, s.computed);
  s.prompt         = s.a.input_tokens + s.a.generated;
  s.computed       = 0;
  s.hit_blocks     = 0;  // looked up again when it is admitted again
  s.hit_tokens     = 0;
  waiting_.push_front(id);
}

// Whole prefix blocks cached; the tokens skipped are fewer when they would cover the prompt's
// last token, which is always computed (it gives the first output token).
int64_t Batcher::cached_prefix(const Sequence& s)
{
  return s.a.hash_ids == nullptr ? 0 : cached_blocks(*s.a.hash_ids);
}

std::vector<int64_t> Batcher::drop_all(BatchListener& listener)
{
  for (auto& entry : seqs_)
    tell_untold_tokens(entry.second, listener);
  std::vector<int64_t> ids = sequence_ids();
  XBT_DEBUG("drops %zu requests and the prefix cache", ids.size());
  seqs_.clear();
  running_.clear();
  waiting_.clear();
  swap_.reset();
  batch_.clear();
  kv_.reset();
  return ids;
}

std::vector<int64_t> Batcher::sequence_ids() const
{
  std::vector<int64_t> ids;
  for (const auto& entry : seqs_)
    ids.push_back(entry.first);
  std::sort(ids.begin(), ids.end());
  return ids;
}

void Batcher::abort(const std::vector<int64_t>& ids, BatchListener& listener)
{
  for (int64_t id : ids) {
    Sequence& s = seqs_.at(id);
    tell_untold_tokens(s, listener);
    release_to_cache(s, swap_.blocks_of(id) == 0);  // a swapped-out sequence holds no HBM blocks
    swap_.drop(id);
    running_.erase(std::remove(running_.begin(), running_.end(), &s), running_.end());
    waiting_.erase(std::remove(waiting_.begin(), waiting_.end(), id), waiting_.end());
    seqs_.erase(id);
  }
  kv_.trim();
}

void Batcher::forget_cache()
{
  kv_.forget();
}

BatchWork Batcher::plan_steady()
{
  batch_.clear();
  BatchWork w;
  swap_.new_iteration();
  schedule_decodes(w);
  w.swapped_blocks = swap_.moved_blocks();
  return w;
}

BatchWork Batcher::plan()
{
  swap_.new_iteration();
  BatchWork w = plan_once();
  while (w.empty() && !running_.empty()) {
    preempt_last();
    w = plan_once();
  }
  w.swapped_blocks = swap_.moved_blocks();
  return w;
}

BatchWork Batcher::plan_once()
{
  batch_.clear();
  preempted_now_ = false;  // set by schedule_decodes, which a whole-prompt prefill skips
  BatchWork w;
  config_.scheduler->plan(*this, w);
  kv_.trim();
  return w;
}

bool Batcher::held_by_memory() const
{
  if (!swap_.empty() || preempted_now_)
    return true;
  if (waiting_.empty() || running() >= config_.max_batch_size)
    return false;
  const Sequence& s = seqs_.at(waiting_.front());
  if (s.computed >= s.prompt)  // decode-ready: needs the block of its next token
    return blocks_for(s.computed + 1) - s.blocks > kv_.free();
  return !kv_.admits(blocks_for(s.prompt) - s.blocks);
}

// Sequences whose prompt KV is already here (handed to a decode instance) join the decodes.
void Batcher::admit_decode_ready()
{
  while (!waiting_.empty() && running() < config_.max_batch_size) {
    Sequence& s = seqs_.at(waiting_.front());
    if (s.computed < s.prompt || !grow(s, s.computed + 1))
      break;
    XBT_DEBUG("admits request %ld to decode (%ld tokens of KV received): KV blocks %ld taken, %ld free of %ld",
              static_cast<long>(waiting_.front()), static_cast<long>(s.computed), static_cast<long>(s.blocks),
              static_cast<long>(kv_.free()), static_cast<long>(kv_.total()));
    admit(s);
    waiting_.pop_front();
  }
}

void Batcher::schedule_decodes(BatchWork& w)
{
  const double before = preemptions_;
  for (size_t i = 0; i < running_.size(); ++i) {
    Sequence& s = *running_[i];
    if (s.computed < s.prompt)
      continue;
    bool kept = true;
    while (kept && !grow(s, s.computed + 1)) {
      kept = running_.back() != &s;
      preempt_last();
    }
    if (!kept)
      break;
    take(s, 1, w);
  }
  preempted_now_ = preemptions_ > before;
}

void Batcher::take(Sequence& s, int64_t tokens, BatchWork& w)
{
  grow(s, s.computed + tokens);
  s.step = tokens;
  batch_.push_back(&s);
  if (s.computed >= s.prompt)
    w.add_decode(s.computed);
  else
    w.add_prefill(s.computed, tokens);
}

// Looks the waiting sequence at the front up in the prefix cache each time it is considered, as
// vLLM does when it allocates its blocks: blocks evicted while it waited are no hits.
void Batcher::apply_prefix_cache(Sequence& s)
{
  if (s.computed != s.hit_tokens)
    return;  // KV of its own already there (received or loaded): no prompt to look up
  s.hit_blocks = cached_prefix(s);
  s.hit_tokens = std::min(s.hit_blocks * config_.hash_block_tokens, s.prompt - 1);
  s.computed   = s.hit_tokens;
}

void Batcher::schedule_chunks(BatchWork& w)
{
  int64_t budget = config_.max_batch_tokens - w.decodes;
  // A chunk of at most `budget` tokens that the free blocks can hold; 0 when none.
  const auto chunk_of = [&](const Sequence& s) {
    const int64_t room = (s.blocks + kv_.free()) * kv_.block_size() - s.computed;
    return std::max<int64_t>(0, std::min({s.prompt - s.computed, config_.prefill_chunk, budget, room}));
  };
  for (Sequence* running : running_) {
    Sequence& s = *running;
    if (s.computed >= s.prompt || s.step > 0 || budget <= 0)
      continue;
    if (const int64_t chunk = chunk_of(s); chunk > 0) {
      take(s, chunk, w);
      budget -= chunk;
    }
  }
  // After a preemption nothing new is admitted in the same iteration (as vLLM does): a victim
  // readmitted at once would only be preempted again. Nor while sequences wait swapped out.
  while (!preempted_now_ && swap_.empty() && !waiting_.empty() && budget > 0 && running() < config_.max_batch_size) {
    const int64_t id = waiting_.front();
    Sequence& s      = seqs_.at(id);
    if (s.computed >= s.prompt)
      break;  // decode-ready, waits for blocks
    apply_prefix_cache(s);
    // The whole prompt's blocks are taken on admission (vLLM allocates them then; chunks only
    // split its compute), so a sequence is not let in to be preempted halfway through its prompt.
    if (!kv_.admits(blocks_for(s.prompt) - s.blocks) || !grow(s, s.prompt))
      break;
    XBT_DEBUG("admits request %ld: %ld prompt tokens, %ld from %ld cached prefix blocks; KV blocks %ld taken, %ld "
              "free of %ld",
              static_cast<long>(id), static_cast<long>(s.prompt), static_cast<long>(s.computed),
              static_cast<long>(s.hit_blocks), static_cast<long>(s.blocks), static_cast<long>(kv_.free()),
              static_cast<long>(kv_.total()));
    const int64_t chunk = chunk_of(s);
    waiting_.pop_front();
    count_hits(s);
    admit(s);
    take(s, chunk, w);
    budget -= chunk;
  }
}

// Without chunking (vLLM before chunked prefill): waiting prompts are prefilled whole, in an
// iteration of their own, up to max_batch_tokens (a longer prompt runs alone).
void Batcher::prefill_whole_prompts(BatchWork& w)
{
  int64_t longest = 0;
  while (swap_.empty() && !waiting_.empty() && running() < config_.max_batch_size) {
    const int64_t id = waiting_.front();
    Sequence& s      = seqs_.at(id);
    if (s.computed >= s.prompt)
      break;
    apply_prefix_cache(s);
    const int64_t need   = s.prompt - s.computed;
    const int64_t tokens = config_.padded_budget ? (w.prefills + 1) * std::max(longest, need) : w.prefill_tokens + need;
    if ((!w.empty() && tokens > config_.max_batch_tokens) || !kv_.admits(blocks_for(s.prompt) - s.blocks))
      break;
    XBT_DEBUG("admits request %ld whole: %ld prompt tokens, %ld from %ld cached prefix blocks; KV blocks %ld needed, "
              "%ld free of %ld",
              static_cast<long>(id), static_cast<long>(s.prompt), static_cast<long>(s.computed),
              static_cast<long>(s.hit_blocks), static_cast<long>(blocks_for(s.prompt) - s.blocks),
              static_cast<long>(kv_.free()), static_cast<long>(kv_.total()));
    waiting_.pop_front();
    count_hits(s);
    admit(s);
    take(s, need, w);
    longest = std::max(longest, need);
  }
}

int64_t Batcher::oldest_unreported() const
{
  int64_t oldest = iterations_;
  for (const auto& entry : seqs_)
    if (entry.second.unreported > 0)
      oldest = std::min(oldest, entry.second.unreported_from);
  return oldest;
}

void Batcher::complete(BatchListener& listener)
{
  const int64_t iteration = iterations_++;
  std::vector<int64_t> gone;
  for (Sequence* in_batch : batch_) {
    Sequence& s      = *in_batch;
    const int64_t id = s.a.id;
    // Tokens computed again: those below what was computed before a preemption (added only when
    // some are: a sum carried through every sequence of every iteration costs more than the test).
    if (const int64_t again = std::min(s.computed + s.step, s.recompute_upto) - s.computed; again > 0)
      recomputed_tokens_ += static_cast<double>(again);
    s.computed += s.step;
    s.step = 0;
    if (s.computed < s.prompt)
      continue;  // a prompt chunk that did not end the prompt
    s.recompute_upto = 0;
    s.a.generated += 1;
    if (s.a.generated > 1) {
      add_untold_tokens(s, iteration, 1, listener);
    } else {
      if (s.first_hit_blocks > 0)
        listener.prefix_hit(id, s.first_hit_blocks);
      listener.first_token(id);
    }
    const bool done     = s.a.generated >= s.a.output_tokens;
    const bool hand_off = role_ == InstanceRole::PrefillOnly && !done;
    if (!done && !hand_off)
      continue;
    tell_untold_tokens(s, listener);
    kv_.release(s.blocks);
    if (s.a.hash_ids != nullptr)
      kv_.remember(*s.a.hash_ids);
    s.ended = true;
    gone.push_back(id);
    if (done)
      listener.finished(id);
    else
      listener.handed_off(id);
  }
  batch_.clear();
  if (gone.empty())
    return;
  running_.erase(std::remove_if(running_.begin(), running_.end(), [](const Sequence* s) { return s->ended; }),
                 running_.end());
  for (int64_t id : gone)
    seqs_.erase(id);
  kv_.trim();
}

void Batcher::swap_failed(int64_t id, BatchWork& w)
{
  Sequence& s           = seqs_.at(id);
  const auto in_batch   = std::find(batch_.begin(), batch_.end(), &s);
  const auto is_running = std::find(running_.begin(), running_.end(), &s);
  swap_.drop(id);
  if (in_batch != batch_.end()) {  // it had rejoined the decodes: one token on its context
    batch_.erase(in_batch);
    w.decodes -= 1;
    w.decode_context -= static_cast<double>(s.computed + 1);
    s.step = 0;
  }
  if (is_running != running_.end())
    running_.erase(is_running);
  recompute(id, s, false);
  kv_.trim();
  XBT_DEBUG("recomputes request %ld (%ld tokens): its swapped KV did not arrive", static_cast<long>(id),
            static_cast<long>(s.prompt));
}

// A decoding sequence's KV goes to the swap space when the space holds it.
bool Batcher::swap_out(int64_t id, Sequence& s)
{
  const int64_t blocks = blocks_for(s.computed);
  if (!swap_.enabled() || s.computed < s.prompt || !swap_.fits(blocks))
    return false;
  kv_.release(s.blocks);
  swap_.put(id, blocks);
  XBT_DEBUG("swaps request %ld (the latest arrival) out: %ld KV blocks", static_cast<long>(id),
            static_cast<long>(blocks));
  return true;
}

// Swapped sequences come back, earliest arrival first, while their blocks (and the next
// token's) are free, and join this iteration's decodes.
void Batcher::swap_in(BatchWork& w)
{
  while (!swap_.empty() && running() < config_.max_batch_size && w.decodes < config_.max_batch_tokens) {
    const int64_t id = swap_.front();
    Sequence& s      = seqs_.at(id);
    // The watermark keeps room for running sequences; with none running it would only stall.
    if (blocks_for(s.computed + 1) > kv_.free() - (running_.empty() ? 0 : kv_.watermark()))
      break;
    swap_.take_front();
    grow(s, s.computed);
    admit(s);
    take(s, 1, w);
  }
}

}  // namespace llsim
