// The Sunway-like I/O path under SimGrid: compute node -> I/O forwarding node (an LWFS-like
// server with a bounded number of I/O threads, and a Lustre-like client) -> storage server
// (OSS) -> OST (one of the server's disks); file creates and opens go to a metadata server.
// Each hop is a real SimGrid resource: node, forwarding and OSS NICs, the backbone, the OST
// disks, and the metadata server's CPU.
//
// One actor per forwarding node serves the pieces of an IoPlan routed through it, as requests
// of `request_B`, at most `threads` requests at a time (the others wait, as at a real LWFS
// server). A piece first creates (or opens) its files at a metadata server; each of its write
// requests then goes from its node through the forwarding node to the OST's server (at most the
// writer's client-side rate; both hops at once, as the server forwards while it receives) and is
// written to the OST; a read goes the other way. Requests of a piece overlap (see io_path.cpp).
#pragma once
#include "sim/run/time_series.hpp"
#include "sim/sg/platform.hpp"
#include "sim/train/io_plan.hpp"

#include <simgrid/s4u.hpp>

#include <string>
#include <vector>

namespace llsim {

struct IoPath {
  const Platform& platform;
  std::vector<simgrid::s4u::Host*> nodes;
  std::vector<simgrid::s4u::Host*> forwarding;
  std::vector<simgrid::s4u::Host*> metadata;
  std::vector<HostDisk> osts;                      // every disk of the storage group, host-major
  std::vector<simgrid::s4u::Host*> ost_server;     // the host of each OST
  size_t threads          = 16;
  double request_B        = 4294967296.0;  // simulation granularity of I/O requests
  double metadata_rate    = 50e3;  // operations per second per metadata server
  std::string label;
};

enum class IoDirection { Write, Read };


// Runs `plan` through the path from now; returns its duration (simulated seconds). `tiers` gets
// the cumulative bytes through forwarding nodes (column 0), bytes at OSTs (1), metadata ops (2).
double run_io_plan(const IoPlan& plan, IoDirection direction, const IoPath& path, TimeSeries& tiers);

// Every writer reads or writes its bytes on its own node's first disk, all at once; returns the
// duration. (Issued from a helper actor: see the I/O note in transfer's stream_receiver.hpp.)
double run_local_io(const IoPlan& plan, IoDirection direction, const IoPath& path);

// Every writer copies its bytes to the next writer's node (a partner) and that node's disk.
double run_partner_copy(const IoPlan& plan, const IoPath& path);

}  // namespace llsim
