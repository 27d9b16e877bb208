// How long a small message (an RPC request or reply) takes between two hosts: the latencies of
// the links of its route plus its bytes at the route's narrowest bandwidth, with the TCP
// corrections of the lv08 network model (13.01 x latency, 97% bandwidth). Messages are not
// shared with other flows: under max-min sharing a 1 KiB message would get the same share of a
// link as a 1 GB transfer, which is not how small messages behave, and each one would make
// SimGrid solve the sharing of every flow again.
#pragma once
#include "sim/platform/platform_spec.hpp"

namespace llsim {

double message_time(const PlatformSpec& platform, HostId from, HostId to, double bytes);

}  // namespace llsim
