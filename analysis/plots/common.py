"""What every plot module uses: units, reading a run directory (its CSVs, summary.json and
resolved.json), a service's samples as rates, stored levels, and the drawing helpers.

Every axis holds one quantity in human units (GB/s, ops/s, a 0-1 fraction; ms, s, min, h or days
chosen from the time span). Byte and operation counts per sample period of the service CSVs are
turned into rates with the service's sample_period_s from summary.json."""
import csv
import json
import math
import os
import re
import sys

MAX_LINES = 8                 # more servers or instances than this: draw their mean and maximum
TIME_UNITS = [("ms", 1e-3, 2.0), ("s", 1.0, 120.0), ("min", 60.0, 7200.0), ("h", 3600.0, 3 * 86400.0),
              ("days", 86400.0, math.inf)]   # (name, seconds per unit, largest span shown in it)
DURATION_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0, "d": 86400.0,
                  "y": 365 * 86400.0}


def fail(message):
    print(f"plot.py: {message}", file=sys.stderr)
    sys.exit(1)


# ---------------------------------------------------------------- units


def time_unit(span_s):
    """(unit name, seconds per unit) for a time axis spanning span_s seconds: ms, s, min, h, days."""
    for name, seconds, largest in TIME_UNITS:
        if span_s <= largest:
            return name, seconds
    return TIME_UNITS[-1][:2]


def parse_duration(text):
    """Seconds of a duration as resolved.json gives it ('30s', '100ms', '10min'), or None."""
    match = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([a-z]*)\s*", str(text))
    if not match or match.group(2) not in DURATION_UNITS:
        return None
    return float(match.group(1)) * DURATION_UNITS[match.group(2)]


def plural(count, noun):
    return f"{count:,.0f} {noun}{'' if count == 1 else 's'}"


def nice_step(span, count):
    """A round step (1, 2 or 5 times a power of ten) cutting span into about count pieces."""
    raw = max(span / count, 1e-9)
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def human_bytes(value):
    """'22.4 MB', '1.4 TB': base-10 units as llsim writes them."""
    for unit, size in [("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)]:
        if abs(value) >= size:
            return f"{value / size:.3g} {unit}"
    return f"{value:.0f} B"


def size_unit(peak_bytes):
    """('TB', 1e-12) from 1 TB on, else ('GB', 1e-9)."""
    return ("TB", 1e-12) if peak_bytes >= 1e12 else ("GB", 1e-9)


# ---------------------------------------------------------------- reading


def read_rows(path):
    """The rows of a CSV as dicts of text."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def read_resolved(run_dir):
    """resolved.json as nested dicts: {'groups': {...}, 'services': {...}, 'phases': {name: {...}}},
    every scalar as the text llsim wrote it (numbers and true/false too: the plots compare names,
    one of which may look like a number, and parse durations and flags themselves). Empty when
    the run directory has no resolved.json (one written by an llsim older than that file)."""
    path = os.path.join(run_dir, "resolved.json")
    out = {"groups": {}, "services": {}, "phases": {}}
    if not os.path.isfile(path):
        return out
    with open(path) as f:
        top = as_text(json.load(f, parse_int=str, parse_float=str))
    if not isinstance(top, dict):
        return out
    out["groups"] = (top.get("platform") or {}).get("groups") or {}
    out["services"] = top.get("services") or {}
    out["phases"] = {p["name"]: p for p in top.get("phases") or [] if isinstance(p, dict) and "name" in p}
    return out


def as_text(node):
    """A JSON document with true and false turned back into the text resolved.yaml gives them."""
    if isinstance(node, dict):
        return {k: as_text(v) for k, v in node.items()}
    if isinstance(node, list):
        return [as_text(v) for v in node]
    if isinstance(node, bool):
        return "true" if node else "false"
    return node


def service_server_count(resolved, name):
    """Servers of a service: the host count of its group in resolved.json, or None."""
    group = resolved["services"].get(name, {}).get("servers")
    count = number(resolved["groups"].get(group, {}).get("count")) if isinstance(group, str) else None
    return int(count) if count else None


# ---------------------------------------------------------------- service samples


class ServiceSamples:
    """A service_<name>.csv as rates on the grid of its sample periods (the last period ends
    with the run): edges (s), per column its total over servers, its mean over `servers` and its
    largest server value per period, and each server's values when there are few servers.
    Rates: bytes -> bytes/s, operations -> operations/s; queue_length and utilisation as written."""

    RATE_COLUMNS = ("bytes", "operations")
    COLUMNS = ("bytes", "operations", "queue_length", "utilisation")

    def __init__(self, rows, period, end, servers=None):
        self.period = period
        self.edges = period_edges(period, end)
        count = len(self.edges) - 1
        names = sorted({r["server"] for r in rows}, key=natural_key)
        self.servers = max(servers or 0, len(names))
        self.total = {c: [0.0] * count for c in self.COLUMNS}
        self.peak = {c: [0.0] * count for c in self.COLUMNS}
        self.per_server = {n: {c: [0.0] * count for c in self.COLUMNS} for n in names} \
            if len(names) <= MAX_LINES else None
        for r in rows:
            self._add(r, count)

    def _add(self, row, count):
        i = min(max(math.ceil(float(row["time_s"]) / self.period - 1e-9) - 1, 0), count - 1)
        span = self.edges[i + 1] - self.edges[i]
        for c in self.COLUMNS:
            value = float(row[c])
            if c in self.RATE_COLUMNS:
                value = value / span if span > 0 else 0.0
            self.total[c][i] += value
            self.peak[c][i] = max(self.peak[c][i], value)
            if self.per_server is not None:
                self.per_server[row["server"]][c][i] = value

    def mean(self, column):
        return [v / self.servers for v in self.total[column]]

    def active(self):
        return any(self.total["bytes"]) or any(self.total["operations"])


def period_edges(period, end):
    """0, period, 2 period, ... up to end (the last period may be shorter)."""
    count = max(math.ceil(end / period - 1e-9), 1)
    return [min(i * period, end) for i in range(count)] + [max(end, 1e-12)]


def natural_key(name):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def read_service(path, period, end, servers=None):
    """ServiceSamples of a service CSV, or None when the service had no activity."""
    rows = read_rows(path)
    if not rows:
        return None
    end = max(end, max(float(r["time_s"]) for r in rows))
    return ServiceSamples(rows, period, end, servers)


# ---------------------------------------------------------------- stored levels


def stored_levels(run, service):
    """Each server's level_curve of a service that reports stored_bytes."""
    period = float(run.summary.get("services", {}).get(service, {}).get("sample_period_s") or 10.0)
    by_server = {}
    for r in run.rows(f"service_{service}.csv"):
        by_server.setdefault(r["server"], []).append((float(r["time_s"]), float(r["stored_bytes"])))
    return {server: level_curve(sorted(points), period) for server, points in by_server.items()}


def level_curve(rows, period):
    """Breakpoints (time, bytes) of a server's stored level from its (time_s, stored_bytes) rows,
    each the level at the end of a sample period that had activity: 0 until the first such
    period starts, then held flat across idle periods (it cannot change in them) and drawn as a
    straight line through each active period (when in it the level moved is not recorded)."""
    curve = [(0.0, 0.0)]
    for t, level in rows:
        period_start = (math.ceil(t / period - 1e-9) - 1) * period
        if period_start > curve[-1][0]:
            curve.append((period_start, curve[-1][1]))
        curve.append((t, level))
    return curve


def levels_at(curve, times):
    """The level_curve's values at sorted times (its last value after its end), in one pass."""
    out, i = [], 0
    for t in times:
        while i + 1 < len(curve) and curve[i + 1][0] < t:
            i += 1
        if i + 1 < len(curve):
            (t0, v0), (t1, v1) = curve[i], curve[i + 1]
            out.append(v0 if t1 == t0 else v0 + (v1 - v0) * (t - t0) / (t1 - t0))
        else:
            out.append(curve[-1][1])
    return out


def level_at(curve, t):
    return levels_at(curve, [t])[0]


# ---------------------------------------------------------------- the run


class Run:
    """What every plotter reads: the run directory, summary.json, resolved.json, pyplot."""

    def __init__(self, run_dir, plt):
        self.run_dir, self.plt = run_dir, plt
        self.out_dir = os.path.join(run_dir, "plots")
        with open(os.path.join(run_dir, "summary.json")) as f:
            self.summary = json.load(f)
        self.resolved = read_resolved(run_dir)
        self.end = float(self.summary.get("simulated_time_s") or 0.0)
        self._services = {}

    def path(self, name):
        return os.path.join(self.run_dir, name)

    def has(self, name):
        return os.path.isfile(self.path(name))

    def rows(self, name):
        return read_rows(self.path(name)) if self.has(name) else []

    def service(self, name):
        """ServiceSamples of service `name` (cached), or None when it is idle or unknown."""
        if name not in self._services:
            info = self.summary.get("services", {}).get(name)
            csv_name = f"service_{name}.csv"
            self._services[name] = None
            if info and self.has(csv_name):
                period = float(info.get("sample_period_s") or 10.0)
                self._services[name] = read_service(self.path(csv_name), period, self.end,
                                                    service_server_count(self.resolved, name))
        return self._services[name]

    def service_kind(self, name):
        return self.summary.get("services", {}).get(name, {}).get("kind", "")


# ---------------------------------------------------------------- drawing helpers


class Figure:
    """Panels one above the other (heights in inches, sharing the time axis unless told) or side
    by side (columns), saved as plots/<name>.png."""

    def __init__(self, run, name, title, heights, width=10, sharex=True, columns=1):
        self.run, self.name = run, name
        self.fig, axes = run.plt.subplots(len(heights), columns, figsize=(width, sum(heights) + 0.6), sharex=sharex,
                                          squeeze=False, layout="constrained", gridspec_kw={"height_ratios": heights})
        self.axes = [ax for row in axes for ax in row]
        self.fig.suptitle(title)

    def save(self):
        for ax in self.axes:
            ax.grid(alpha=0.3)
        target = os.path.join(self.run.out_dir, self.name + ".png")
        self.fig.savefig(target, dpi=110)
        self.run.plt.close(self.fig)
        return target


class TimeAxis:
    """Seconds to the unit chosen for a span; labels the x axis."""

    def __init__(self, start_s, end_s):
        self.start, self.end = start_s, max(end_s, start_s + 1e-9)
        self.unit, self.seconds = time_unit(self.end - self.start)

    def x(self, values):
        return [v / self.seconds for v in values]

    def label(self, ax):
        ax.set_xlabel(f"simulated time ({self.unit})")
        margin = 0.01 * (self.end - self.start)
        ax.set_xlim((self.start - margin) / self.seconds, (self.end + margin) / self.seconds)


def legend(ax, always=False):
    """A legend for a panel with several labelled lines (or one, when `always`): inside when
    they are few, outside on the right when there are many."""
    _, labels = ax.get_legend_handles_labels()
    if len(labels) > 3:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    elif len(labels) > 1 or (labels and always):
        ax.legend(loc="best", fontsize="small", framealpha=0.8)


def plain_log_axis(ax):
    """A logarithmic x axis with ticks written as plain numbers (0.1, 1, 10)."""
    from matplotlib.ticker import FuncFormatter
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))


def zero_based(ax, top):
    """A y axis from 0 with room above `top`, the largest value drawn (0 to 1 when nothing is)."""
    ax.set_ylim(0, top * 1.1 if top > 0 else 1)


def fraction_axis(ax, label):
    ax.set_ylim(-0.02, 1.05)
    ax.set_ylabel(label)


def note(ax, text):
    """A grey message in the middle of an axis that has nothing to show."""
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center", color="grey")
    ax.set_yticks([])


def gantt(ax, rows, axis):
    """Horizontal bars: rows is a list of (label, [(start_s, end_s)], colour); thin bars keep a
    visible edge."""
    for y, (label, intervals, colour) in enumerate(rows):
        bars = [(s / axis.seconds, max(e - s, 0.0) / axis.seconds) for s, e in intervals]
        ax.broken_barh(bars, (y - 0.35, 0.7), facecolors=colour, edgecolors=colour, linewidth=0.6)
    ax.set_yticks(range(len(rows)), labels=[r[0] for r in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)


def stairs(ax, values, edges, **style):
    """values[i] held from edges[i] to edges[i + 1], as one line (matplotlib's own stairs() is
    slow for tens of thousands of steps)."""
    xs, ys = [], []
    for value, start, end in zip(values, edges, edges[1:]):
        if ys and ys[-1] == value:
            xs[-1] = end
        else:
            xs += [start, end]
            ys += [value, value]
    return ax.plot(xs, ys, **style)


def draw_cdf(ax, values, label):
    """An empirical CDF of sorted values: fraction of items at or below each value."""
    n = len(values)
    ax.step(values, [(i + 1) / n for i in range(n)], where="post", label=label)
    fraction_axis(ax, "fraction at or below")
