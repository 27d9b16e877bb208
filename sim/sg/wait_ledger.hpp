// Where each phase's work spent its time: every actor carries the tag of the phase it works for
// (a phase's actors and the actors they start; a service thread or disk takes the tag of the
// request it serves), and the places that make work wait charge the time to the tag of the actor
// waiting: a server's queue for threads, a disk's queue and its service, the network (NIC,
// backbone or links), a metadata server's queue and service, GPU iterations. After the run each
// phase has seconds per resource (docs/accounting.md, "What limited each phase").
#pragma once
#include <map>
#include <string>

namespace llsim {

constexpr int kNoPhase = -1;

int phase_tag();  // of the calling actor; kNoPhase outside any actor or for one untagged
// Work of a phase that none of its requests waits for (Mooncake's KV writes to its pool) carries
// the phase's background tag: its time is counted apart from the phase's (phase_waits of the
// background tag), its bytes and energy are the phase's. Tags of phase i: i, and -2 - i.
int background_tag(int tag);
int phase_of_tag(int tag);  // the phase a tag (its own or its background) belongs to
// Of the calling actor (the tag ends with it). start_actor/start_daemon (sim/sg/actors.hpp) give a
// new actor its creator's.
void set_phase_tag(int tag);
// In its scope the calling actor works for its phase's background: what it does and the actors
// it starts are counted apart (a serving instance's weight load, provisioning that requests wait
// for only as a whole, which the phase charges as such).
class BackgroundScope {
 public:
  BackgroundScope();
  ~BackgroundScope();
  BackgroundScope(const BackgroundScope&)            = delete;
  BackgroundScope& operator=(const BackgroundScope&) = delete;

 private:
  int tag_;
};

// A resource's number, the same for a name all process long: hot paths look it up once.
using WaitResource = size_t;
WaitResource wait_resource(const std::string& name);

// Adds `seconds` at `resource` to the calling actor's phase (nothing without one).
void charge_wait(WaitResource resource, double seconds);
void charge_wait_to(int tag, WaitResource resource, double seconds);
inline void charge_wait(const std::string& resource, double seconds)
{
  charge_wait(wait_resource(resource), seconds);
}
std::map<std::string, double> phase_waits(int tag);
// Requests the calling actor's phase turned away (a serving system's rejections), by reason:
// they spent no time anywhere, so they are counted beside the seconds.
void count_turned_away(const std::string& reason);
std::map<std::string, double> phase_turned_away(int tag);
void clear_wait_ledger();  // before a simulation

}  // namespace llsim
