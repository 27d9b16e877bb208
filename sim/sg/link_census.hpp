// How many flows are on each link of the platform now. The network activities
// (sim/sg/activities.hpp) count their flows in and out, and a flow's network time is charged to
// the kind of link that gives it the smallest fair share (bandwidth over the flows on it) on its
// route: a host's NIC, the backbone, or a topology link. Under max-min sharing that link is the
// one the flow is most crowded on, so a backbone crossed by more flows than it carries is named
// even when each NIC is nominally narrower. The activities look when a flow starts and when it
// ends, and keep the smaller share of the two (flows started at one instant are counted in one by
// one, and leave one by one).
#pragma once
#include "sim/platform/platform_spec.hpp"
#include "sim/sg/wait_ledger.hpp"

#include <limits>
#include <vector>

namespace llsim {

class LinkCensus {
 public:
  explicit LinkCensus(const PlatformSpec& spec);

  void enter(HostId from, HostId to);  // a flow starts
  void leave(HostId from, HostId to);  // it ends

  struct Share {
    WaitResource resource;  // "network: NIC", "network: backbone" or "network: links"
    double Bps;             // the smallest fair share on the route, the flows counted in now
  };
  Share narrowest(HostId from, HostId to) const;

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
// an actor killed mid-transfer leaves no count behind), and the smallest share they were seen to
// get: the activity's network time is charged to that share's kind of link.
class CountedFlows {
 public:
  explicit CountedFlows(LinkCensus& census)
      : census_(census)
  {}
  CountedFlows(const CountedFlows&)            = delete;
  CountedFlows& operator=(const CountedFlows&) = delete;
  ~CountedFlows();

  size_t add(HostId from, HostId to);  // the flow starts; its number
  void look_all();                     // notes each running flow's share
  void end(size_t flow);               // notes its share, then it leaves the census
  WaitResource limit() const;          // the NIC if no flow was looked at

 private:
  struct Flow {
    HostId from, to;
    bool running;
  };
  void look(const Flow& f);

  LinkCensus& census_;
  std::vector<Flow> flows_;
  LinkCensus::Share least_{0, std::numeric_limits<double>::infinity()};
};

}  // namespace llsim
