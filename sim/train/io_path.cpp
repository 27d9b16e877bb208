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
// `request_B`; the server has at most `threads` requests in flight, each holding its thread from
// its first stage to its last. A writing stream issues its next request as soon as the previous
// one has reached the forwarding node (write-behind); a reading stream keeps up to kReadAhead
// requests in flight (read-ahead). A metadata operation (create or open) also holds a thread.
// Streams take turns.
class ForwardingServer {
 public:
  ForwardingServer(size_t index, std::vector<PieceRef> pieces, const IoPlan& plan, IoDirection direction,
                   const IoPath& path, IoTierCounters& counters)
      : index_(index), plan_(plan), direction_(direction), path_(path), counters_(counters)
  {
    for (const auto& ref : pieces)
      streams_.push_back({ref, plan.writers[ref.writer].pieces[ref.piece].bytes, false, false, 0});
  }

  void operator()()
  {
    std::vector<sg4::ActivityPtr> pending;
    std::vector<long> owner;  // request index, or -1 - stream index for a metadata operation
    while (true) {
      start_requests();
      pending.clear();
      owner.clear();
      for (size_t s = 0; s < streams_.size(); ++s)
        if (streams_[s].metadata) {
          pending.push_back(streams_[s].metadata);
          owner.push_back(-1 - static_cast<long>(s));
        }
      for (size_t r = 0; r < requests_.size(); ++r) {
        pending.push_back(requests_[r].activity);
        owner.push_back(static_cast<long>(r));
      }
      if (pending.empty())
        return;
      const long who = owner[static_cast<size_t>(sg4::Activity::wait_any(pending))];
      if (who < 0) {
        Stream& st = streams_[static_cast<size_t>(-1 - who)];
        counters_.series.add(2, static_cast<double>(piece(st).creates), sg4::Engine::get_clock());
        st.metadata = nullptr;
        st.opened   = true;
        metadata_in_flight_ -= 1;
        continue;
      }
      Request& done = requests_[static_cast<size_t>(who)];
      record(done);
      if (stage_kind(done.stage) == kFirstHop)
        streams_[done.stream].issuing -= 1;
      done.stage += 1;
      if (!start_stage(done)) {
        streams_[done.stream].in_flight -= 1;
        requests_.erase(requests_.begin() + who);
      }
    }
  }

 private:
  struct Stream {
    PieceRef ref;
    double remaining_B;
    bool opened;
    bool metadata_started;
    int in_flight;
    int issuing = 0;  // requests in the hop between its node and the forwarding node
    sg4::ActivityPtr metadata = nullptr;
  };
  struct Request {
    size_t stream;
    double bytes;
    int stage;
    sg4::ActivityPtr activity;
  };
  enum Stage { kFirstHop, kSecondHop, kDisk, kDone };
  static constexpr int kReadAhead = 4;

  bool may_issue(const Stream& st) const
  {
    return direction_ == IoDirection::Write ? st.issuing == 0 : st.in_flight < kReadAhead;
  }

  const IoPiece& piece(const Stream& s) const { return plan_.writers[s.ref.writer].pieces[s.ref.piece]; }

  Stage stage_kind(int stage) const
  {
    static const Stage write[] = {kFirstHop, kSecondHop, kDisk, kDone};
    static const Stage read[]  = {kDisk, kSecondHop, kFirstHop, kDone};
    return direction_ == IoDirection::Write ? write[stage] : read[stage];
  }

  void start_requests()
  {
    const size_t n = streams_.size();
    for (size_t i = 0; i < n && requests_.size() + metadata_in_flight_ < path_.threads; ++i) {
      const size_t s = (next_ + i) % n;
      Stream& st     = streams_[s];
      if (st.remaining_B < 0.5 || !may_issue(st))
        continue;
      if (!st.opened) {
        if (!st.metadata_started) {
          st.metadata_started = true;
          const IoPiece& p    = piece(st);
          if (p.creates == 0) {
            st.opened = true;
          } else {
            sg4::Host* mds = path_.metadata[p.ost % path_.metadata.size()];
            metadata_in_flight_ += 1;  // a thread waits for the metadata server
            st.metadata = sg4::this_actor::exec_init(static_cast<double>(p.creates) * mds->get_speed() / path_.metadata_rate)
                              ->set_host(mds)
                              ->start();
          }
        }
        if (!st.opened)
          continue;
      }
      const double bytes = std::min(path_.request_B, std::round(st.remaining_B));
      st.remaining_B -= bytes;
      st.in_flight += 1;
      requests_.push_back({s, bytes, 0, nullptr});
      start_stage(requests_.back());
    }
    next_ = n == 0 ? 0 : (next_ + 1) % n;  // rotate who goes first
  }

  // Starts the request's current stage; false when it has none left.
  bool start_stage(Request& r)
  {
    const Stream& st  = streams_[r.stream];
    const IoWriter& w = plan_.writers[st.ref.writer];
    const IoPiece& p  = piece(st);
    const auto bytes  = static_cast<uint64_t>(r.bytes);
    sg4::Host* fwd    = path_.forwarding[index_];
    switch (stage_kind(r.stage)) {
      case kFirstHop: {
        streams_[r.stream].issuing += 1;
        sg4::Host* node = path_.nodes[static_cast<size_t>(w.node)];
        const bool in   = direction_ == IoDirection::Write;
        // SimGrid 3.32: the rate must be set first; setting both hosts starts the communication.
        sg4::CommPtr c = sg4::Comm::sendto_init();
        if (w.rate_cap_Bps > 0)
          c->set_rate(w.rate_cap_Bps / static_cast<double>(w.pieces.size()));
        c->set_payload_size(bytes);
        c->set_source(in ? node : fwd);
        c->set_destination(in ? fwd : node);
        r.activity = c;
        return true;
      }
      case kSecondHop: {
        sg4::Host* server = path_.ost_server[p.ost];
        const bool out    = direction_ == IoDirection::Write;
        r.activity        = sg4::Comm::sendto_async(out ? fwd : server, out ? server : fwd, bytes);
        return true;
      }
      case kDisk: {
        const auto* disk = path_.osts[p.ost].disk;
        r.activity = direction_ == IoDirection::Write ? disk->write_async(bytes) : disk->read_async(bytes);
        return true;
      }
      case kDone:
        return false;
    }
    return false;
  }

  void record(const Request& r)
  {
    const double now = sg4::Engine::get_clock();
    if (stage_kind(r.stage) == kSecondHop)
      counters_.series.add(0, r.bytes, now);
    else if (stage_kind(r.stage) == kDisk)
      counters_.series.add(1, r.bytes, now);
  }

  size_t index_;
  const IoPlan& plan_;
  IoDirection direction_;
  const IoPath& path_;
  IoTierCounters& counters_;
  std::vector<Stream> streams_;
  std::vector<Request> requests_;
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

double run_io_plan(const IoPlan& plan, IoDirection direction, const IoPath& path, IoTierCounters& counters)
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
                                   ForwardingServer(f, std::move(queues[f]), plan, direction, path, counters)));
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
