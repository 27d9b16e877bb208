"""Two phases on one storage service against the fair-share closed form (scenario
tests/inputs/contention.yaml): while both write, each phase's share of the OSTs is its share
of the writers waiting at them; alone, each phase gets all of them. Then io_replay: auto, which
replays a checkpoint through the services exactly when another phase runs."""
import csv
import os

from harness import check, check_close, finish, run, scratch_dir, summary

SCENARIO = "tests/inputs/contention.yaml"
OSTS_BPS = 16 * 500e6
CHECKPOINT_B = 280e9


def contention(*sets):
    out = scratch_dir()
    args = ["run", SCENARIO, "--quiet", "--out", out]
    for s in sets:
        args += ["--set", s]
    run(*args)
    return out, summary(out)["phases"]


def fair_share(a_B, a_writers, b_B, b_writers):
    """Finish times of two phases starting together on one bottleneck, each getting its share of
    the writers while both run, all of it once alone."""
    share_a = a_writers / (a_writers + b_writers)
    t_a_alone_rate = a_B / (OSTS_BPS * share_a)
    t_b_alone_rate = b_B / (OSTS_BPS * (1 - share_a))
    if t_a_alone_rate <= t_b_alone_rate:
        return t_a_alone_rate, (a_B + b_B) / OSTS_BPS
    return (a_B + b_B) / OSTS_BPS, t_b_alone_rate


# Alone (the transfer starts after the checkpoint is over): the OST bound for each.
_, alone = contention("phases.ingest.start=1000s")
check_close(alone["train"]["checkpoint_write_s"], CHECKPOINT_B / OSTS_BPS, 0.05, "checkpoint alone")
check_close(alone["ingest"]["makespan_s"], 560e9 / OSTS_BPS, 0.05, "transfer alone")

# Together, 64 writers each: the checkpoint ends after 70 s, the transfer after 105 s.
both_out, both = contention()
train_s, ingest_s = fair_share(CHECKPOINT_B, 64, 560e9, 64)
first_checkpoint = next(csv.DictReader(open(os.path.join(both_out, "train_checkpoints.csv"))))
check(both["ingest"]["start_s"] == 10 and float(first_checkpoint["start_s"]) == 10, "both write from t = 10 s")
check_close(both["train"]["checkpoint_write_s"], train_s, 0.05, "checkpoint sharing the OSTs 1:1")
check_close(both["ingest"]["makespan_s"], ingest_s, 0.05, "transfer sharing the OSTs 1:1")
# The OSTs are the bottleneck: a storage server's utilisation is the share of its disks at work,
# full in every whole sample while both phases write, with writes waiting at every server.
rows = [r for r in csv.DictReader(open(os.path.join(both_out, "service_pfs.csv"))) if 30 <= float(r["time_s"]) <= 80]
check(len(rows) == 4 * 6 and all(float(r["utilisation"]) > 0.999 for r in rows),
      f"pfs disks not saturated: {[(r['time_s'], r['server'], r['utilisation']) for r in rows][:8]}")
check(all(float(r["queue_length"]) >= 1 for r in rows), "no write waits at a saturated server")

# Two streams per client (128 transfer writers against 64): the transfer gets 2/3 of the OSTs.
_, skewed = contention("phases.ingest.streams=2", "phases.ingest.bytes=17.5GB")
train_s, ingest_s = fair_share(CHECKPOINT_B, 64, 1120e9, 128)
check_close(skewed["train"]["checkpoint_write_s"], train_s, 0.05, "checkpoint with 1/3 of the OSTs")
check_close(skewed["ingest"]["makespan_s"], ingest_s, 0.05, "transfer with 2/3 of the OSTs")

# io_replay: auto. Seven checkpoints, 10 s apart: a checkpoint is replayed through the services
# when the transfer runs at its start, or when no checkpoint has been measured alone yet;
# otherwise it is charged the cost measured alone.
out, phases = contention("phases.train.iterations=8")
ingest_end = phases["ingest"]["end_s"]
rows = list(csv.DictReader(open(os.path.join(out, "train_checkpoints.csv"))))
measured_alone = None
for row in rows:
    start, replayed = float(row["start_s"]), row["replayed"] == "1"
    overlaps = start < ingest_end
    check(replayed == (overlaps or measured_alone is None),
          f"checkpoint {row['checkpoint']} at {start} s (transfer until {ingest_end} s): replayed={replayed}")
    duration = float(row["end_s"]) - start
    if replayed and not overlaps and measured_alone is None:
        measured_alone = duration
    elif not replayed:
        check_close(duration, measured_alone, 1e-9, f"checkpoint {row['checkpoint']} charged its measured cost")
check(measured_alone is not None and any(r["replayed"] == "0" for r in rows),
      "the case never charges a measured checkpoint")
check(sum(r["replayed"] == "1" for r in rows) == phases["train"]["io_replays"], "io_replays counts the replays")

finish()
