"""analysis/validate_serving.py (docs/validation.md) runs: the operators model fitted to Llama-2-7B's
measured operators within 3% predicts Llama-2-70B's (another model, TP 1 to 8) within 5% on both
GPUs, and the end-to-end comparison against Splitwise's runs produces its table (--quick: one
configuration per GPU and TP degree)."""
import csv
import os
import re
import subprocess

from harness import LLSIM, ROOT, check, finish, scratch_dir

out = scratch_dir()
proc = subprocess.run(["/usr/bin/python3", "analysis/validate_serving.py", "--llsim", LLSIM, "--out", out, "--quick"],
                      cwd=ROOT, capture_output=True, text=True)
check(proc.returncode == 0, f"validate_serving.py exits 0: {proc.stderr[-2000:]}")
report = proc.stdout
for gpu in ("a100-80gb", "h100-80gb"):
    line = next((l for l in report.splitlines() if l.startswith(f"- {gpu}:")), "")
    m = re.search(r"fit error ([0-9.]+)% \(5-fold held-out ([0-9.]+)%\).*not fitted\): ([0-9.]+)%", line)
    check(m is not None, f"{gpu}: the report states the fit and the prediction: {line}")
    if m:
        fit, held, predicted = (float(x) for x in m.groups())
        check(fit < 3 and held < 3, f"{gpu}: Llama-2-7B's operators fitted within 3% ({fit}%, held-out {held}%)")
        check(predicted < 5, f"{gpu}: Llama-2-70B's operators predicted within 5% ({predicted}%)")
with open(os.path.join(out, "points.csv")) as f:
    rows = list(csv.DictReader(f))
check(len(rows) == 6, f"--quick: one configuration per GPU and TP degree ({len(rows)})")
for r in rows:
    for variant in ("operators", "operators_measured_allreduce", "operators_steps_fit", "roofline"):
        check(float(r[f"{variant}_prompt_ms"]) > 0 and float(r[f"{variant}_token_ms"]) > 0,
              f"{variant} predicted {r['hardware']} TP{r['tp']}")
check("| all | all | 6 |" in report, "the table has its total row")
finish()
