// Phase kind `transfer`: bulk data movement into a storage service, e.g. staging a dataset onto
// a parallel file system or copying checkpoints to an archive.
//
//   - name: stage
//     kind: transfer
//     from: clients        every host of this group sends `bytes`
//     to: pfs              a storage service (sim/svc/storage.hpp)
//     bytes: 10GB          per sending host (size, required)
//     streams: 1           files per sender, written at the same time
//     chunk: 64MB          bytes of one write request
//     in_flight: 4         requests a stream keeps outstanding (write-behind)
//     sample_period: 1s    spacing of the rows of <phase>.csv
//
// Each sender creates its files (one metadata RPC each when the storage service has a metadata
// service), then writes them chunk by chunk (sim/svc/file_stream.hpp). A chunk is cut along
// the file's stripes; the storage servers' threads pull each part over the network (sender NIC,
// backbone or topology links, server NIC) and write it to its disk. With negligible latency,
// enough requests in flight and balanced striping, the makespan approaches
//   total bytes / min(sum of sender NICs, backbone, sum of server NICs, sum of server disk writes)
// (tests/scenario/test_transfer_closed_form.py). A sender that goes down (a host fault) resends
// what did not complete once it is back up.
//
// Metrics: bytes (written), makespan_s, throughput_Bps, retries (sender failures that made it
// resend). CSV: time_s, bytes_written (cumulative).
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/time_series.hpp"
#include "sim/phase/phase.hpp"
#include "sim/sg/actors.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/wait_point.hpp"
#include "sim/svc/directory.hpp"
#include "sim/svc/file_stream.hpp"
#include "sim/svc/host_faults.hpp"

#include <limits>
#include <memory>

XBT_LOG_EXTERNAL_CATEGORY(llsim_phase);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_phase_transfer, llsim_phase, "the transfer phase");

namespace llsim {

namespace {

constexpr double kNoDeadline = std::numeric_limits<double>::infinity();

const ParamTable kTransferParams = {
    ParamSpec::text("from", "sending group: every host sends"),
    ParamSpec::text("to", "storage service the files are written to"),
    ParamSpec::quantity("bytes", Dimension::Size, "bytes each sending host sends").positive(),
    ParamSpec::integer("streams", "files per sender, written at the same time").defaults("1").at_least(1).at_most(1e6),
    ParamSpec::quantity("chunk", Dimension::Size, "bytes of one write request").defaults("64MB").at_least(1),
    ParamSpec::integer("in_flight", "write requests a stream keeps outstanding").defaults("4").at_least(1),
    ParamSpec::quantity("sample_period", Dimension::Duration, "time between rows of the phase CSV").defaults("1s").positive(),
};

class TransferPhase : public Phase {
 public:
  TransferPhase(const Params& p, const PhaseLoadContext& context)
      : name_(context.phase_name)
      , from_(context.platform.group_param(p, "from"))
      , storage_(context.services.get<StorageService>(p, "to"))
      , bytes_per_sender_(p.size("bytes").value)
      , streams_per_sender_(static_cast<size_t>(p.integer("streams")))
      , chunk_B_(p.size("chunk").value)
      , in_flight_(static_cast<size_t>(p.integer("in_flight")))
      , sample_period_s_(p.duration("sample_period").value)
  {
  }

  void run(PhaseRuntime& runtime) override
  {
    series_            = std::make_unique<TimeSeries>(std::vector<std::string>{"bytes_written"}, sample_period_s_);
    const double start = now();
    series_->add(0, 0, start);
    std::vector<Actor> senders;
    for (int64_t i = 0; i < from_.count; ++i) {
      const HostId host = from_.host(i);
      senders.push_back(start_actor(runtime.platform, host, "transfer:" + std::to_string(host), runtime.label,
                                    [this, host, &runtime] { send(host, runtime.faults); }));
    }
    for (auto& s : senders)
      s.join();
    makespan_s_ = now() - start;
    series_->finish(now());
  }

  Metrics metrics() const override
  {
    return {{"bytes", written_B_},
            {"makespan_s", makespan_s_},
            {"throughput_Bps", makespan_s_ > 0 ? written_B_ / makespan_s_ : 0},
            {"retries", retries_}};
  }

  std::vector<OutputTable> tables() const override
  {
    if (!series_)
      return {};
    return {{"", series_->table()}};
  }

 private:
  // One sender: create its files, stream them, resend after its own failures.
  void send(HostId host, HostFaults& faults)
  {
    WaitPoint settled;
    std::vector<std::shared_ptr<FileStream>> streams;
    size_t stopped = 0;  // streams that finished or stopped on a failure
    IoOutcome failure;
    for (size_t k = 0; k < streams_per_sender_; ++k) {
      FileId file = 0;
      const std::string path = "/" + name_ + "/" + std::to_string(host) + "." + std::to_string(k);
      while (!storage_.create(host, path, -1, faults.next_failure(host, now()), &file))
        sleep_until(faults.up_at(host, now()));  // this sender was down: it creates the file again
      FileStream::Setup s;
      s.client    = host;
      s.file      = file;
      s.bytes     = bytes_per_sender_ / static_cast<double>(streams_per_sender_);
      s.chunk_B   = chunk_B_;
      s.in_flight = in_flight_;
      s.moved     = [this](double b) {
        written_B_ += b;
        series_->add(0, b, now());
      };
      s.over = [&](const IoOutcome& o) {
        if (!o.ok() && failure.ok())
          failure = o;
        stopped += 1;
        settled.notify_all();
      };
      streams.push_back(FileStream::create(storage_, std::move(s)));
      streams.back()->start();
    }
    while (true) {
      settled.wait_until([&] { return stopped == streams.size(); }, kNoDeadline);
      if (failure.ok())
        return;
      if (failure.status == IoStatus::NoSpace)
        throw SimulationError(failure.message);
      XBT_DEBUG("sender %u resends after: %s", host, failure.message.c_str());
      retries_ += 1;
      sleep_until(faults.up_at(host, now()));
      failure = {};
      stopped = 0;
      for (auto& s : streams)
        if (s->finished())
          stopped += 1;
        else
          s->resume();
    }
  }

  std::string name_;
  const GroupSpec& from_;
  StorageService& storage_;
  double bytes_per_sender_;
  size_t streams_per_sender_;
  double chunk_B_;
  size_t in_flight_;
  double sample_period_s_;
  std::unique_ptr<TimeSeries> series_;
  double makespan_s_ = 0, written_B_ = 0, retries_ = 0;
};

}  // namespace

LLSIM_REGISTER(Phase, "transfer", TransferPhase, "bulk data movement from a group into a storage service",
               kTransferParams);

}  // namespace llsim
