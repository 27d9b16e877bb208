// Phase kind `transfer`: bulk data movement, e.g. staging a dataset onto storage servers or
// copying checkpoints to an archive.
//
//   - name: stage
//     kind: transfer
//     from: clients        every host of this group sends `bytes`
//     to: storage          streams are dealt round-robin to this group's hosts, written to their disks
//     bytes: 10GB          per sending host (size, required)
//     streams: 1           concurrent streams per sender
//     chunk: 64MB          unit of pipelining between network and disks
//     max_streams: 8       streams a receiver serves at once; the others queue
//     buffer_chunks: 16    chunks a receiver holds in memory (on the wire, waiting, being written);
//                          keep it above the disk count or the disks wait for the network
//     sample_period: 1s    spacing of the rows of <phase>.csv
//
// Data crosses the sender's NIC, the backbone (or the topology's links), the receiver's NIC and
// the receiver's disks. Each receiving host runs a stream receiver (stream_receiver.hpp) and a
// writer per disk (chunk_writer.hpp); senders need no actor (host-to-host communications). With negligible latency and balanced streams
// the makespan approaches total bytes / min(sum of sender NICs, backbone, sum of receiver NICs,
// sum of receiver disk write bandwidths); tests/scenario/transfer_closed_form.py holds it to that.
//
// Metrics: bytes (delivered: written to disk, or received when the receivers have no disks),
// makespan_s, throughput_Bps. CSV: time_s, bytes_received, bytes_written (cumulative).
#include "models/phase/chunk_writer.hpp"
#include "models/phase/stream_receiver.hpp"
#include "models/phase/transfer_plan.hpp"
#include "sim/core/registry.hpp"
#include "sim/run/actors.hpp"
#include "sim/run/phase.hpp"

#include <simgrid/s4u.hpp>

#include <memory>

namespace sg4 = simgrid::s4u;

namespace llsim {

namespace {

const ParamTable kTransferParams = {
    ParamSpec::text("from", "sending group: every host sends"),
    ParamSpec::text("to", "receiving group: streams are spread evenly over its hosts"),
    ParamSpec::quantity("bytes", Dimension::Size, "bytes each sending host sends").positive(),
    ParamSpec::integer("streams", "concurrent streams per sender").defaults("1").at_least(1).at_most(1e6),
    ParamSpec::quantity("chunk", Dimension::Size, "chunk size: unit of network/disk pipelining").defaults("64MB").at_least(1),
    ParamSpec::integer("max_streams", "streams a receiver serves at once (the rest queue)").defaults("8").at_least(1),
    ParamSpec::integer("buffer_chunks", "chunks a receiver holds in memory: on the wire, waiting or being written")
        .defaults("16")
        .at_least(1),
    ParamSpec::quantity("sample_period", Dimension::Duration, "time between rows of the phase CSV").defaults("1s").positive(),
};

class TransferPhase : public Phase {
 public:
  TransferPhase(const Params& p, const PhaseLoadContext& context)
      : from_(context.platform.group_param(p, "from").name)
      , to_(context.platform.group_param(p, "to").name)
      , bytes_per_sender_(p.size("bytes").value)
      , streams_per_sender_(static_cast<size_t>(p.integer("streams")))
      , chunk_B_(p.size("chunk").value)
      , max_streams_(static_cast<size_t>(p.integer("max_streams")))
      , buffer_chunks_(static_cast<size_t>(p.integer("buffer_chunks")))
      , sample_period_s_(p.duration("sample_period").value)
  {
  }

  void run(PhaseRuntime& runtime) override
  {
    const auto& senders   = runtime.platform.hosts(from_);
    const auto& receivers = runtime.platform.hosts(to_);
    counters_ = std::make_unique<TransferCounters>(
        TransferCounters{TimeSeries({"bytes_received", "bytes_written"}, sample_period_s_)});
    const double start = sg4::Engine::get_clock();
    counters_->series.add(0, 0, start);

    std::vector<std::deque<IncomingStream>> incoming(receivers.size());
    for (const auto& s : plan_streams(senders.size(), streams_per_sender_, receivers.size(), bytes_per_sender_))
      incoming[s.receiver].push_back({senders[s.sender], s.bytes});
    std::vector<sg4::ActorPtr> actors;
    for (size_t r = 0; r < receivers.size(); ++r) {
      if (incoming[r].empty())
        continue;
      const auto& disks = runtime.platform.disks(receivers[r]);
      std::shared_ptr<ChunkBuffer> buffer;
      if (!disks.empty())
        buffer = std::make_shared<ChunkBuffer>(buffer_chunks_);
      const std::string name = "transfer:" + receivers[r]->get_name();
      actors.push_back(start_actor(name, receivers[r], runtime.label,
                                   StreamReceiver(receivers[r], std::move(incoming[r]), chunk_B_, max_streams_,
                                                  buffer, disks.size(), *counters_)));
      for (size_t d = 0; d < disks.size(); ++d)
        actors.push_back(start_actor(name + ":disk" + std::to_string(d), receivers[r], runtime.label,
                                     ChunkWriter(disks[d], disks.size(), buffer, *counters_)));
    }
    for (auto& a : actors)
      a->join();

    makespan_s_ = sg4::Engine::get_clock() - start;
    counters_->series.finish(sg4::Engine::get_clock());
    delivered_B_ = runtime.platform.disks(receivers.front()).empty() ? counters_->received_B : counters_->written_B;
  }

  Metrics metrics() const override
  {
    return {{"bytes", delivered_B_},
            {"makespan_s", makespan_s_},
            {"throughput_Bps", makespan_s_ > 0 ? delivered_B_ / makespan_s_ : 0}};
  }

  std::vector<OutputTable> tables() const override
  {
    if (!counters_)
      return {};
    return {{"", counters_->series.table()}};
  }

 private:
  std::string from_, to_;
  double bytes_per_sender_;
  size_t streams_per_sender_;
  double chunk_B_;
  size_t max_streams_;
  size_t buffer_chunks_;
  double sample_period_s_;
  std::unique_ptr<TransferCounters> counters_;
  double makespan_s_  = 0;
  double delivered_B_ = 0;
};

}  // namespace

LLSIM_REGISTER(Phase, "transfer", TransferPhase, "bulk data movement from one group to another's disks",
               kTransferParams);

}  // namespace llsim
