// One checkpoint I/O operation of a training job, carried out through the services: every
// piece of the plan (io_plan.hpp) is a stream of requests of `request` bytes from its writer's
// node. A parallel-file-system write first creates the piece's files, then each request goes
// through the writer's forwarding node to the piece's target (or straight to the storage
// server without a forwarding service); a writer issues its next request as soon as the
// previous one has left its node (write-behind), and never moves bytes faster than its rate cap
// (its I/O processes' bandwidth), shared by its pieces. A read opens the files, then keeps
// `read_ahead` requests in flight per piece. Node-local levels write each writer's bytes to its
// own node's disks, or to its partner's (the next writer's node), through the node-local
// storage service.
// Driven by the services' completions: nothing here waits but the caller of wait().
#pragma once
#include "sim/svc/forwarding.hpp"
#include "sim/svc/storage.hpp"
#include "sim/train/interfaces.hpp"

#include <memory>
#include <string>
#include <vector>

namespace llsim {

class HostFaults;
class Platform;
class WaitPoint;

struct IoRoute {
  const Platform& platform;
  const GroupSpec& nodes;           // the job's compute nodes
  ForwardingService* forwarding;    // null: the nodes reach the storage service directly
  StorageService& pfs;
  StorageService* local;            // node-local levels (multilevel modes)
  double request_B;
  size_t read_ahead;
  std::string name;                 // of the phase: actor labels and file paths
};

class CheckpointIo : public std::enable_shared_from_this<CheckpointIo> {
 public:
  // Starts `kind` now, with each writer's bytes times `scale` (times `share` for a PartnerCopy),
  // written to (read from) `object` of the storage service that `kind` goes to.
  static std::shared_ptr<CheckpointIo> start(const IoRoute& route, const IoPlan& plan, IoKind kind, double share,
                                             double scale, FileId object, int64_t checkpoint);
  ~CheckpointIo();

  bool finished() const { return pieces_left_ == 0; }
  double end_s() const { return end_s_; }
  // Blocks the calling actor until the operation is over or `deadline`; true when it is over.
  bool wait(double deadline);
  // Stops issuing requests (the job failed); requests in progress end on their own, unheeded.
  void cancel() { cancelled_ = true; }
  // NoSpace when a disk was full (the run cannot go on); Done otherwise.
  const IoOutcome& failure() const { return failure_; }

 private:
  struct Piece {
    HostId client;
    size_t forwarder;
    std::vector<size_t> targets;  // requests go to them in turn
    double left_B;                // not yet issued
    size_t outstanding = 0;       // issued, not completed
    size_t sending     = 0;       // writes whose bytes have not left the node yet
    size_t next        = 0;       // next of `targets`
    double rate_Bps;
    std::string path;
    int64_t files;
  };
  CheckpointIo(const IoRoute& route, IoKind kind, FileId object);
  void build(const IoPlan& plan, double share, double scale, int64_t checkpoint);
  void open_files();  // then the data
  void issue(size_t piece);
  void completed(size_t piece, const IoOutcome& o);
  StorageService& storage() const;

  const IoRoute& route_;
  IoKind kind_;
  FileId object_;
  std::vector<Piece> pieces_;
  size_t pieces_left_ = 0;
  bool cancelled_     = false;
  double end_s_       = 0;
  IoOutcome failure_;
  std::unique_ptr<WaitPoint> over_;
};

}  // namespace llsim
