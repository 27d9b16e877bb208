#include "sim/serve/weights/weight_peers.hpp"

#include "sim/faults/host_faults.hpp"
#include "sim/sg/activities.hpp"
#include "sim/sg/actors.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/wait_point.hpp"
#include "sim/svc/storage.hpp"

#include <algorithm>

XBT_LOG_EXTERNAL_CATEGORY(llsim_serve);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_serve_weight_peers, llsim_serve, "weights sent between serving instances");

namespace llsim {

class PeerWeights::Load : public WeightLoad {
 public:
  Load(std::function<void()> changed, std::function<void()> cancelled)
      : changed_(std::move(changed))
      , on_cancel_(std::move(cancelled))
  {}
  bool over() const override { return over_; }
  void cancel() override
  {
    cancelled_ = true;
    on_cancel_();
  }
  const std::string& source() const override { return source_; }
  bool cancelled() const { return cancelled_; }
  void set_source(std::string s) { source_ = std::move(s); }
  void finish()
  {
    over_ = true;
    changed_();
  }

 private:
  std::function<void()> changed_, on_cancel_;
  std::string source_ = "peers";
  bool over_ = false, cancelled_ = false;
};

PeerWeights::PeerWeights(StorageService& fill, std::string path, const ReadShape& shape, std::string label)
    : fill_(fill)
    , path_(std::move(path))
    , label_(std::move(label))
    , shape_(shape)
{}

PeerWeights::~PeerWeights() = default;

void PeerWeights::start(const Platform& platform, HostFaults& faults)
{
  platform_ = &platform;
  faults_   = &faults;
  changed_  = std::make_unique<WaitPoint>();
}

void PeerWeights::changed()
{
  generation_ += 1;
  changed_->notify_all();
}

void PeerWeights::holds(int instance, HostId host, std::function<bool()> serving)
{
  if (std::none_of(holders_.begin(), holders_.end(), [instance](const Holder& h) { return h.instance == instance; }))
    holders_.push_back({instance, host, std::move(serving)});
  seeding_ = false;  // a holder now: nobody needs to read them from storage
  changed();
}

std::shared_ptr<WeightLoad> PeerWeights::load(const WeightTarget& t, std::function<void()> changed)
{
  auto load = std::make_shared<Load>(std::move(changed), [this] { this->changed(); });
  start_actor(*platform_, t.host, "weights-" + std::to_string(t.instance), label_, [this, load, t] { fetch(load, t); });
  return load;
}

void PeerWeights::fetch(const std::shared_ptr<Load>& load, const WeightTarget& t)
{
  while (!load->cancelled() && !faults_->is_down(t.host, now())) {
    Holder* free = nullptr;
    bool any     = false;
    for (Holder& h : holders_)
      if (h.serving() && h.host != t.host) {  // not an instance on the same host: that is no copy
        any  = true;
        free = free == nullptr && !h.sending ? &h : free;
      }
    if (free != nullptr) {
      const size_t k     = static_cast<size_t>(free - holders_.data());
      const HostId from  = free->host;
      const double until = std::min(faults_->next_failure(from, now()), faults_->next_failure(t.host, now()));
      load->set_source("peer instance " + std::to_string(free->instance));
      holders_[k].sending = true;
      // In pieces of `chunk` bytes, so that a cancelled copy stops at the next piece.
      bool arrived = true;
      for (double sent = 0; arrived && sent < t.weight_B && !load->cancelled(); sent += shape_.chunk_B)
        arrived = transfer(*platform_, from, t.host, std::min(shape_.chunk_B, t.weight_B - sent), until);
      holders_[k].sending = false;
      changed();
      if (load->cancelled())
        return;
      if (arrived) {
        load->finish();
        return;
      }
      XBT_DEBUG("instance %d: peer instance %d failed while sending its weights", t.instance, holders_[k].instance);
      continue;
    }
    if (!any && !seeding_) {
      if (seed(load, t))
        return;
      continue;
    }
    const uint64_t seen = generation_;
    changed_->wait_until([this, seen, &load] { return generation_ != seen || load->cancelled(); },
                         faults_->next_failure(t.host, now()));
  }
}

bool PeerWeights::seed(const std::shared_ptr<Load>& load, const WeightTarget& t)
{
  seeding_  = true;
  bool over = false;
  load->set_source(fill_.name() + " (no peer held them)");
  auto inner = read_weights(fill_, path_, load->source(), t, shape_, [&](bool o) {
    over = o;
    changed();
  });
  changed_->wait_until([&] { return over || load->cancelled(); }, faults_->next_failure(t.host, now()));
  inner->cancel();
  if (over && !load->cancelled()) {
    load->finish();  // it stays the seeder until it holds them (holds())
    return true;
  }
  seeding_ = false;
  changed();
  return false;
}

}  // namespace llsim
