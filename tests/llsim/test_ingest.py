"""The ingest phase through llsim: the scaling shapes of the four metadata models on mdtest easy
and hard, scale k, the client cache, subtree rebalancing, the journal (devices, checkpoint
models, record and block sizes), capacity accounting, the tree and trace workloads, and that
every declared parameter changes a result."""
import csv
import os

from harness import check, check_close, finish, phase_metrics, run, scratch_dir, summary

MD = "tests/inputs/ingest_mdtest.yaml"


def md(*sets):
    return phase_metrics(MD, "md", *sets)


def model(impl, pattern, servers, *sets):
    return md(f"services.mds.model.impl={impl}", f"phases.md.workload.pattern={pattern}",
              f"platform.groups.mds.count={servers}", *sets)


# Scaling shapes (issue acceptance): creates from 256 ranks, 1 vs 16 servers.
rate = {}
for impl in ["single", "subtree", "hashed", "decoupled"]:
    for pattern in ["easy", "hard"]:
        rate[impl, pattern] = model(impl, pattern, 16)["ops_per_s"] / model(impl, pattern, 1)["ops_per_s"]
check(rate["hashed", "easy"] >= 10, f"hashed on easy scales {rate['hashed', 'easy']:.1f}x from 1 to 16 servers")
check(rate["decoupled", "easy"] >= 10, f"decoupled on easy scales {rate['decoupled', 'easy']:.1f}x")
check(rate["decoupled", "hard"] >= 8, f"decoupled on hard scales {rate['decoupled', 'hard']:.1f}x")
check(rate["subtree", "hard"] <= 1.5, f"subtree on hard: {rate['subtree', 'hard']:.2f}x")
check(rate["hashed", "hard"] <= 3, f"hashed on hard (the parent's server): {rate['hashed', 'hard']:.2f}x")
for pattern in ["easy", "hard"]:
    check(rate["single", pattern] <= 1.05, f"single on {pattern}: {rate['single', pattern]:.2f}x")

# What an operation costs in RPCs: hashed pays a parent update per create; on hard the parent's
# server takes half of all RPCs.
h = model("hashed", "hard", 16)
check(h["max_server_share"] > 0.3, f"hashed hard: busiest server share {h['max_server_share']:.2f}")
d = model("decoupled", "hard", 16)
check(d["max_server_share"] < 0.1, f"decoupled hard: busiest server share {d['max_server_share']:.2f}")
check_close(model("hashed", "easy", 4)["rpcs_per_op"], 2, 0.01, "hashed easy: create + parent update")

# Counts: 256 ranks x 200 files (+ 256 rank directories + the top one); hard adds a close per file
# and 3,901 bytes to storage.
e = model("decoupled", "easy", 4)
check(e["ops"] == 256 * 200 + 257 and e["files"] == 256 * 200, f"easy counts: {e['ops']} ops, {e['files']} files")
check(e["data_bytes"] == 0, "easy files are empty")
check_close(e["metadata_bytes"], (256 * 200 + 257) * 700, 1e-9, "metadata bytes: 700 B per inode")
check_close(model("decoupled", "easy", 4, "services.mds.inode_bytes=1KB")["metadata_bytes"],
            (256 * 200 + 257) * 1000, 1e-9, "inode_bytes")
check(d["ops"] == 2 * 256 * 200 + 1 and d["data_bytes"] == 256 * 200 * 3901, f"hard: {d['ops']} ops, {d['data_bytes']} B")
no_storage = md("services.mds.model.impl=decoupled", "phases.md.workload.pattern=hard", "phases.md.storage=null")
check(no_storage["data_bytes"] == 0, "without a storage service no bytes are written")

# mdtest phases: stat and delete after create; delete frees the inodes again.
full = md("phases.md.workload.phases=[create, stat, delete]", "phases.md.workload.files_per_rank=50")
check(full["ops"] == 3 * 256 * 50 + 257, f"create+stat+delete ops: {full['ops']}")
check_close(full["metadata_bytes"], 257 * 700, 1e-9, "after delete only the directories remain")
out = scratch_dir()
run("run", MD, "--quiet", "--out", out, "--set", "phases.md.workload.phases=[create, stat]")
with open(os.path.join(out, "md_steps.csv")) as f:
    steps = list(csv.DictReader(f))
check([s["step"] for s in steps] == ["setup", "create", "stat"], f"steps: {[s['step'] for s in steps]}")
check(float(steps[2]["ops_per_s"]) > float(steps[1]["ops_per_s"]), "stats (200k/s) are faster than creates (50k/s)")
with open(os.path.join(out, "md_latency.csv")) as f:
    lat = list(csv.DictReader(f))
check({r["op"] for r in lat} == {"mkdir", "create", "stat"}, f"latency histogram ops: {({r['op'] for r in lat})}")
check(sum(float(r["operations"]) for r in lat if r["op"] == "stat") == 256 * 200, "latency histogram counts")
with open(os.path.join(out, "md_servers.csv")) as f:
    rows = list(csv.DictReader(f))
check(sum(float(r["rpcs"]) for r in rows) == summary(out)["phases"]["md"]["ops"] * summary(out)["phases"]["md"]["rpcs_per_op"],
      "servers CSV: every RPC of the phase")
# The last (partial) bucket of the 1 s sample period: its rate is over the time it covers.
end = max(float(r["time_s"]) for r in rows)
tail = [r for r in rows if float(r["time_s"]) == end]
check(len(tail) > 0 and all(abs(float(r["rpcs_per_s"]) * (end - int(end)) - float(r["rpcs"])) < 1e-6 * float(r["rpcs"])
                            for r in tail), "the last bucket's rate is over the time it covers")
check_close(float(rows[-1]["time_s"]), summary(out)["phases"]["md"]["end_s"], 1e-9, "the last bucket ends with the phase")
out2 = scratch_dir()
run("run", MD, "--quiet", "--out", out2, "--set", "phases.md.workload.phases=[create, stat]", "--set",
    "phases.md.sample_period=10ms")
with open(os.path.join(out2, "md_servers.csv")) as f:
    check(len(list(csv.DictReader(f))) > len(rows), "a shorter sample_period gives more rows")

# Same seed, same bytes.
out3 = scratch_dir()
run("run", MD, "--quiet", "--out", out3, "--set", "phases.md.workload.phases=[create, stat]")
for name in ["md_servers.csv", "md_latency.csv", "md_steps.csv"]:
    with open(os.path.join(out, name)) as a, open(os.path.join(out3, name)) as b:
        check(a.read() == b.read(), f"{name} differs between two runs of the same seed")

# Ranks per host: twice the ranks, twice the files.
check(md("phases.md.ranks=8")["files"] == 512 * 200, "ranks per host")

# Scale: 100 files per simulated one. Where queues are short (4 ranks on 8 threads) the rate
# agrees with k = 1 within 5%, and counts are exact.
# (The directories scale too: k = 100 makes 100 copies of the tree, so the create step's rate is
# what compares.)
few = ["platform.groups.clients.count=1", "services.mds.model.impl=single", "platform.groups.mds.count=1"]


def create_step(*sets):
    out = scratch_dir()
    run("run", MD, "--quiet", "--out", out, *[a for s in sets for a in ("--set", s)])
    with open(os.path.join(out, "md_steps.csv")) as f:
        step = [r for r in csv.DictReader(f) if r["step"] == "create"][0]
    return float(step["ops_per_s"]), summary(out)["phases"]["md"]


k1_rate, k1 = create_step(*few, "phases.md.workload.files_per_rank=2000")
k100_rate, k100 = create_step(*few, "phases.md.workload.files_per_rank=20", "phases.md.scale=100")
check_close(k100_rate, k1_rate, 0.05, "scale 100 vs 1: create rate with short queues")
check_close(k100["files"], k1["files"], 1e-9, "scale 100 vs 1: files")
# (Latency percentiles are not preserved: a simulated operation's time is the sum of k service
# times, so per-operation percentiles tend to the mean; sim/ingest/ingest_phase.cpp says so.)

# The client cache: without it every create first looks up both directories.
nocache = model("hashed", "easy", 4, "phases.md.cache.entries=0")
check_close(nocache["rpcs_per_op"], 4, 0.01, "hashed easy without a cache: 2 lookups + 2 RPCs")
check(nocache["ops_per_s"] < 0.7 * model("hashed", "easy", 4)["ops_per_s"], "the cache saves lookups")
check_close(model("hashed", "easy", 4, "phases.md.cache.ttl=0s")["rpcs_per_op"], 4, 0.01, "a zero ttl caches nothing")
# Decoupled resolves both directories at once: one round of lookups, not two.
dec = model("decoupled", "easy", 4, "phases.md.cache.entries=0")
check(dec["mean_latency_s"] < nocache["mean_latency_s"], "parallel resolution is faster")

# Subtree: rebalancing relieves a server that got two hot rank directories.
# (12 rank directories hashed onto 4 servers: the busiest gets a third of the load.) Throughput
# does not improve here: closed-loop ranks and small windows make subtrees move back and forth.
SUB = ["services.mds.model={impl: subtree, depth: 2}", "platform.groups.mds.count=4", "platform.groups.clients.count=3"]
static = md(*SUB)
moving = md(*SUB, "services.mds.model.rebalance={threshold: 1.2, window: 200}")
check(moving["max_server_share"] < static["max_server_share"] - 0.03,
      f"rebalancing: busiest share {moving['max_server_share']:.3f} vs {static['max_server_share']:.3f}")
wide = md(*SUB, "services.mds.model.rebalance={threshold: 1.2, window: 1000}")
check(wide["max_server_share"] != moving["max_server_share"], "rebalance window")
lax = md(*SUB, "services.mds.model.rebalance={threshold: 2, window: 200}")
check(lax["max_server_share"] == static["max_server_share"], "a threshold above the imbalance moves nothing")
deeper = md("services.mds.model={impl: subtree, depth: 1}", "platform.groups.mds.count=4")
check(deeper["max_server_share"] > 0.99, "depth 1: the whole of /mdtest-easy is one subtree")

# The journal: a write-heavy load (creates) on one server, log on NVM, SSD and HDD.
J = ["services.mds.model.impl=single", "platform.groups.mds.count=1", "platform.groups.clients.count=16",
     "platform.groups.mds.disks={count: 2, read: 500MBps, write: 400MBps, capacity: 1TB, latency: 80us}"]


def journal(device, checkpoint="forward", *sets):
    return md(*J, "services.mds.journal={device: " + device + ", checkpoint: {impl: " + checkpoint + ", every: 1MB}}", *sets)


NVM = "{write: 2GBps, read: 6GBps, latency: 1us}"
SSD = "{write: 500MBps, read: 550MBps, latency: 50us}"
HDD = "{write: 150MBps, read: 150MBps, latency: 4ms}"
none = md(*J)
nvm, ssd, hdd = journal(NVM), journal(SSD), journal(HDD)
check(nvm["ops_per_s"] > ssd["ops_per_s"] > hdd["ops_per_s"], f"NVM {nvm['ops_per_s']:.0f} > SSD {ssd['ops_per_s']:.0f} > HDD {hdd['ops_per_s']:.0f}")
check(none["ops_per_s"] >= nvm["ops_per_s"], "a journal never speeds a server up")
check_close(nvm["journal_bytes"], (64 * 200 + 65) * 512, 1e-9, "one 512 B record per mutating operation")
check_close(journal(NVM, "forward", "services.mds.journal.record=1KiB")["journal_bytes"], (64 * 200 + 65) * 1024, 1e-9,
            "record")
rev = journal(NVM, "reverse_scan")
check(0 < rev["home_write_bytes"] < nvm["home_write_bytes"] / 4,
      f"reverse scan writes home {rev['home_write_bytes']:.3g} B vs forward {nvm['home_write_bytes']:.3g} B")
check(journal(NVM, "reverse_scan", "services.mds.journal.block=16KiB")["home_write_bytes"] != rev["home_write_bytes"], "block")
check(journal(NVM, "forward", "services.mds.journal.checkpoint.every=100MB")["home_write_bytes"] == 0,
      "no checkpoint before `every` bytes")
slow_scan = journal("{write: 2GBps, read: 1MBps, latency: 1us}", "reverse_scan")
check(slow_scan["ops_per_s"] < 0.9 * rev["ops_per_s"], "the log's read bandwidth paces checkpoint scans")
slow_home = journal(NVM, "forward", "platform.groups.mds.disks.latency=10ms")
check(slow_home["ops_per_s"] < 0.9 * nvm["ops_per_s"], "a slow home device holds the journal back through checkpoints")

# Capacity: a server whose inodes outgrow its disks (or memory) fails the phase.
_, _, err = run("run", MD, "--quiet", "--out", scratch_dir(), "--set", "platform.groups.mds.memory=10MB", expect=1)
check("mds-0" in err and "room for 1e+07 B" in err.replace("10000000.000000", "1e+07") or "mds-0" in err and "its memory" in err,
      f"capacity error: {err.strip()[-300:]}")

# The tree workload: sites, subdirectories, Zipf files per site.
TREE = "phases.md.workload={impl: tree, files: 20000, sites: 100, fanout: 4, skew: 1, file_size: 10KB}"
t = md(TREE, "services.mds.model={impl: subtree, depth: 2}", "platform.groups.mds.count=8")
check(t["files"] == 20000 and t["ops"] == 1 + 100 + 400 + 2 * 20000, f"tree: {t['files']} files, {t['ops']} ops")
check_close(t["metadata_bytes"], (1 + 100 + 400 + 20000) * 700, 1e-9, "tree: /crawl, sites, directories, files")
check_close(t["data_bytes"], 20000 * 10e3, 1e-9, "tree: file bytes")
flat = md(TREE.replace("skew: 1", "skew: 0"), "services.mds.model={impl: subtree, depth: 2}", "platform.groups.mds.count=8")
check(t["max_server_share"] > flat["max_server_share"], "skewed sites load their server more")
check(md(TREE.replace("fanout: 4", "fanout: 1"))["ops"] == 1 + 100 + 100 + 2 * 20000, "fanout")
check(md(TREE.replace("sites: 100", "sites: 10"))["ops"] == 1 + 10 + 40 + 2 * 20000, "sites")
check(md(TREE.replace("file_size: 10KB", "file_size: 0B"))["data_bytes"] == 0, "file_size")

# The trace workload: ops in file order per client, not before their time.
tr = md("phases.md.workload={impl: trace, file: ingest_trace.csv}")
check(tr["ops"] == 10 + 2, f"trace: {tr['ops']} ops (10 lines, and a close after each create with bytes)")
check(tr["makespan_s"] >= 0.5, "trace times are honoured")
check_close(tr["data_bytes"], 30000, 1e-9, "trace bytes")

# A disk's latency is paid by every I/O of a storage service too.
fast = phase_metrics("tests/inputs/ingest_mdtest.yaml", "md", "phases.md.workload.pattern=hard")
slow = phase_metrics("tests/inputs/ingest_mdtest.yaml", "md", "phases.md.workload.pattern=hard",
                     "platform.groups.oss.disks.latency=5ms")
check(slow["makespan_s"] > fast["makespan_s"] + 5e-3, "disk latency slows the file writes")

# The paper scenarios, smaller: the journal comparison keeps its order, reverse scan writes less
# home; ten billion files keeps its counts exact under scale.
NJ = "scenarios/paper/nvm_journal.yaml"
paper = {}
for name, device in [("nvm", NVM), ("ssd", SSD), ("hdd", HDD)]:
    paper[name] = phase_metrics(NJ, "md", "services.mds.journal.device=" + device, "phases.md.workload.files_per_rank=500")
check(paper["nvm"]["ops_per_s"] > paper["ssd"]["ops_per_s"] > paper["hdd"]["ops_per_s"], "nvm_journal: NVM > SSD > HDD")
fwd = phase_metrics(NJ, "md", "services.mds.journal.checkpoint.impl=forward", "phases.md.workload.files_per_rank=500")
check(paper["nvm"]["home_write_bytes"] < fwd["home_write_bytes"] / 4, "nvm_journal: reverse scan writes less home")
check(paper["nvm"]["ops_per_s"] > fwd["ops_per_s"], "nvm_journal: forward checkpoints slow the server")
tb = phase_metrics("scenarios/paper/ten_billion_files.yaml", "crawl", "phases.crawl.workload.files=20k")
check(tb["files"] == 20000 * 10000, f"ten_billion_files: {tb['files']} files")
check(tb["metadata_bytes"] >= tb["files"] * 700 and tb["metadata_bytes"] % (700 * 10000) == 0,
      f"ten_billion_files: metadata {tb['metadata_bytes']} B")

finish()
