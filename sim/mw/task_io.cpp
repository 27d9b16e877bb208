#include "sim/mw/task_io.hpp"

#include "sim/core/errors.hpp"
#include "sim/sg/activities.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/platform.hpp"

#include <string>

XBT_LOG_EXTERNAL_CATEGORY(llsim_mw);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_mw_task_io, llsim_mw, "input copies read, outputs and checkpoints written");

namespace llsim {

TaskIo::TaskIo(TaskIoSetup setup, const std::vector<Task>& tasks, TaskIoTotals& totals)
    : setup_(setup)
    , tasks_(tasks)
    , totals_(totals)
    , saved_(tasks.size())
    , saved_file_(tasks.size())
{}

bool TaskIo::transfer(HostId from, HostId to, double bytes, double deadline)
{
  if (!llsim::transfer(setup_.platform, from, to, bytes, deadline))
    return false;
  if (bytes >= 1)
    totals_.transferred_B += bytes;
  return true;
}

bool TaskIo::write_checkpoint(HostId host, size_t task, long worker, double progress, double deadline)
{
  const TaskCheckpointing& policy = setup_.checkpointing;
  StorageService& storage         = *policy.storage();
  const bool local                = policy.store() == CheckpointStore::WorkerDisk;
  FileId file                     = 0;
  if (local)
    file = storage.new_local_file(storage.server_index(host));
  else if (!storage.create(host, "/checkpoints/task" + std::to_string(task), -1, deadline, &file))
    return false;
  const IoOutcome written = storage.write(host, file, 0, policy.size_B(), deadline);
  if (written.status == IoStatus::NoSpace)
    throw SimulationError(written.message);
  if (!written.ok()) {
    storage.remove(file);
    return false;
  }
  // The new checkpoint replaces the task's previous one.
  if (saved_[task].worker >= 0)
    storage.remove(saved_file_[task]);
  XBT_DEBUG("task %s: checkpoint at %g of %g flops (%g B) %s", tasks_[task].id.c_str(), progress, tasks_[task].flops,
            policy.size_B(), local ? "on its own disks" : "on shared storage");
  saved_file_[task] = file;
  saved_[task]      = {progress, worker};
  totals_.checkpoint_B += policy.size_B();
  if (!local)
    totals_.transferred_B += policy.size_B();
  return true;
}

bool TaskIo::read_checkpoint(HostId host, size_t task, double deadline)
{
  const TaskCheckpointing& policy = setup_.checkpointing;
  if (!policy.storage()->read(host, saved_file_[task], 0, policy.size_B(), deadline).ok())
    return false;
  if (policy.store() != CheckpointStore::WorkerDisk)
    totals_.transferred_B += policy.size_B();
  return true;
}

bool TaskIo::read_input(HostId host, size_t task, double deadline)
{
  const Task& t = tasks_[task];
  if (t.inputs.empty())
    return transfer(setup_.master, host, t.input_B, deadline);
  for (const TaskInputPart& part : t.inputs) {
    // Its own copy, unless it prefers another host's and there is one; else the first other one.
    const TaskInput* own   = nullptr;
    const TaskInput* other = nullptr;
    for (const TaskInput& c : part.copies) {
      if (c.host == host && !own)
        own = &c;
      if (c.host != host && !other)
        other = &c;
    }
    const TaskInput& copy = own && !(t.prefer_remote && other) ? *own : other ? *other : *own;
    StorageService& from  = part.scratch ? *setup_.scratch : *setup_.data;
    XBT_DEBUG("task %s reads %g B of input from %s (%s copy of %zu)", t.id.c_str(), part.bytes,
              setup_.platform.name(copy.host).c_str(), copy.host == host ? "its own" : "a remote", part.copies.size());
    if (!from.read(host, copy.file, 0, part.bytes, deadline).ok())
      return false;
    const bool local = copy.host == host;
    if (part.scratch)
      totals_.scratch_read_remote_B += local ? 0 : part.bytes;
    else
      (local ? totals_.read_local_B : totals_.read_remote_B) += part.bytes;
  }
  return true;
}

bool TaskIo::write_output(HostId host, size_t task, TaskRecord& record, double deadline)
{
  const Task& t = tasks_[task];
  if (t.output == TaskOutput::Master)
    return transfer(host, setup_.master, t.output_B, deadline);
  StorageService& to = t.output == TaskOutput::LocalDisk ? *setup_.scratch : *setup_.data;
  // A worker that is a server of the service writes on its own disks (HDFS's first replica).
  const bool own    = to.servers().contains(host);
  const FileId file = own ? to.new_local_file(to.server_index(host)) : to.new_file();
  const IoOutcome o = to.write(host, file, 0, t.output_B, deadline);
  if (o.status == IoStatus::NoSpace)
    throw SimulationError(o.message);
  if (!o.ok()) {
    to.remove(file);
    return false;
  }
  record.output_file = file;
  if (!own)
    totals_.written_remote_B += t.output_B;
  // Further copies go to the next servers, over the network (a replication pipeline).
  const size_t servers = static_cast<size_t>(to.servers().count);
  const size_t first   = own ? to.server_index(host) : 0;
  for (int k = 1; k < t.output_copies; ++k) {
    const size_t server = (first + static_cast<size_t>(k)) % servers;
    const FileId copy   = to.new_local_file(server);
    const IoOutcome c   = to.write(host, copy, 0, t.output_B, deadline);
    if (c.status == IoStatus::NoSpace)
      throw SimulationError(c.message);
    if (!c.ok())
      return false;
    if (to.servers().host(static_cast<int64_t>(server)) != host)
      totals_.written_remote_B += t.output_B;
  }
  return true;
}

bool TaskIo::spill(HostId host, double bytes, double deadline)
{
  StorageService& disks = *setup_.scratch;
  const FileId file     = disks.new_local_file(disks.server_index(host));
  const IoOutcome o     = disks.write(host, file, 0, bytes, deadline);
  if (o.status == IoStatus::NoSpace)
    throw SimulationError(o.message);
  const bool ok = o.ok() && disks.read(host, file, 0, bytes, deadline).ok();
  disks.remove(file);
  if (ok)
    totals_.spill_B += bytes;
  return ok;
}

}  // namespace llsim
