#include "sim/train/io_path.hpp"

#include "sim/run/actors.hpp"

#include <algorithm>
#include <cmath>

namespace sg4 = simgrid::s4u;

namespace llsim {

namespace {

struct PieceRef {
  size_t writer;
  size_t piece;
};

// One forwarding node's server. A piece is one I/O stream of a writer, moved as requests of
// `request_B`. A request's network stage runs its two hops at once (node <-> forwarding node,
// forwarding node <-> storage server): the server forwards while it receives (cut-through), so
// the slower hop sets the pace. A request holds one of the server's `threads` from its first
// stage to its last, OST write or read included (the server answers a request once it is on
// disk), so slow OSTs hold threads. A writing stream issues its next request as
// soon as its node has sent the previous one (write-behind); a reading stream keeps up to
// kReadAhead requests in flight (read-ahead). A metadata operation (create or open) also holds a
// thread. Streams take turns.
class ForwardingServer {
 public:
  ForwardingServer(size_t index, std::vector<PieceRef> pieces, const IoPlan& plan, IoDirection direction,
                   const IoPath& path, TimeSeries& counters)
      : index_(index), plan_(plan), direction_(direction), path_(path), counters_(counters)
  {
    for (const auto& ref : pieces)
      streams_.push_back({ref, plan.writers[ref.writer].pieces[ref.piece].bytes, false, false, 0, false, nullptr});
  }

  void operator()()
  {
    std::vector<sg4::ActivityPtr> pending;
    std::vector<std::pair<long, int>> owner;  // (request, which activity) or (-1 - stream, metadata)
    while (true) {
      start_requests();
      pending.clear();
      owner.clear();
      for (size_t s = 0; s < streams_.size(); ++s)
        if (streams_[s].metadata) {
          pending.push_back(streams_[s].metadata);
          owner.emplace_back(-1 - static_cast<long>(s), 0);
        }
      for (size_t r = 0; r < requests_.size(); ++r)
        for (int k = 0; k < 3; ++k)
          if (requests_[r].activity[k]) {
            pending.push_back(requests_[r].activity[k]);
            owner.emplace_back(static_cast<long>(r), k);
          }
      if (pending.empty())
        return;
      const auto [who, which] = owner[static_cast<size_t>(sg4::Activity::wait_any(pending))];
      if (who < 0)
        opened(streams_[static_cast<size_t>(-1 - who)]);
      else if (finished(requests_[static_cast<size_t>(who)], which))
        requests_.erase(requests_.begin() + who);
    }
  }

 private:
  enum Activity { kNodeHop, kForwardHop, kDisk };
  struct Stream {
    PieceRef ref;
    double remaining_B;
    bool opened           = false;
    bool metadata_started = false;
    int in_flight         = 0;
    bool issuing          = false;  // its node is sending a request (writes)
    sg4::ActivityPtr metadata;
  };
  struct Request {
    size_t stream;
    double bytes;
    int stage;                        // index into the direction's stage list
    sg4::ActivityPtr activity[3];     // by Activity
  };
  enum Stage { kNetwork, kStorage, kDone };
  static constexpr int kReadAhead = 4;

  const IoPiece& piece(const Stream& s) const { return plan_.writers[s.ref.writer].pieces[s.ref.piece]; }

  Stage stage_kind(int stage) const
  {
    static const Stage write[] = {kNetwork, kStorage, kDone};
    static const Stage read[]  = {kStorage, kNetwork, kDone};
    return direction_ == IoDirection::Write ? write[stage] : read[stage];
  }

  bool may_issue(const Stream& st) const
  {
    return direction_ == IoDirection::Write ? !st.issuing : st.in_flight < kReadAhead;
  }

  void start_requests()
  {
    const size_t n = streams_.size();
    for (size_t i = 0; i < n && threads_busy_ + metadata_in_flight_ < path_.threads; ++i) {
      Stream& st = streams_[(next_ + i) % n];
      if (st.remaining_B < 0.5 || !may_issue(st))
        continue;
      if (!st.opened) {
        if (!st.metadata_started)
          start_metadata(st);
        if (!st.opened)
          continue;
      }
      const double bytes = std::min(path_.request_B, std::round(st.remaining_B));
      st.remaining_B -= bytes;
      st.in_flight += 1;
      threads_busy_ += 1;
      requests_.push_back({static_cast<size_t>(&st - streams_.data()), bytes, 0, {}});
      start_stage(requests_.back());
    }
    next_ = n == 0 ? 0 : (next_ + 1) % n;  // rotate who goes first
  }

  void start_metadata(Stream& st)
  {
    st.metadata_started = true;
    const IoPiece& p    = piece(st);
    if (p.creates == 0) {
      st.opened = true;
      return;
    }
    sg4::Host* mds = path_.metadata[p.ost % path_.metadata.size()];
    metadata_in_flight_ += 1;
    st.metadata = sg4::this_actor::exec_init(static_cast<double>(p.creates) * mds->get_speed() / path_.metadata_rate)
                      ->set_host(mds)
                      ->start();
  }

  void opened(Stream& st)
  {
    counters_.add(2, static_cast<double>(piece(st).creates), sg4::Engine::get_clock());
    st.metadata = nullptr;
    st.opened   = true;
    metadata_in_flight_ -= 1;
  }

  void start_stage(Request& r)
  {
    Stream& st        = streams_[r.stream];
    const IoWriter& w = plan_.writers[st.ref.writer];
    const IoPiece& p  = piece(st);
    const auto bytes  = static_cast<uint64_t>(r.bytes);
    sg4::Host* fwd    = path_.forwarding[index_];
    sg4::Host* node   = path_.nodes[static_cast<size_t>(w.node)];
    sg4::Host* server = path_.ost_server[p.ost];
    const bool write  = direction_ == IoDirection::Write;
    if (stage_kind(r.stage) == kNetwork) {
      // SimGrid 3.32: the rate must be set first; setting both hosts starts the communication.
      sg4::CommPtr c = sg4::Comm::sendto_init();
      if (w.rate_cap_Bps > 0)
        c->set_rate(w.rate_cap_Bps / static_cast<double>(w.pieces.size()));
      c->set_payload_size(bytes);
      c->set_source(write ? node : fwd);
      c->set_destination(write ? fwd : node);
      r.activity[kNodeHop]    = c;
      r.activity[kForwardHop] = sg4::Comm::sendto_async(write ? fwd : server, write ? server : fwd, bytes);
      st.issuing              = write;
    } else if (stage_kind(r.stage) == kStorage) {
      const auto* disk   = path_.osts[p.ost].disk;
      r.activity[kDisk] = write ? disk->write_async(bytes) : disk->read_async(bytes);
    }
  }

  // Bookkeeping when one of a request's activities ends; true when the request is done.
  bool finished(Request& r, int which)
  {
    const double now = sg4::Engine::get_clock();
    r.activity[which] = nullptr;
    if (which == kNodeHop)
      streams_[r.stream].issuing = false;
    else if (which == kForwardHop)
      counters_.add(0, r.bytes, now);
    else
      counters_.add(1, r.bytes, now);
    if (r.activity[kNodeHop] || r.activity[kForwardHop] || r.activity[kDisk])
      return false;
    r.stage += 1;
    if (stage_kind(r.stage) != kDone) {
      start_stage(r);
      return false;
    }
    streams_[r.stream].in_flight -= 1;
    threads_busy_ -= 1;
    return true;
  }

  size_t index_;
  const IoPlan& plan_;
  IoDirection direction_;
  const IoPath& path_;
  TimeSeries& counters_;
  std::vector<Stream> streams_;
  std::vector<Request> requests_;
  size_t threads_busy_       = 0;
  size_t metadata_in_flight_ = 0;
  size_t next_               = 0;
};

double join_all(std::vector<sg4::ActorPtr>& actors, double start)
{
  for (auto& a : actors)
    a->join();
  return sg4::Engine::get_clock() - start;
}

}  // namespace

double run_io_plan(const IoPlan& plan, IoDirection direction, const IoPath& path, TimeSeries& tiers)
{
  std::vector<std::vector<PieceRef>> queues(path.forwarding.size());
  // Pieces queue in rounds over writers, as requests from all writers arrive together.
  size_t most_pieces = 0;
  for (const auto& w : plan.writers)
    most_pieces = std::max(most_pieces, w.pieces.size());
  for (size_t k = 0; k < most_pieces; ++k)
    for (size_t w = 0; w < plan.writers.size(); ++w)
      if (k < plan.writers[w].pieces.size())
        queues[plan.writers[w].pieces[k].forwarding].push_back({w, k});
  const double start = sg4::Engine::get_clock();
  std::vector<sg4::ActorPtr> actors;
  for (size_t f = 0; f < queues.size(); ++f)
    if (!queues[f].empty())
      actors.push_back(start_actor("lwfs:" + path.forwarding[f]->get_name(), path.forwarding[f], path.label,
                                   ForwardingServer(f, std::move(queues[f]), plan, direction, path, tiers)));
  return join_all(actors, start);
}

double run_local_io(const IoPlan& plan, IoDirection direction, const IoPath& path)
{
  const double start = sg4::Engine::get_clock();
  std::vector<sg4::ActorPtr> actors{start_actor("local-io", path.nodes.front(), path.label, [&plan, &path, direction] {
    std::vector<sg4::IoPtr> ios;
    for (const auto& w : plan.writers) {
      const auto* disk = path.platform.disks(path.nodes[static_cast<size_t>(w.node)]).front().disk;
      ios.push_back(direction == IoDirection::Write ? disk->write_async(static_cast<uint64_t>(w.bytes))
                                                    : disk->read_async(static_cast<uint64_t>(w.bytes)));
    }
    for (auto& io : ios)
      io->wait();
  })};
  return join_all(actors, start);
}

double run_partner_copy(const IoPlan& plan, const IoPath& path)
{
  const double start = sg4::Engine::get_clock();
  const auto partner = [&plan, &path](size_t w) {
    return path.nodes[static_cast<size_t>(plan.writers[(w + 1) % plan.writers.size()].node)];
  };
  std::vector<sg4::CommPtr> comms;
  for (size_t w = 0; w < plan.writers.size(); ++w)
    comms.push_back(sg4::Comm::sendto_async(path.nodes[static_cast<size_t>(plan.writers[w].node)], partner(w),
                                            static_cast<uint64_t>(plan.writers[w].bytes)));
  for (auto& c : comms)
    c->wait();
  std::vector<sg4::ActorPtr> actors{start_actor("partner-io", path.nodes.front(), path.label, [&plan, &partner] {
    std::vector<sg4::IoPtr> ios;
    for (size_t w = 0; w < plan.writers.size(); ++w)
      ios.push_back(partner(w)->get_disks().front()->write_async(static_cast<uint64_t>(plan.writers[w].bytes)));
    for (auto& io : ios)
      io->wait();
  })};
  return join_all(actors, start);
}

}  // namespace llsim
