// Cost and energy of a finished run, per phase, per service and in all (docs/accounting.md).
//
// What is billed, and for how long (allocated time, as reserved capacity is billed):
// - a phase's groups (the ones it computes on and its clients): from its start to its end, or
//   what the phase reports it held (a serve phase: its instances while they were allocated).
//   Phases holding one group at the same time split the overlap evenly; one that reports what it
//   held pays that, at most its share.
// - a service's servers are allocated the whole run: the service pays for the host-seconds no
//   phase held (node-local storage on a training job's nodes pays for the time outside the job);
//   a group serving several services is split evenly among them.
// - groups no phase and no service uses: nothing.
// - a storage service's bytes: their integral over time, at its price per TB-month.
// - traffic between groups with a network price: the bytes each phase's work delivered
//   (sim/sg/traffic_ledger.hpp).
// Energy: every host draws its idle power while held and its busy power while at work (its GPUs
// computing, its cores running tasks, its disks or threads serving), in between linearly; serving
// GPUs in proportion to their load (sim/serve/cost/gpu_load.hpp, sim/accounting/bill.hpp); PUE scales it all.
// A service's work loads no GPU. A group is busy at most all its hosts the whole run: beyond
// that, the services' busy time is cut first, then the phases'.
#pragma once
#include "sim/accounting/accounting_spec.hpp"
#include "sim/accounting/bill.hpp"
#include "sim/phase/phase_result.hpp"
#include "sim/platform/platform_spec.hpp"
#include "sim/svc/directory.hpp"
#include "sim/svc/service_result.hpp"

#include <vector>

namespace llsim {

// What the accounting reads of a finished run: the prices, the hosts and services, and what the
// phases and services reported (in the directory's order).
struct FinishedRun {
  const PlatformSpec& platform;
  const AccountingSpec& prices;
  const ServiceDirectory& services;
  double simulated_time_s;
  const std::vector<PhaseResult>& phases;
  const std::vector<ServiceResult>& service_results;
};

Accounting account(const FinishedRun& run);

}  // namespace llsim
