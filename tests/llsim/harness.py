"""Small harness for scenario tests: runs the real llsim binary and checks its outputs.

Each test script calls check() for every assertion and ends with finish(), which prints
'N passed, N failed' and exits non-zero on any failure. The scratch directories of a test that
passed are removed then; those of a failed one are kept, and finish() says where.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

LLSIM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/llsim"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_results = {"passed": 0, "failed": 0}
_scratch = []  # the test's one parent of all its scratch directories, made at the first


def run(*args, expect=0):
    """Runs llsim with args; returns (exit code, stdout, stderr). Checks the exit code."""
    proc = subprocess.run([LLSIM, *args], capture_output=True, text=True, cwd=ROOT)
    check(proc.returncode == expect,
          f"llsim {' '.join(args)}: exit {proc.returncode}, expected {expect}\n{proc.stderr[-2000:]}")
    return proc.returncode, proc.stdout, proc.stderr


def scratch_dir():
    if not _scratch:
        _scratch.append(tempfile.mkdtemp(prefix="llsim_test_"))
    return tempfile.mkdtemp(dir=_scratch[0])


def summary(out_dir):
    with open(os.path.join(out_dir, "summary.json")) as f:
        return json.load(f)


def run_out(scenario, *sets):
    """Runs `scenario` with --set overrides into a new directory; returns the directory."""
    out = scratch_dir()
    args = ["run", scenario, "--quiet", "--out", out]
    for s in sets:
        args += ["--set", s]
    code, _, _ = run(*args)
    return out if code == 0 else None


def phase_metrics(scenario, phase, *sets):
    """Runs `scenario` with --set overrides; returns the metrics of `phase` (None if it failed)."""
    out = run_out(scenario, *sets)
    return summary(out)["phases"][phase] if out else None


def run_fails(scenario, text, *sets):
    """Runs `scenario` with --set overrides, expecting a bad-input error (exit 2) that says `text`
    and no output directory."""
    out = os.path.join(scratch_dir(), "out")
    args = ["run", scenario, "--out", out]
    for s in sets:
        args += ["--set", s]
    _, _, err = run(*args, expect=2)
    check(text in err, f"error says {text!r}: {err.strip()}")
    check(not os.path.exists(out), f"no output after {text!r}")


def check(condition, message):
    if condition:
        _results["passed"] += 1
    else:
        _results["failed"] += 1
        print("FAIL:", message)


def check_close(actual, expected, rel, message):
    ok = expected != 0 and abs(actual - expected) <= rel * abs(expected)
    check(ok, f"{message}: {actual!r} vs expected {expected!r} (tolerance {rel:.1%})")
    return ok


def finish():
    print(f"{_results['passed']} passed, {_results['failed']} failed")
    failed = _results["failed"] or not _results["passed"]
    if _scratch and failed:
        print(f"its scratch directories are kept in {_scratch[0]}")
    elif _scratch:
        shutil.rmtree(_scratch[0], ignore_errors=True)
    sys.exit(1 if failed else 0)


def slurm_answers():
    """Whether a Slurm cluster answers sinfo with an idle node (CI starts one: tests/slurm/)."""
    try:
        proc = subprocess.run(["sinfo", "-h", "-o", "%t"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0 and "idle" in proc.stdout


def stand_in_commands(commands):
    """Writes bash commands that stand in for real ones (sbatch, squeue) in a new directory and puts it
    first on PATH. In each body, CALLS is a log file every command may append to and FAKE the
    directory (for flag files a test creates). Returns (directory, CALLS path, the PATH to restore)."""
    fake = scratch_dir()
    calls = os.path.join(fake, "calls.log")
    for command, body in commands:
        with open(os.path.join(fake, command), "w") as f:
            f.write("#!/bin/bash\n" + body.replace("CALLS", calls).replace("FAKE", fake) + "\n")
        os.chmod(os.path.join(fake, command), 0o755)
    real_path = os.environ["PATH"]
    os.environ["PATH"] = fake + os.pathsep + real_path
    return fake, calls, real_path
