"""provenance.json: where, when, how and with what the profile was measured, and what it left
out and why."""
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(*command):
    """The command's stripped stdout, or None when it cannot run or fails."""
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def _cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def device_facts(device):
    """The device's name and the software under the measurement."""
    facts = {"type": device.type, "torch": torch.__version__, "python": platform.python_version()}
    if device.type == "cuda":
        facts.update(name=torch.cuda.get_device_name(device), count=torch.cuda.device_count(),
                     cuda_runtime=torch.version.cuda, cudnn=torch.backends.cudnn.version(),
                     driver=_run("nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader",
                                 f"--id={device.index or 0}"))
    else:
        facts.update(name=_cpu_name(), threads=torch.get_num_threads())
    return facts


def llsim_commit():
    """The llsim commit the profiler ran from, and whether its tree had changes."""
    commit = _run("git", "-C", ROOT, "rev-parse", "HEAD")
    changes = _run("git", "-C", ROOT, "status", "--porcelain")
    return {"commit": commit, "modified": bool(changes) if changes is not None else None}


def write(folder, facts):
    """provenance.json: `facts` with the command, the date and the llsim commit."""
    record = {"command": shlex.join([sys.executable] + sys.argv),
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "llsim": llsim_commit(), **facts}
    with open(os.path.join(folder, "provenance.json"), "w") as f:
        json.dump(record, f, indent=2)
        f.write("\n")
    return record
