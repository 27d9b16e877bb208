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
//     give_up_after: 100   failed attempts in a row of one stream before the phase fails
//
// Each sender creates its files (one metadata RPC each when the storage service has a metadata
// service), then writes them chunk by chunk (sim/svc/file_stream.hpp): all driven by the
// services' completions, so a sender needs no actor. A chunk is cut along
// the file's stripes; the storage servers' threads pull each part over the network (sender NIC,
// backbone or topology links, server NIC) and write it to its disk. With negligible latency,
// enough requests in flight and balanced striping, the makespan approaches
//   total bytes / min(sum of sender NICs, backbone, sum of server NICs, sum of server disk writes)
// (tests/llsim/test_transfer_closed_form.py). A sender or server that goes down (a host
// fault) makes the stream resend what did not complete once the sender is back up; a stream that
// fails give_up_after times in a row without writing a chunk fails the run (exit 1).
//
// Metrics: the declared table kTransferMetrics below (`llsim models` lists it). CSV: time_s,
// bytes_written (cumulative).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/transfer_bounds.yaml
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/core/time_series.hpp"
#include "sim/faults/host_faults.hpp"
#include "sim/phase/phase.hpp"
#include "sim/phase/work_units.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/platform.hpp"
#include "sim/sg/timer.hpp"
#include "sim/sg/wait_point.hpp"
#include "sim/svc/directory.hpp"
#include "sim/svc/file_stream.hpp"

#include <limits>
#include <memory>

XBT_LOG_EXTERNAL_CATEGORY(llsim_loads);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_loads_transfer_phase, llsim_loads, "the transfer phase");

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
    ParamSpec::quantity("sample_period", Dimension::Duration, "time between rows of the phase CSV")
        .defaults("1s")
        .positive(),
    ParamSpec::integer("give_up_after", "failed attempts in a row of one stream, without a chunk written, after which "
                                        "the phase fails (servers that fail faster than a chunk moves)")
        .defaults("100")
        .at_least(1),
};

// Requests one sender's streams make, at most: more is a mistake (bytes or chunk mistyped).
constexpr double kMaxChunksPerSender = 1e9;

class TransferPhase : public Phase {
 public:
  TransferPhase(const Params& p, const PhaseLoadContext& context)
      : name_(context.phase_name)
      , from_(context.platform.group_param(p, "from"))
      , storage_(context.services.get<StorageService>(p, "to"))
      , B_per_sender_(p.size("bytes").value)
      , streams_per_sender_(static_cast<size_t>(p.integer("streams")))
      , chunk_B_(p.size("chunk").value)
      , in_flight_(static_cast<size_t>(p.integer("in_flight")))
      , sample_period_s_(p.duration("sample_period").value)
      , give_up_after_(p.integer("give_up_after"))
  {
    context.uses.push_back(from_.name);
    if (B_per_sender_ / chunk_B_ > kMaxChunksPerSender)
      p.fail("bytes", "bytes / chunk is " + format_number(B_per_sender_ / chunk_B_) + " requests per sender; at most " +
                          format_number(kMaxChunksPerSender) + " (a larger chunk, or fewer bytes?)");
  }

  void run(PhaseRuntime& runtime) override
  {
    series_            = std::make_unique<TimeSeries>(std::vector<std::string>{"bytes_written"}, sample_period_s_);
    const double start = now();
    series_->add(0, 0, start);
    WaitPoint settled;
    size_t finished      = 0;
    const size_t streams = static_cast<size_t>(from_.count) * streams_per_sender_;
    IoOutcome fatal;
    // Streams start in rounds across senders, as senders starting together would interleave
    // their first requests at the servers (one sender's burst first would make every server
    // thread pull from that sender alone).
    for (size_t k = 0; k < streams_per_sender_; ++k)
      for (int64_t i = 0; i < from_.count; ++i) {
        const HostId host = from_.host(i);
        storage_.create_async(host, "/" + name_ + "/" + std::to_string(host) + "." + std::to_string(k), -1,
                              [this, host, &runtime, &settled, &finished, &fatal](FileId file) {
                                start_stream(host, file, runtime, [&](const IoOutcome& o) {
                                  if ((o.status == IoStatus::NoSpace || o.status == IoStatus::TimedOut) && fatal.ok())
                                    fatal = o;
                                  finished += 1;
                                  settled.notify_all();
                                });
                              });
      }
    settled.wait_until([&] { return finished == streams || !fatal.ok(); }, kNoDeadline);
    if (!fatal.ok())
      throw SimulationError(fatal.message);
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
  // Streams one file. When its sender or a server goes down, it resends what did not complete
  // once the sender is back up (requests to a server that is still down wait for it); `over`
  // gets the outcome when it is done, a full disk stopped it, or (TimedOut) give_up_after
  // attempts in a row failed.
  void start_stream(HostId host, FileId file, PhaseRuntime& runtime, std::function<void(const IoOutcome&)> over)
  {
    FileStream::Setup s;
    s.client             = host;
    s.file               = file;
    s.bytes              = B_per_sender_ / static_cast<double>(streams_per_sender_);
    s.chunk_B            = chunk_B_;
    s.in_flight          = in_flight_;
    s.give_up_after      = give_up_after_;
    auto failed_in_a_row = std::make_shared<int64_t>(0);
    s.moved              = [this, failed_in_a_row](double b) {
      *failed_in_a_row = 0;
      written_B_ += b;
      series_->add(0, b, now());
    };
    auto stream = std::make_shared<std::shared_ptr<FileStream>>();
    s.over      = [this, host, over, stream, failed_in_a_row, &runtime](const IoOutcome& o) {
      if (o.ok() || o.status == IoStatus::NoSpace) {
        over(o);
        stream->reset();  // the stream no longer needs itself
        return;
      }
      if (o.status == IoStatus::TimedOut || ++*failed_in_a_row >= give_up_after_) {
        const std::string what = o.status == IoStatus::TimedOut
                                          ? "a write of " + runtime.platform.name(host) + " was interrupted " +
                                           std::to_string(give_up_after_) + " times in a row by server failures"
                                          : "a stream of " + runtime.platform.name(host) + " failed " +
                                           std::to_string(*failed_in_a_row) + " times in a row (last: " + o.message +
                                           ")";
        over({IoStatus::TimedOut, "cannot progress: " + what + " without writing a chunk of " + format_bytes(chunk_B_) +
                                      "; the hosts fail faster than a chunk moves (give_up_after: " +
                                      std::to_string(give_up_after_) + ")"});
        stream->reset();
        return;
      }
      XBT_DEBUG("sender %u resends after: %s", host, o.message.c_str());
      retries_ += 1;
      runtime.timer.at(runtime.faults.up_at(host, now()), [stream] { (*stream)->resume(); });
    };
    *stream = FileStream::create(storage_, std::move(s));
    (*stream)->start();
  }

  std::string name_;
  const GroupSpec& from_;
  StorageService& storage_;
  double B_per_sender_;
  size_t streams_per_sender_;
  double chunk_B_;
  size_t in_flight_;
  double sample_period_s_;
  int64_t give_up_after_;
  std::unique_ptr<TimeSeries> series_;
  double makespan_s_ = 0, written_B_ = 0, retries_ = 0;
};

// What metrics() writes, in its order (sim/core/metrics.hpp; `llsim models` lists it).
const MetricTable kTransferMetrics = {
    {"bytes", MetricUnit::Bytes, "bytes written to the storage service, all senders"},
    {"makespan_s", MetricUnit::Seconds, "time from the phase's start until every stream has written its file"},
    {"throughput_Bps", MetricUnit::BytesPerSecond, "bytes / makespan_s (0 when the makespan is 0)"},
    {"retries", MetricUnit::Count, "sender failures that made a stream resend what did not complete"},
};

}  // namespace

LLSIM_REGISTER(Phase, "transfer", TransferPhase, "bulk data movement from a group into a storage service",
               kTransferParams);
LLSIM_DECLARE_METRICS(Phase, "transfer", kTransferMetrics);
LLSIM_DECLARE_WORK_UNITS("transfer", {{"bytes", 1e12, "TB", "a TB written"}});

}  // namespace llsim
