// A client writing (or reading) one file of a storage service sequentially, in requests of
// `chunk` bytes, keeping `in_flight` of them on their way (like a Lustre client's RPCs in
// flight): a chunk's slot frees when its bytes have reached the servers (a write, which the
// servers' caches then hold for their disks) or when it is taken into service (a read). A chunk
// is split over the targets its stripes touch. The stream is done when every part is on disk
// (written) or at the client (read). Driven by the service's completions: it needs no actor.
//
// When a part fails because the client went down, the stream stops issuing and, once nothing
// is outstanding, reports the failure; resume() then resends what did not complete (a client
// that restarts its copy). Other failures (a full disk) are reported the same way.
#pragma once
#include "sim/svc/storage.hpp"

#include <functional>
#include <memory>
#include <vector>

namespace llsim {

class FileStream : public std::enable_shared_from_this<FileStream> {
 public:
  struct Setup {
    IoOp op               = IoOp::Write;
    HostId client         = 0;
    FileId file           = 0;
    double offset         = 0;  // where in the file the stream starts
    double bytes          = 0;
    double chunk_B        = 64e6;
    size_t in_flight      = 1;
    int64_t give_up_after = -1;                  // server failures one request survives (-1: any number)
    std::function<void(double bytes)> moved;     // bytes of a completed part
    std::function<void(const IoOutcome&)> over;  // the stream finished, or stopped on a failure
  };

  static std::shared_ptr<FileStream> create(StorageService& storage, Setup setup);
  void start();   // issues the first requests
  void resume();  // after a reported failure: resends what did not complete
  // Issues no more requests: once those on their way are over, the stream reports over()
  // (Removed, unless a failure came first). A stream with none on their way reports at once; one
  // that reported already (a failure) does not report again.
  void stop();
  bool finished() const { return done_parts_ == parts_.size() && next_chunk_ == chunks_; }

 private:
  struct Part {
    size_t chunk, target;
    double bytes;
    bool sent = false, done = false;
  };
  FileStream(StorageService& storage, Setup setup);
  void issue();  // while below in_flight and chunks remain
  void send(size_t part);
  void completed(size_t part, const IoOutcome& o);

  StorageService& storage_;
  Setup s_;
  size_t chunks_;
  size_t next_chunk_ = 0;
  std::vector<Part> parts_;           // of the chunks issued so far
  std::vector<size_t> chunk_unsent_;  // parts not sent yet, per issued chunk
  size_t chunks_in_flight_ = 0, parts_outstanding_ = 0, done_parts_ = 0;
  void sent(size_t part);
  IoOutcome failure_;  // the first failure since the last resume
  bool stopped_  = false;
  bool reported_ = false;  // over() ran since the start or the last resume
  void report();           // runs over() with the failure, if any
};

}  // namespace llsim
