"""Every broken scenario in tests/bad/ must exit 2 with a message naming the file, the line its
'# expect-line:' header gives and the text of its '# expect:' header, and leave no output
directory behind. Bad command lines exit 2 too."""
import glob
import os

from harness import ROOT, check, finish, run, scratch_dir


def expectations(path):
    line, text = None, None
    with open(path) as f:
        for raw in f:
            if raw.startswith("# expect-line:"):
                line = int(raw.split(":", 1)[1])
            elif raw.startswith("# expect:"):
                text = raw.split(":", 1)[1].strip()
    return line, text


corpus = sorted(glob.glob(os.path.join(ROOT, "tests", "bad", "*", "*.yaml")))
check(len(corpus) >= 15, f"only {len(corpus)} broken scenarios in tests/bad")
for path in corpus:
    rel = os.path.relpath(path, ROOT)
    line, text = expectations(path)
    if line is None or text is None:
        check(False, f"{rel}: missing '# expect-line:' or '# expect:' header")
        continue
    out = os.path.join(scratch_dir(), "out")
    _, _, err = run("run", rel, "--out", out, expect=2)
    check(f"{rel}:{line}:" in err, f"{rel}: message does not name line {line}: {err.strip()}")
    check(text in err, f"{rel}: message lacks {text!r}: {err.strip()}")
    check(not os.path.exists(out), f"{rel}: left an output directory behind")
    _, _, err = run("validate", rel, expect=2)
    check(text in err, f"{rel}: validate message lacks {text!r}")

# Files that cannot be read as scenarios.
_, _, err = run("run", "tests/bad/no_such_file.yaml", expect=2)
check("tests/bad/no_such_file.yaml: no such file" in err, f"missing file: {err}")
_, _, err = run("run", "tests", expect=2)
check("tests: not a regular file" in err, f"directory: {err}")

# --set errors point at the argument.
_, _, err = run("run", "scenarios/demo.yaml", "--set", "phases.stage.bytes=10TB/s", expect=2)
check("--set phases.stage.bytes=10TB/s: phases[0].bytes: unknown unit 'TB/s'" in err, f"--set unit: {err}")
_, _, err = run("run", "tests/inputs/memory_pool.yaml", "--set", "platform.groups.cpu.count=2000000000", expect=2)
check("--set platform.groups.cpu.count=2000000000: platform.groups.cpu.count: the platform has more than" in err,
      f"--set host limit: {err}")
_, _, err = run("run", "scenarios/demo.yaml", "--set", "phases.stag.bytes=1GB", expect=2)
check("no item named 'stag'" in err, f"--set unknown phase: {err}")
# A list item of a list the scenario lacks: the error names the --set, not the file.
_, _, err = run("validate", "tests/inputs/ingest_mdtest.yaml", "--set", "faults.3.mtbf=1h", expect=2)
check(err.startswith("llsim: error: --set faults.3.mtbf=1h: the scenario has no list 'faults'"), f"--set missing list: {err}")
check("ingest_mdtest.yaml:" not in err, f"--set missing list blames the file: {err}")
_, _, err = run("validate", "scenarios/demo.yaml", "--set", "phases.stage.io.0=1", expect=2)
check("--set phases.stage.io.0=1: the scenario has no list 'phases[0].io'" in err, f"--set missing nested list: {err}")
check("set the whole list instead, e.g. --set 'phases.stage.io=[...]'" in err, f"--set suggestion as typed: {err}")
# Mappings a --set creates are the --set's: errors at them name it, not the file.
for setting, text in [("faults.1e3.mtbf=1h", "faults: expected a list"),
                      ("services.nope.threads=3", "services.nope: missing 'kind:'"),
                      ("platform.groups.foo.disks.read=1GBps", "platform.groups.foo")]:
    _, _, err = run("validate", "tests/inputs/ingest_mdtest.yaml", "--set", setting, expect=2)
    check(err.startswith(f"llsim: error: --set {setting}: ") and text in err and "ingest_mdtest.yaml:" not in err,
          f"--set {setting} creating a mapping: {err}")
# An index too large for any list is no item, not a crash.
_, _, err = run("validate", "scenarios/demo.yaml", "--set", "phases.99999999999999999999.name=x", expect=2)
check("--set phases.99999999999999999999.name=x: 'phases' has no item named '99999999999999999999'" in err,
      f"--set huge index: {err}")
_, _, err = run("run", "scenarios/demo.yaml", "--set", "nonsense", expect=2)
check("expected PATH=VALUE" in err, f"--set syntax: {err}")

# Command-line usage errors.
for args, text in [(["run"], "SCENARIO is required"),
                   (["run", "scenarios/demo.yaml", "--seed", "abc"], "--seed expects a non-negative integer"),
                   (["run", "scenarios/demo.yaml", "--frobnicate"], "not expected: --frobnicate"),
                   (["run", "scenarios/demo.yaml", "--out"], "--out: 1 required DIR missing"),
                   (["validate", "scenarios/demo.yaml", "--plot"], "not expected: --plot"),
                   (["models", "extra"], "not expected: extra"),
                   (["run", "scenarios/demo.yaml", "x", "--quiet", "y"], "not expected: x y\n"),
                   (["run", "scenarios/demo.yaml", "--log=llsim.svc.storage:loud"], "unknown level 'loud'"),
                   (["run", "scenarios/demo.yaml", "--log=llsim.svc.storge:debug"],
                    "no log category 'llsim.svc.storge': did you mean 'llsim.svc.storage'?"),
                   (["run", "scenarios/demo.yaml", "--log=llsim"], "expected CATEGORY:LEVEL"),
                   (["simulate"], "unknown command 'simulate'"),
                   (["runn", "scenarios/demo.yaml"], "unknown command 'runn': did you mean 'run'? (expected run, validate"),
                   (["trace"], "'trace' expects the subcommand 'stats'"),
                   (["run", "scenarios/demo.yaml", "scenarios/demo.yaml"], "not expected: scenarios/demo.yaml")]:
    _, _, err = run(*args, expect=2)
    check(text in err, f"llsim {' '.join(args)}: lacks {text!r}: {err}")
    check("usage:" in err, f"llsim {' '.join(args)}: no usage text")
    check(err.startswith("llsim: error: "), f"llsim {' '.join(args)}: the message comes first: {err}")
    if args[0] in ("run", "validate", "models"):
        check(err.count("llsim ") <= 3, f"llsim {' '.join(args)}: only the usage of {args[0]}: {err}")
# An --out that cannot be written is refused before the simulation.
for out, text in [("", "--out expects a directory"), ("/proc/llsim", "cannot create a directory in '/proc'")]:
    _, _, err = run("run", "scenarios/demo.yaml", "--out", out, expect=2)
    check(text in err, f"--out {out!r}: {err}")

finish()
