#include "sim/serve/weights/weight_pool.hpp"

#include "sim/core/text.hpp"
#include "sim/faults/host_faults.hpp"
#include "sim/sg/actors.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/wait_point.hpp"
#include "sim/svc/memory_pool.hpp"
#include "sim/svc/storage.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

XBT_LOG_EXTERNAL_CATEGORY(llsim_serve);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_serve_weight_pool, llsim_serve, "weights cached in a memory pool");

namespace llsim {

class PoolWeights::Load : public WeightLoad {
 public:
  explicit Load(std::function<void()> changed)
      : changed_(std::move(changed))
  {}
  bool over() const override { return over_; }
  void cancel() override
  {
    cancelled_ = true;
    if (inner_)
      inner_->cancel();
  }
  const std::string& source() const override { return source_; }
  bool cancelled() const { return cancelled_; }
  void set_source(std::string s) { source_ = std::move(s); }
  void set_inner(std::shared_ptr<WeightLoad> inner) { inner_ = std::move(inner); }
  void finish()
  {
    over_ = true;
    changed_();
  }

 private:
  std::function<void()> changed_;
  std::shared_ptr<WeightLoad> inner_;  // the read from fill_from
  std::string source_;
  bool over_ = false, cancelled_ = false;
};

// The pieces being moved by one load or fill: workers take the next one until none is left or
// one failed.
struct PoolWeights::Pieces {
  size_t next = 0, count = 0, workers_left = 0;
  bool failed = false;
  WaitPoint done;
};

PoolWeights::PoolWeights(MemoryPool& pool, StorageService& fill, std::string path, const ReadShape& shape,
                         std::string label)
    : pool_(pool)
    , fill_(fill)
    , path_(std::move(path))
    , label_(std::move(label))
    , shape_(shape)
{}

PoolWeights::~PoolWeights() = default;

void PoolWeights::start(const Platform& platform, HostFaults& faults)
{
  platform_ = &platform;
  faults_   = &faults;
}

std::string PoolWeights::key(size_t piece, double weight_B) const
{
  return "weights/" + path_ + "/" + format_number(weight_B) + "/" + format_number(shape_.chunk_B) + "/" +
         std::to_string(piece);
}

size_t PoolWeights::pieces(double weight_B) const
{
  return static_cast<size_t>(std::ceil(weight_B / shape_.chunk_B));
}

double PoolWeights::piece_B(size_t piece, double weight_B) const
{
  return std::min(shape_.chunk_B, weight_B - static_cast<double>(piece) * shape_.chunk_B);
}

bool PoolWeights::pool_holds_all(double weight_B) const
{
  for (size_t i = 0; i < pieces(weight_B); ++i)
    if (!pool_.holds(key(i, weight_B)))
      return false;
  return true;
}

std::shared_ptr<WeightLoad> PoolWeights::load(const WeightTarget& t, std::function<void()> changed)
{
  auto load = std::make_shared<Load>(std::move(changed));
  start_actor(*platform_, t.host, "weights-" + std::to_string(t.instance), label_, [this, load, t] { fetch(load, t); });
  return load;
}

void PoolWeights::fetch(const std::shared_ptr<Load>& load, const WeightTarget& t)
{
  if (load->cancelled())
    return;
  if (pool_holds_all(t.weight_B)) {
    load->set_source(pool_.name());
    if (move_pieces(t, false, [&load] { return load->cancelled(); }) && !load->cancelled()) {
      load->finish();
      return;
    }
    if (load->cancelled() || faults_->is_down(t.host, now()))
      return;
    XBT_DEBUG("instance %d: a piece of the weights left '%s' during the load: reads them from '%s'", t.instance,
              pool_.name().c_str(), fill_.name().c_str());
  }
  load->set_source(fill_.name() + " (" + pool_.name() + " lacked them)");
  auto waker    = std::make_shared<WaitPoint>();
  auto finished = std::make_shared<bool>(false);
  auto inner    = read_weights(fill_, path_, load->source(), t, shape_, [waker, finished](bool over) {
    *finished = over;
    waker->notify_all();
  });
  load->set_inner(inner);
  waker->wait_until([&] { return *finished || load->cancelled(); }, faults_->next_failure(t.host, now()));
  if (!*finished || load->cancelled()) {
    inner->cancel();  // also when the cancel came while the read was starting
    return;
  }
  load->finish();
  fill(t);
}

void PoolWeights::fill(const WeightTarget& t)
{
  if (filling_ || pool_holds_all(t.weight_B))  // another instance fills it, or filled it meanwhile
    return;
  filling_ = true;
  // Incomplete (and not completed by another meanwhile), the set is of no use: its pieces go.
  if (!move_pieces(t, true, [this] { return stopped_; }) && !pool_holds_all(t.weight_B)) {
    XBT_DEBUG("instance %d: the fill of '%s' did not complete: its pieces are dropped", t.instance,
              pool_.name().c_str());
    for (size_t i = 0; i < pieces(t.weight_B); ++i)
      pool_.evict(key(i, t.weight_B));
  }
  filling_ = false;
}

bool PoolWeights::move_pieces(const WeightTarget& t, bool put, const std::function<bool()>& stop)
{
  auto state           = std::make_shared<Pieces>();
  state->count         = pieces(t.weight_B);
  state->workers_left  = std::min(state->count, shape_.in_flight * static_cast<size_t>(t.ranks));
  const size_t workers = state->workers_left;
  for (size_t w = 0; w < workers; ++w)
    start_actor(*platform_, t.host, "weight-piece-" + std::to_string(w), label_, [this, state, t, put, stop] {
      while (!state->failed && state->next < state->count && !stop()) {
        const size_t piece   = state->next++;
        const double until   = faults_->next_failure(t.host, now());
        const double bytes   = piece_B(piece, t.weight_B);
        const PoolResult got = put ? pool_.put(t.host, key(piece, t.weight_B), bytes, until)
                                   : pool_.get(t.host, key(piece, t.weight_B), until);
        state->failed        = state->failed || got != (put ? PoolResult::Stored : PoolResult::Hit);
      }
      state->workers_left -= 1;
      state->done.notify_all();
    });
  state->done.wait_until([&state] { return state->workers_left == 0; }, std::numeric_limits<double>::infinity());
  return !state->failed && state->next >= state->count;  // every piece moved, even if stopped meanwhile
}

}  // namespace llsim
