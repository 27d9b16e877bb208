"""Packaging: `cmake --install` into a staging directory and the CPack .deb hold llsim, the
analysis scripts, the scenarios, the traces, the README and docs/ beside it, and the demo runs
from the staged copy, plotting with the staged plot.py."""
import json
import os
import stat
import subprocess

from harness import LLSIM, check, finish, scratch_dir

BUILD = os.path.dirname(LLSIM)


def sh(*command, env=None):
    proc = subprocess.run(list(command), capture_output=True, text=True, env=env)
    check(proc.returncode == 0, f"{' '.join(command)}: exit {proc.returncode}\n{proc.stdout[-1500:]}{proc.stderr[-1500:]}")
    return proc


stage = scratch_dir()
sh("cmake", "--install", BUILD, "--prefix", "/usr", env=dict(os.environ, DESTDIR=stage))
usr = os.path.join(stage, "usr")
for path in ["bin/llsim", "share/llsim/analysis/plot.py", "share/llsim/analysis/capacity.py",
             "share/llsim/scenarios/lifecycle.yaml", "share/llsim/scenarios/paper/mooncake_vs_vllm.yaml",
             "share/llsim/traces/mooncake_conversation_trace.jsonl", "share/llsim/traces/licenses/Apache-2.0-Mooncake.txt",
             "share/doc/llsim/README.md", "share/doc/llsim/docs/models.md"]:
    check(os.path.isfile(os.path.join(usr, path)), f"installed: {path}")

# The demo from the staged tree, outside the source tree; --plot must use the staged plot.py,
# which a Python wrapper records.
work = scratch_dir()
calls = os.path.join(work, "python_calls.txt")
wrapper = os.path.join(work, "python")
with open(wrapper, "w") as f:
    f.write(f"#!/bin/sh\necho \"$@\" >> {calls}\nexec /usr/bin/python3 \"$@\"\n")
os.chmod(wrapper, stat.S_IRWXU)
out = os.path.join(work, "demo")
proc = subprocess.run([os.path.join(usr, "bin", "llsim"), "run", os.path.join(usr, "share/llsim/scenarios/lifecycle.yaml"),
                       "--out", out, "--plot", "--quiet"], cwd=work, capture_output=True, text=True,
                      env=dict(os.environ, LLSIM_PYTHON=wrapper))
check(proc.returncode == 0, f"staged demo: {proc.stderr[-2000:]}")
if proc.returncode == 0:
    with open(os.path.join(out, "summary.json")) as f:
        kinds = sorted(p["kind"] for p in json.load(f)["phases"].values())
    check(kinds == ["ingest", "preprocess", "serve", "serve", "train"], f"the staged demo runs all four kinds: {kinds}")
    check(open(calls).read().split()[0] == os.path.join(usr, "share/llsim/analysis/plot.py"),
          f"--plot used the staged plot.py: {open(calls).read()}")
    check(len(os.listdir(os.path.join(out, "plots"))) > 0, "plots drawn")

# The .deb: built by CPack, with the same files under /usr.
debs = scratch_dir()
sh("cpack", "-G", "DEB", "--config", os.path.join(BUILD, "CPackConfig.cmake"), "-B", debs)
names = [n for n in os.listdir(debs) if n.endswith(".deb")]
check(len(names) == 1 and names[0].startswith("llsim_"), f"one llsim .deb: {names}")
if names:
    deb = os.path.join(debs, names[0])
    listing = sh("dpkg-deb", "--contents", deb).stdout
    for path in ["./usr/bin/llsim", "./usr/share/llsim/analysis/plot.py", "./usr/share/llsim/scenarios/lifecycle.yaml",
                 "./usr/share/llsim/traces/mooncake_conversation_trace.jsonl", "./usr/share/doc/llsim/docs/models.md"]:
        check(path in listing, f".deb holds {path}")
    depends = sh("dpkg-deb", "--field", deb, "Depends").stdout
    check("libsimgrid3.32" in depends and "libyaml-cpp0.7" in depends, f".deb depends: {depends}")
    unpacked = scratch_dir()
    sh("dpkg-deb", "-x", deb, unpacked)
    proc = subprocess.run([os.path.join(unpacked, "usr/bin/llsim"), "validate",
                           os.path.join(unpacked, "usr/share/llsim/scenarios/lifecycle.yaml")],
                          capture_output=True, text=True)
    check(proc.returncode == 0 and "valid" in proc.stdout, f"the unpacked .deb's llsim validates the demo: {proc.stderr}")
finish()
