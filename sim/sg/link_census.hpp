// How many flows are on each link of the platform now, and which kind of link held a flow back:
// a host's NIC, the backbone, or a topology link. The network activities (sim/sg/activities.hpp)
// count their flows in and out. Each link gives a flow a fair share, its bandwidth over the flows
// counted on it (at the flow's start and at its end, the smaller kept). A flow is charged to the
// link whose fair share is nearest (in ratio) to the rate it achieved: under max-min sharing a
// flow runs at the share of the link that holds it, and faster than the fair share of a link
// whose other flows are held elsewhere. So a backbone crossed by more flows than it carries is
// named even when each NIC is nominally narrower, and a NIC that holds its flow is named even
// when the backbone also carries many flows held back by another NIC.
#pragma once
#include "sim/platform/platform_spec.hpp"
#include "sim/sg/wait_ledger.hpp"

#include <boost/container/small_vector.hpp>

#include <vector>

namespace llsim {

class LinkCensus {
 public:
  explicit LinkCensus(const PlatformSpec& spec);

  void enter(HostId from, HostId to);  // a flow starts
  void leave(HostId from, HostId to);  // it ends

  struct Share {
    WaitResource resource;  // "network: NIC", "network: backbone" or "network: links"
    double Bps;             // the link's bandwidth over the flows counted on it now
  };
  // A route's shares held in place up to four links (two NICs and a backbone, or a short path
  // through a topology): a flow's bookkeeping then costs no allocation.
  using Shares = boost::container::small_vector<Share, 4>;
  // Each link of the route from `from` to `to`, in order.
  Shares shares(HostId from, HostId to) const;
  // Lowers each of `shares` (as shares() gave them for this route) to the link's share now.
  void narrow(HostId from, HostId to, Shares& shares) const;

 private:
  struct Hop {
    size_t slot;  // into counts_
    double Bps;
    WaitResource resource;
  };
  template <class Visit>
  void for_each_hop(HostId from, HostId to, Visit visit) const;  // its route, NICs included

  const PlatformSpec& spec_;
  std::vector<int> counts_;                       // NIC up then down per host, the backbone, each topology link per way
  std::vector<std::vector<Hop>> between_groups_;  // [from group x groups + to group]
};

// The flows of one activity, counted in the census while they run (left on destruction too, so
// an actor killed mid-transfer leaves no count behind). The activity's network time is charged to
// the link that held back the flow that ended last.
class CountedFlows {
 public:
  explicit CountedFlows(LinkCensus& census)
      : census_(census)
  {}
  CountedFlows(const CountedFlows&)            = delete;
  CountedFlows& operator=(const CountedFlows&) = delete;
  ~CountedFlows();

  size_t add(HostId from, HostId to, double now_s);     // the flow starts; its number
  void look_all();                                      // notes the running flows' shares (after adding them all)
  void end(size_t flow, double moved_B, double now_s);  // it ended: which link held it; it leaves
  WaitResource limit() const;                           // the NIC if no flow ended

 private:
  struct Flow {
    HostId from, to;
    double start_s;
    LinkCensus::Shares shares;  // the smallest seen, per link of its route
    bool running;
  };
  void look(Flow& f);

  LinkCensus& census_;
  boost::container::small_vector<Flow, 2> flows_;  // most activities move one or two flows
  WaitResource limit_ = 0;
  bool ended_         = false;
};

}  // namespace llsim
