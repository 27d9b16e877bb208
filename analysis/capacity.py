#!/usr/bin/env python3
"""Capacity from an `llsim sweep`: the smallest swept value that meets a target on a metric.

usage: analysis/capacity.py RESULTS --x PATH --metric M --target "<= 2s" [--phase NAME] [--out PNG]

RESULTS is a sweep directory (DIR/summary.csv is read, or DIR/results.csv when there is no
summary) or one of those two files. PATH is a grid axis of the sweep (a column such as
platform.groups.decode.count); its values must be numbers or quantities with units (2, 0.5,
250MBps, 2min). M is a metric column (chat.p90_slo_tbt_s); without a phase prefix it is looked up
in every phase and must be unique, or named with --phase chat. The target is an operator
(<=, <, >=, >) and a value, plain or with a unit converted to the metric's SI unit: durations
(ns us ms s min h d), sizes (B KB MB GB TB PB, KiB MiB GiB TiB PiB), bandwidths (B/s KB/s MB/s
GB/s TB/s, MBps GBps GiBps, Mbps Gbps in bits), or % (a fraction: 90% is 0.9).

The answer is the smallest value of PATH whose mean over the seeds meets the target, printed as
one line on stdout:
  smallest platform.groups.decode.count meeting chat.p90_slo_tbt_s <= 0.1: 4 (mean 0.0417, 95% CI 0.0401-0.0433)
or, when no value meets it, "no swept value of PATH meets ...; the best is ..." (exit status 0:
that is an answer too; the remedy is to sweep further). When the grid has other axes besides
PATH, the answer is given per combination of their values (one line each, "with A=a, B=b"),
and the plot has one line per combination.

Writes the plot (mean, 95% confidence band from the seeds when there are at least two, the
target as a dashed line, the answer marked) to --out (default DIR/capacity_<metric>.png), and
the answer and a table of the points as a subsection for this metric and PATH of the
"## Capacity" section of DIR/report.md (the section llsim sweep leaves for it; added if missing,
and report.md created if there is none). The subsection lies between marker comments, so running
again for the same metric and PATH replaces it; everything else in report.md is kept.
Exit status 1 with "capacity.py: ..." on a missing file, an unknown column (the available ones
are listed), a non-numeric PATH value or a target it cannot read.
Needs matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3) for the plot.
"""
import argparse
import csv
import math
import os
import re
import sys

WHO = "capacity.py"

# Multipliers to SI base units (seconds, bytes, bytes/s) and the kind of quantity.
UNITS = {}
for _name, _mult in [("ns", 1e-9), ("us", 1e-6), ("µs", 1e-6), ("ms", 1e-3), ("s", 1.0), ("sec", 1.0),
                     ("min", 60.0), ("h", 3600.0), ("d", 86400.0)]:
    UNITS[_name] = ("duration", _mult)
_SI = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
_BIN = {"Ki": 2 ** 10, "Mi": 2 ** 20, "Gi": 2 ** 30, "Ti": 2 ** 40, "Pi": 2 ** 50}
for _p, _m in list(_SI.items()) + list(_BIN.items()):
    UNITS[_p + "B"] = ("size", _m)
    UNITS[_p + "B/s"] = ("bandwidth", _m)
    UNITS[_p + "Bps"] = ("bandwidth", _m)
    if _p in _SI:
        UNITS[_p + "bps"] = ("bandwidth", _m / 8)
        UNITS[_p + "b/s"] = ("bandwidth", _m / 8)
UNITS["kB"] = UNITS["KB"]
UNITS["kB/s"] = UNITS["KB/s"]
UNITS["kbps"] = UNITS["Kbps"]
UNITS["%"] = ("fraction", 0.01)
UNIT_HELP = ("durations ns us ms s min h d; sizes B KB MB GB TB PB KiB MiB GiB TiB PiB; "
             "bandwidths B/s KB/s MB/s GB/s TB/s MBps GBps GiBps Mbps Gbps; %; or a plain number")
NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
OPS = {"<=": lambda a, b: a <= b, "<": lambda a, b: a < b, ">=": lambda a, b: a >= b, ">": lambda a, b: a > b}

# t(0.975, df) for the 95% interval when it is computed here from results.csv (as llsim sweep does).
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042]


def fail(message):
    sys.exit(f"{WHO}: {message}")


def t975(df):
    if df <= len(T975):
        return T975[df - 1]
    # Beyond 30 degrees of freedom t is linear in 1/df to three decimals: 2.042 at 30, 1.960 at infinity.
    return 1.960 + (2.042 - 1.960) * 30 / df


def quantity(text):
    """(value in SI units, kind or None) of '2', '100ms', '5GB/s', ...; None if not understood."""
    m = re.fullmatch(rf"\s*({NUMBER})\s*(\S*)\s*", text)
    if not m:
        return None
    value, unit = float(m.group(1)), m.group(2)
    if unit == "":
        return value, None
    if unit not in UNITS:
        return None
    kind, mult = UNITS[unit]
    return value * mult, kind


def parse_target(text):
    m = re.fullmatch(r"\s*(<=|>=|<|>|=<|=>)\s*(.*?)\s*", text)
    if not m:
        fail(f"target {text!r}: expected an operator (<=, <, >=, >) and a value, e.g. \"<= 2s\"")
    op = {"=<": "<=", "=>": ">="}.get(m.group(1), m.group(1))
    vm = re.fullmatch(rf"({NUMBER})\s*(.*)", m.group(2))
    if not vm:
        fail(f"target {text!r}: {m.group(2)!r} is not a number (e.g. \"<= 2s\", \"> 0.9\", \">= 5GB/s\")")
    if vm.group(2) and vm.group(2) not in UNITS:
        fail(f"target {text!r}: unit {vm.group(2)!r} is not understood (understood: {UNIT_HELP})")
    value, kind = quantity(m.group(2))
    return op, value, kind


def metric_kind(column):
    """The kind of quantity a metric column holds, from its name's ending, or None if unknown."""
    name = column.rsplit(".", 1)[-1]
    if name.endswith("_s") or name == "interval_s":
        return "duration"
    if name.endswith("_Bps"):
        return "bandwidth"
    if name.endswith("bytes") or name == "bytes":
        return "size"
    if any(w in name for w in ("ratio", "attainment", "utilization", "utilisation", "goodput", "share")) \
            and not name.endswith("_rps"):
        return "fraction"
    return None


def fmt(v):
    return "nan" if v is None or not math.isfinite(v) else f"{v:.4g}"


class Sweep:
    """Per point: the grid values and, per metric, (n, mean, ci_low, ci_high) (CI None if n < 2)."""

    def __init__(self, path):
        if os.path.isdir(path):
            self.dir = path
            for name in ("summary.csv", "results.csv"):
                if os.path.isfile(os.path.join(path, name)):
                    path = os.path.join(path, name)
                    break
            else:
                fail(f"{self.dir}: neither summary.csv nor results.csv is there (is it an `llsim sweep` --out directory?)")
        elif os.path.isfile(path):
            self.dir = os.path.dirname(path) or "."
        else:
            fail(f"{path}: no such file or directory")
        self.source = path
        try:
            with open(path, newline="") as f:
                reader = csv.reader(f)
                header = next(reader, None)
                rows = list(reader)
        except OSError as e:
            fail(f"{path}: {e.strerror}")
        if not header:
            fail(f"{path}: empty file")
        self.points = {}   # point -> {axis: value text}
        self.stats = {}    # (point, metric) -> (n, mean, lo, hi)
        if header[:1] == ["point"] and "metric" in header and header[-4:] == ["n", "mean", "ci95_low", "ci95_high"]:
            self._read_summary(path, header, rows)
        elif header[:2] == ["point", "seed"] and "simulated_time_s" in header:
            self._read_results(path, header, rows)
        else:
            fail(f"{path}: not an llsim sweep results.csv or summary.csv (header {','.join(header[:6])}...)")

    def _read_summary(self, path, header, rows):
        im = header.index("metric")
        self.axes = header[1:im]
        self.metrics = []
        for r in rows:
            if len(r) != len(header):
                fail(f"{path}: a row has {len(r)} fields, the header {len(header)}")
            point = r[0]
            self.points.setdefault(point, dict(zip(self.axes, r[1:im])))
            if r[im] not in self.metrics:
                self.metrics.append(r[im])
            n, mean, lo, hi = r[im + 1:]
            self.stats[(point, r[im])] = (int(n or 0), _num(mean), _num(lo), _num(hi))

    def _read_results(self, path, header, rows):
        it = header.index("simulated_time_s")
        self.axes = header[2:it]
        self.metrics = header[it:]
        values = {}
        for r in rows:
            if len(r) != len(header):
                fail(f"{path}: a row has {len(r)} fields, the header {len(header)}")
            point = r[0]
            self.points.setdefault(point, dict(zip(self.axes, r[2:it])))
            for m, v in zip(self.metrics, r[it:]):
                values.setdefault((point, m), []).append(_num(v))
        for key, xs in values.items():
            xs = [x for x in xs if x is not None and math.isfinite(x)]
            n = len(xs)
            if n == 0:
                self.stats[key] = (0, None, None, None)
                continue
            mean = sum(xs) / n
            if n < 2:
                self.stats[key] = (n, mean, None, None)
                continue
            half = t975(n - 1) * math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)
            self.stats[key] = (n, mean, mean - half, mean + half)


def _num(text):
    if text is None or text.strip() == "" or text.strip().lower() == "null":
        return None
    try:
        return float(text)
    except ValueError:
        return None


def resolve_metric(sweep, metric, phase):
    want = f"{phase}.{metric}" if phase and not metric.startswith(phase + ".") else metric
    if want in sweep.metrics:
        return want
    if not phase:
        matches = [m for m in sweep.metrics if m.endswith("." + metric)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            fail(f"metric {metric!r} is in several phases or services: {', '.join(matches)}; name one (--phase or a full column)")
    fail(f"unknown metric column {want!r} in {sweep.source}; available: {', '.join(sweep.metrics)}")


def x_values(sweep, x):
    """{point: numeric x} and {point: x text}; fails on a value that is not a number or quantity."""
    numeric, kinds = {}, set()
    for point, axes in sweep.points.items():
        q = quantity(axes[x])
        if q is None:
            fail(f"--x {x}: value {axes[x]!r} (point {point}) is not a number or a quantity with a unit "
                 f"({UNIT_HELP})")
        numeric[point] = q[0]
        kinds.add(q[1])
    if len(kinds) > 1:
        fail(f"--x {x}: its values mix units of different kinds ({', '.join(sorted(str(k) for k in kinds))})")
    return numeric


def analyse(sweep, x, metric, op, target):
    """One answer per combination of the other axes: a list of dicts, in the sweep's order."""
    others = [a for a in sweep.axes if a != x]
    xs = x_values(sweep, x)
    groups = {}
    for point, axes in sweep.points.items():
        key = tuple(axes[a] for a in others)
        groups.setdefault(key, []).append(point)
    answers = []
    for key, points in groups.items():
        rows = []
        for p in sorted(points, key=lambda p: xs[p]):
            n, mean, lo, hi = sweep.stats.get((p, metric), (0, None, None, None))
            rows.append({"point": p, "x": xs[p], "label": sweep.points[p][x], "n": n, "mean": mean, "lo": lo, "hi": hi})
        if len({r["x"] for r in rows}) < len(rows):
            fail(f"--x {x}: two points share the value {x}={rows[0]['label']} with the same other axes "
                 f"(is it the same grid?)")
        valid = [r for r in rows if r["mean"] is not None and math.isfinite(r["mean"])]
        meets = [r for r in valid if OPS[op](r["mean"], target)]
        answer = meets[0] if meets else None
        # When the metric is not monotone in x, a larger value may miss the target again: say so.
        later_miss = [r for r in valid if answer and r["x"] > answer["x"] and not OPS[op](r["mean"], target)]
        best = None
        if valid:
            best = (min if op in ("<=", "<") else max)(valid, key=lambda r: r["mean"])
        answers.append({"others": list(zip(others, key)), "rows": rows, "answer": answer, "best": best,
                        "later_miss": later_miss, "missing": [r for r in rows if r not in valid]})
    return answers


def ci_text(r):
    if r["lo"] is None or r["hi"] is None:
        return f"mean {fmt(r['mean'])}, n = {r['n']}, no CI"
    return f"mean {fmt(r['mean'])}, 95% CI {fmt(r['lo'])}-{fmt(r['hi'])}"


def answer_line(a, x, metric, op, target_text):
    where = f" with {', '.join(f'{k}={v}' for k, v in a['others'])}" if a["others"] else ""
    if a["answer"]:
        return f"smallest {x} meeting {metric} {op} {target_text}{where}: {a['answer']['label']} ({ci_text(a['answer'])})"
    if a["best"] is None:
        return f"no swept value of {x} meets {metric} {op} {target_text}{where}: the metric has no value at any point"
    best = a["best"]
    return (f"no swept value of {x} meets {metric} {op} {target_text}{where}; the best is {x}={best['label']} "
            f"({ci_text(best)}); widen the sweep or relax the target")


def plot(answers, x, metric, op, target, target_text, png):
    try:
        import matplotlib
    except ImportError:
        fail(f"matplotlib is not available to {sys.executable} (apt-get install python3-matplotlib, then run this "
             f"script with /usr/bin/python3); the answer is above")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for a in answers:
        rows = [r for r in a["rows"] if r["mean"] is not None and math.isfinite(r["mean"])]
        label = ", ".join(f"{k.rsplit('.', 1)[-1]}={v}" for k, v in a["others"]) or metric
        line, = ax.plot([r["x"] for r in rows], [r["mean"] for r in rows], marker="o", label=label)
        band = [r for r in rows if r["lo"] is not None and r["hi"] is not None]
        if band:
            ax.fill_between([r["x"] for r in band], [r["lo"] for r in band], [r["hi"] for r in band],
                            color=line.get_color(), alpha=0.2, linewidth=0)
        if a["answer"]:
            ax.plot([a["answer"]["x"]], [a["answer"]["mean"]], marker="*", markersize=16, color=line.get_color(),
                    linestyle="none")
            ax.axvline(a["answer"]["x"], color=line.get_color(), linestyle=":", alpha=0.7)
    ax.axhline(target, color="grey", linestyle="--", label=f"target {op} {target_text}")
    xs = [r["x"] for a in answers for r in a["rows"]]
    if xs and min(xs) > 0 and max(xs) / min(xs) >= 20:
        ax.set_xscale("log")
    ys = [v for a in answers for r in a["rows"] for v in (r["mean"], r["lo"], r["hi"]) if v is not None and math.isfinite(v)]
    if ys and min(ys) > 0 and target > 0 and max(ys + [target]) / min(ys + [target]) >= 100:
        ax.set_yscale("log")
    if len(set(xs)) <= 12 and ax.get_xscale() == "linear":
        ax.set_xticks(sorted(set(xs)))
    ax.set_xlabel(x)
    ax.set_ylabel(f"{metric} (mean over seeds, 95% CI)")
    ax.set_title(f"smallest {'.'.join(x.split('.')[-2:])} with {metric} {op} {target_text} (marked *)",
                 fontsize=10)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)


def report_section(answers, lines, x, metric, op, target, target_text, source, png, sweep_dir):
    """(begin marker, end marker, the Markdown subsection between them, markers included)."""
    begin = f"<!-- capacity.py begin: {metric} against {x} -->"
    end = f"<!-- capacity.py end: {metric} against {x} -->"
    out = [begin, f"### {metric} {op} {target_text} against {x}", "",
           f"From `{os.path.relpath(source, sweep_dir)}` by `analysis/capacity.py`: the smallest swept value whose "
           f"mean over the seeds meets the target.", ""]
    out += [f"- {line}" for line in lines]
    for a in answers:
        if a["later_miss"]:
            out.append(f"- note: the metric is not monotone here; larger values miss the target again "
                       f"({', '.join(r['label'] for r in a['later_miss'])})")
        if a["missing"]:
            out.append(f"- note: no value at {x}={', '.join(r['label'] for r in a['missing'])}")
    others = [k for k, _ in answers[0]["others"]] if answers else []
    out += ["", f"| {' | '.join(others + [x])} | n | mean | 95% CI | meets |",
            "|" + "---|" * (len(others) + 5)]
    for a in answers:
        for r in a["rows"]:
            meets = r["mean"] is not None and math.isfinite(r["mean"]) and OPS[op](r["mean"], target)
            ci = "" if r["lo"] is None or r["hi"] is None else f"{fmt(r['lo'])}-{fmt(r['hi'])}"
            out.append(f"| {' | '.join([v for _, v in a['others']] + [r['label']])} | {r['n']} | {fmt(r['mean'])} | "
                       f"{ci} | {'yes' if meets else 'no'} |")
    rel = os.path.relpath(png, sweep_dir)
    out += ["", f"![{metric} against {x}]({rel})" if not rel.startswith("..") else f"Plot: `{png}`", end]
    return begin, end, "\n".join(out) + "\n"


def write_report(sweep_dir, begin, end, section):
    """Puts `section` under the "## Capacity" heading of DIR/report.md (llsim sweep writes that
    heading last and keeps what follows it when it rewrites the report): in place of the same
    metric and axis's earlier section, else at the end. Adds the heading, and the file, if missing."""
    path = os.path.join(sweep_dir, "report.md")
    text = ""
    if os.path.exists(path):
        with open(path) as f:
            text = f.read()
    if begin in text:
        i = text.index(begin)
        j = text.find(end, i)
        if j < 0:  # the end marker was lost: up to the next section of capacity.py, or the end
            j = text.find("<!-- capacity.py begin:", i + len(begin))
            j = len(text) if j < 0 else j
        else:
            j += len(end) + (text[j + len(end):j + len(end) + 1] == "\n")
        text = text[:i] + section + text[j:]
    else:
        heading = re.search(r"^## Capacity[ \t]*$", text, re.MULTILINE)
        if not heading:
            if not text:
                text = f"# Sweep {os.path.basename(os.path.abspath(sweep_dir))}\n"
            text = text.rstrip("\n") + "\n\n## Capacity\n"
            heading = re.search(r"^## Capacity[ \t]*$", text, re.MULTILINE)
        # At the end of the Capacity section: before the next heading of its level, if any.
        after = re.search(r"^# |^## ", text[heading.end():], re.MULTILINE)
        k = heading.end() + after.start() if after else len(text)
        text = text[:k].rstrip("\n") + "\n\n" + section + ("\n" + text[k:] if after else "")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
    return path


def main():
    ap = argparse.ArgumentParser(prog="analysis/capacity.py", description=__doc__.splitlines()[0],
                                 epilog="example: analysis/capacity.py out/decode_sweep --x platform.groups.decode.count "
                                        "--metric p90_slo_tbt_s --phase chat --target '<= 100ms'")
    ap.add_argument("results", metavar="RESULTS", help="sweep directory, or its results.csv or summary.csv")
    ap.add_argument("--x", required=True, metavar="PATH", help="the swept grid column to answer in")
    ap.add_argument("--metric", required=True, metavar="M", help="metric column, e.g. chat.p90_slo_tbt_s or p90_slo_tbt_s")
    ap.add_argument("--target", required=True, help='operator and value, e.g. "<= 2s", ">= 0.9", ">= 5GB/s"')
    ap.add_argument("--phase", metavar="NAME", help="phase (or services.NAME) the metric belongs to")
    ap.add_argument("--out", metavar="PNG", help="the plot (default DIR/capacity_<metric>.png)")
    a = ap.parse_args()

    op, target, kind = parse_target(a.target)
    sweep = Sweep(a.results)
    metric = resolve_metric(sweep, a.metric, a.phase)
    if a.x not in sweep.axes:
        fail(f"--x {a.x!r} is not a swept column of {sweep.source}; "
             + (f"swept: {', '.join(sweep.axes)}" if sweep.axes else "this sweep has no --grid axis"))
    mkind = metric_kind(metric)
    if kind and mkind and kind != mkind and not (kind == "fraction" and mkind is None):
        fail(f"target {a.target!r} is a {kind} but {metric} holds a {mkind}")
    if kind and mkind is None:
        print(f"{WHO}: note: cannot tell the unit of {metric} from its name; the target is taken as {target:g} "
              f"in SI units ({kind})", file=sys.stderr)
    target_text = re.sub(r"^\s*(<=|>=|<|>|=<|=>)\s*", "", a.target).strip()
    if kind:
        target_text += f" ({target:g})"

    answers = analyse(sweep, a.x, metric, op, target)
    lines = [answer_line(ans, a.x, metric, op, target_text) for ans in answers]
    for line in lines:
        print(line)
    for ans in answers:
        if ans["later_miss"]:
            print(f"{WHO}: note: {metric} is not monotone in {a.x}: larger values miss the target again "
                  f"({', '.join(r['label'] for r in ans['later_miss'])})", file=sys.stderr)

    png = a.out or os.path.join(sweep.dir, f"capacity_{re.sub(r'[^A-Za-z0-9_]+', '_', metric)}.png")
    plot(answers, a.x, metric, op, target, target_text, png)
    begin, end, section = report_section(answers, lines, a.x, metric, op, target, target_text, sweep.source, png, sweep.dir)
    report = write_report(sweep.dir, begin, end, section)
    print(f"{WHO}: {png}; section in {report}", file=sys.stderr)


if __name__ == "__main__":
    main()
