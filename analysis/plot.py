#!/usr/bin/env python3
"""Draw the plots a capacity planner reads from one llsim run directory.

usage: analysis/plot.py RUN_DIR     (writes RUN_DIR/plots/*.png)

Every axis holds one quantity in human units (GB/s, ops/s, a 0-1 fraction; ms, s, min, h or days
chosen from the time span). Byte and operation counts per sample period of the service CSVs are turned into
rates with the service's sample_period_s from summary.json.

- timeline.png: the phases as bars, below them on the same time axis the total throughput of
  every service (GB/s for storage, forwarding and memory pools; ops/s for metadata services),
  dotted lines where a phase starts.
- service_<name>.png: per server (or mean and busiest server when there are many) throughput
  (GB/s), operations/s, requests waiting and utilisation (0-1), one panel each; and the bytes
  stored, for a memory_pool.
- Per phase, by kind:
  train      <phase>.png: Gantt of compute, blocking checkpoints, background flushes, failures
             and restarts (configured delay plus the mean checkpoint read; the first read when
             resuming); each checkpoint's blocking time; each storage tier's bandwidth
             (io.forwarding, io.storage, io.local) over the phase.
  tasks      <phase>.png: tasks queued and running, workers up and busy, tasks done;
             <phase>_turnaround.png: CDF of the tasks' turnaround.
  ingest     <phase>.png: the workload's steps and RPCs/s per metadata server over time;
             <phase>_latency.png: latency CDF per operation (from the latency histogram).
  preprocess <phase>.png: stage Gantt and sampled busy nodes; <phase>_bytes.png: bytes in and out
             per stage and the phase's corpus reads, network, shuffle and spill bytes.
  serve      <phase>.png: TTFT and TBT CDFs with the SLO lines (from resolved.yaml);
             <phase>_over_time.png: request rate, SLO attainment per arrival window, GPU KV cache
             use, and the stored bytes of its KV pool (a memory_pool service) against its capacity.
  others     (transfer, requests, unknown) <phase>.png: one panel per column of <phase>.csv;
             cumulative byte columns become a rate (GB/s) and a total (GB).

Needs matplotlib: on Debian, apt-get install python3-matplotlib and run with /usr/bin/python3.
"""
import csv
import json
import math
import os
import re
import sys

from llsim_runs import pyplot

MAX_LINES = 8                 # more servers or instances than this: draw their mean and maximum
TIME_UNITS = [("ms", 1e-3, 2.0), ("s", 1.0, 120.0), ("min", 60.0, 7200.0), ("h", 3600.0, 3 * 86400.0),
              ("days", 86400.0, math.inf)]   # (name, seconds per unit, largest span shown in it)
DURATION_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0, "d": 86400.0,
                  "y": 365 * 86400.0}
BYTE_KINDS = ("storage", "forwarding", "memory_pool")


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
    """Seconds of a duration as resolved.yaml writes it ('30s', '100ms', '10min'), or None."""
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


def parse_flow(text):
    """A YAML scalar, flow mapping {a: b, c: {..}} or flow sequence [..] as resolved.yaml writes
    them (enough for llsim's own output; values stay text)."""
    value, _ = _flow_value(text.strip(), 0)
    return value


def _flow_value(text, i):
    if i < len(text) and text[i] in "{[":
        closing, items, i = ("}" if text[i] == "{" else "]"), [], i + 1
        while i < len(text) and text[i] != closing:
            start = i
            if text[i] not in "{[":
                while i < len(text) and text[i] not in ",:" + closing:
                    i += 1
            if closing == "}" and i < len(text) and text[i] == ":":
                key = text[start:i].strip()
                item, i = _flow_value(text, _skip_space(text, i + 1))
                items.append((key, item))
            else:
                item, i = _flow_value(text, start)
                items.append(item)
            i = _skip_space(text, i + 1 if i < len(text) and text[i] == "," else i)
        return (dict(items) if closing == "}" else items), i + 1
    end = i
    while end < len(text) and text[end] not in ",}]":
        end += 1
    return text[i:end].strip(), end


def _skip_space(text, i):
    while i < len(text) and text[i] == " ":
        i += 1
    return i


def read_resolved(run_dir):
    """resolved.yaml as nested dicts: {'groups': {...}, 'services': {...}, 'phases': {name: {...}}}.
    Block mappings and lists nest by indentation (resolved.yaml keeps the style the scenario was
    written in); a value on its key's line is read by parse_flow."""
    path = os.path.join(run_dir, "resolved.yaml")
    out = {"groups": {}, "services": {}, "phases": {}}
    if not os.path.isfile(path):
        return out
    with open(path) as f:
        lines = [(len(line) - len(line.lstrip()), line.strip()) for line in f
                 if line.strip() and not line.lstrip().startswith("#")]
    top = _block(lines, 0, 0)[0] if lines else {}
    if not isinstance(top, dict):
        return out
    out["groups"] = (top.get("platform") or {}).get("groups") or {}
    out["services"] = top.get("services") or {}
    out["phases"] = {p["name"]: p for p in top.get("phases") or [] if isinstance(p, dict) and "name" in p}
    return out


_KEY = re.compile(r"^[^\s{\['\"-][^:]*:(\s|$)")


def _block(lines, i, indent):
    """The block node whose entries start at lines[i], at `indent`: (dict or list, next line)."""
    if lines[i][1].startswith("-"):
        items = []
        while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("-"):
            item = lines[i][1][1:].strip()
            if _KEY.match(item):  # "- name: x" opens a mapping whose keys line up with "name"
                lines[i] = (indent + len(lines[i][1]) - len(item), item)
                node, i = _block(lines, i, lines[i][0])
                items.append(node)
            else:
                items.append(parse_flow(item))
                i += 1
        return items, i
    mapping = {}
    while i < len(lines) and lines[i][0] == indent and not lines[i][1].startswith("-"):
        key, _, value = lines[i][1].partition(":")
        i += 1
        nested = i < len(lines) and (lines[i][0] > indent or (lines[i][0] == indent and lines[i][1].startswith("-")))
        if value.strip() or not nested:
            mapping[key.strip()] = parse_flow(value)
        else:
            mapping[key.strip()], i = _block(lines, i, lines[i][0])
    return mapping, i


def service_server_count(resolved, name):
    """Servers of a service: the host count of its group in resolved.yaml, or None."""
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


def draw_servers(ax, samples, column, axis, scale=1.0, ylabel="", with_legend=False):
    """A panel of one ServiceSamples column: a line per server, or mean and busiest server."""
    x = axis.x(samples.edges)
    if samples.per_server is not None:
        for server, columns in samples.per_server.items():
            stairs(ax, [v * scale for v in columns[column]], x, label=server)
    else:
        stairs(ax, [v * scale for v in samples.mean(column)], x, label=f"mean of {samples.servers} servers")
        stairs(ax, [v * scale for v in samples.peak[column]], x, label="busiest server")
    ax.set_ylabel(ylabel)
    zero_based(ax, max(samples.peak[column]) * scale)
    if with_legend:
        legend(ax)


# ---------------------------------------------------------------- the run


class Run:
    """What every plotter reads: the run directory, summary.json, resolved.yaml, pyplot."""

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


# ---------------------------------------------------------------- timeline


def plot_timeline(run):
    """Phases as bars; below them, on the same axis, every service's total throughput."""
    phases = run.summary.get("phases", {})
    byte_services = [n for n in run.summary.get("services", {})
                     if run.service_kind(n) in BYTE_KINDS and run.service(n)]
    op_services = [n for n in run.summary.get("services", {})
                   if run.service_kind(n) == "metadata" and run.service(n)]
    heights = [max(1.0, 0.3 * len(phases) + 0.5)] + [2.2] * (bool(byte_services) + bool(op_services))
    fig = Figure(run, "timeline", f"phases of '{run.summary.get('scenario')}' (seed {run.summary.get('seed')}) "
                 "and the services' total throughput", heights)
    axis = TimeAxis(0.0, run.end)
    colours = run.plt.rcParams["axes.prop_cycle"].by_key()["color"]
    gantt(fig.axes[0], [(f"{n} ({p['kind']})", [(p["start_s"], p["end_s"])], colours[i % len(colours)])
                        for i, (n, p) in enumerate(phases.items())], axis)
    panel = 1
    if byte_services:
        draw_totals(fig.axes[panel], run, byte_services, "bytes", 1e-9, "GB/s (all servers)", axis)
        panel += 1
    if op_services:
        draw_totals(fig.axes[panel], run, op_services, "operations", 1.0, "metadata ops/s", axis)
    for ax in fig.axes:
        for p in phases.values():
            ax.axvline(p["start_s"] / axis.seconds, color="grey", linestyle=":", linewidth=0.8)
    axis.label(fig.axes[-1])
    return fig.save()


def draw_totals(ax, run, services, column, scale, ylabel, axis):
    """Each service's total over its servers, per sample period."""
    for name in services:
        samples = run.service(name)
        stairs(ax, [v * scale for v in samples.total[column]], axis.x(samples.edges),
                  label=f"{name} ({run.service_kind(name)})")
    ax.set_ylabel(ylabel)
    zero_based(ax, max(max(run.service(n).total[column]) for n in services) * scale)
    legend(ax, always=True)
    periods = min(len(run.service(n).edges) - 1 for n in services)
    if periods < 3:
        ax.set_title(f"the run spans {plural(periods, 'sample period')} of the services' CSVs: "
                     "they cannot show changes within it", fontsize="small")


# ---------------------------------------------------------------- services


def plot_service(run, name):
    """Per server: throughput (GB/s, or MB/s when small), ops/s, requests waiting, utilisation
    (0-1), and stored bytes for a service that reports them; a metadata service's operations
    first."""
    samples = run.service(name)
    kind = run.service_kind(name)
    if samples is None:
        return None
    coarse = "\n(the run spans only a few sample periods: averages over each)" if len(samples.edges) < 4 else ""
    levels = stored_levels(run, name) if "stored_bytes" in (run.rows(f"service_{name}.csv") or [{}])[0] else None
    fig = Figure(run, f"service_{name}", f"service {name} ({kind}, {plural(samples.servers, 'server')}, "
                 f"{samples.period:g} s samples){coarse}", [1.9] * (5 if levels else 4))
    axis = TimeAxis(0.0, samples.edges[-1])
    unit, scale = byte_rate_unit(max(samples.peak["bytes"]))
    order = [1, 0] if kind == "metadata" else [0, 1]
    draw_servers(fig.axes[order[0]], samples, "bytes", axis, scale,
                 f"RPC traffic\n({unit})" if kind == "metadata" else unit, with_legend=order[0] == 0)
    draw_servers(fig.axes[order[1]], samples, "operations", axis, 1.0, "ops/s", with_legend=order[1] == 0)
    draw_servers(fig.axes[2], samples, "queue_length", axis, 1.0, "requests waiting")
    busy = "disks" if kind == "storage" else "threads"
    draw_servers(fig.axes[3], samples, "utilisation", axis, 1.0, f"utilisation\n(share of {busy} busy)")
    fraction_axis(fig.axes[3], fig.axes[3].get_ylabel())
    if levels:
        draw_levels(fig.axes[4], levels, axis)
    axis.label(fig.axes[-1])
    return fig.save()


def draw_levels(ax, levels, axis):
    """Stored bytes over the run: each server's level_curve, or their total and the fullest."""
    times = sorted({t for curve in levels.values() for t, _ in curve} | {axis.end})
    values = {server: levels_at(curve, times) for server, curve in levels.items()}
    peak = max((max(v) for v in values.values()), default=0.0)
    total = [sum(column) for column in zip(*values.values())] if values else [0.0] * len(times)
    unit, scale = size_unit(max(total))
    if len(values) <= MAX_LINES:
        for server in sorted(values, key=natural_key):
            ax.plot(axis.x(times), [v * scale for v in values[server]], label=server)
        zero_based(ax, peak * scale)
    else:
        ax.plot(axis.x(times), [v * scale for v in total], label=f"total of {len(values)} servers")
        ax.plot(axis.x(times), [max(column) * scale for column in zip(*values.values())], label="fullest server")
        zero_based(ax, max(total) * scale)
        legend(ax)
    ax.set_ylabel(f"stored\n({unit})")


def byte_rate_unit(peak_bytes_per_s):
    """('GB/s', 1e-9), or ('MB/s', 1e-6) for rates that stay under 0.1 GB/s."""
    return ("MB/s", 1e-6) if peak_bytes_per_s < 1e8 else ("GB/s", 1e-9)


# ---------------------------------------------------------------- train


def plot_train(run, name, phase):
    """Gantt of the job, each checkpoint's blocking time, and each storage tier's bandwidth."""
    checkpoints = run.rows(f"{name}_checkpoints.csv")
    failures = [float(r["time_s"]) for r in run.rows(f"{name}_failures.csv")]
    settings = run.resolved["phases"].get(name, {})
    io = settings.get("io", {})
    tiers = [(role, io[role]) for role in ("forwarding", "storage", "local") if isinstance(io.get(role), str)]
    delay = parse_duration(settings.get("restart", {}).get("delay", ""))
    fig = Figure(run, name, f"{name} (train): {plural(len(checkpoints), 'checkpoint')}, {plural(len(failures), 'failure')}"
                 f"{f' (restart delay {delay / 60:g} min)' if delay else ''}, goodput {phase.get('goodput', 0):.3f}",
                 [1.8, 1.6] + [1.6] * len(tiers))
    axis = TimeAxis(phase["start_s"], phase["end_s"])
    resume = str(settings.get("resume", "false")).lower() == "true"
    gantt(fig.axes[0], train_gantt_rows(phase, checkpoints, failures, delay, resume), axis)
    fig.axes[0].plot(axis.x(failures), [3] * len(failures), "x", color="black", markersize=7)
    draw_blocking(fig.axes[1], checkpoints, axis)
    for ax, (role, service) in zip(fig.axes[2:], tiers):
        draw_tier(ax, run, role, service, axis)
    if tiers:
        replayed = sum(float(r["replayed"]) > 0 for r in checkpoints)
        charged = " (the others were charged, without I/O)" if replayed < len(checkpoints) else ""
        fig.axes[2].set_title(f"storage tiers, all servers and all phases' traffic; {replayed} of {len(checkpoints)} "
                              f"checkpoints went through the services{charged}", fontsize="small")
    axis.label(fig.axes[-1])
    return fig.save()


def train_gantt_rows(phase, checkpoints, failures, delay, resume):
    """(label, intervals, colour) rows: compute, checkpoint blocking, background flushes, and the
    reads and restarts (the first read when resuming; after a failure the configured restart delay
    and the phase's mean checkpoint read time, when it reports one)."""
    blocking = [(float(r["start_s"]), float(r["end_s"])) for r in checkpoints]
    flushes = [(float(r["end_s"]), float(r["durable_s"])) for r in checkpoints
               if float(r["durable_s"]) > float(r["end_s"])]
    read = phase.get("checkpoint_read_s") or 0.0
    restarts = [(t, t + (delay or 0.0) + read) for t in failures]
    if resume and read:
        restarts.insert(0, (phase["start_s"], phase["start_s"] + read))
    compute = complement((phase["start_s"], phase["end_s"]), sorted(blocking + restarts))
    return [("compute", compute, "tab:green"), ("checkpoint\n(blocking)", blocking, "tab:orange"),
            ("flush to file\nsystem", flushes, "tab:blue"), ("failure (x),\nrestart, read", restarts, "tab:red")]


def complement(span, intervals):
    """The parts of span (start, end) not covered by sorted intervals."""
    out, cursor = [], span[0]
    for s, e in intervals:
        if s > cursor:
            out.append((cursor, min(s, span[1])))
        cursor = max(cursor, e)
    if cursor < span[1]:
        out.append((cursor, span[1]))
    return out


def draw_blocking(ax, checkpoints, axis):
    if not checkpoints:
        note(ax, "no checkpoint")
        return
    blocking = [float(r["blocking_s"]) for r in checkpoints]
    unit, seconds = time_unit(max(blocking))
    ax.plot(axis.x([float(r["start_s"]) for r in checkpoints]), [b / seconds for b in blocking],
            marker="o", linestyle="none", markersize=3, color="tab:orange")
    ax.set_ylabel(f"checkpoint\nblocking ({unit})")
    ax.set_ylim(0, max(blocking) / seconds * 1.15)


def draw_tier(ax, run, role, service, axis):
    samples = run.service(service)
    ax.set_ylabel(f"{service} ({role})\nGB/s")
    if samples is None:
        note(ax, f"no I/O on '{service}'")
        return
    stairs(ax, [v * 1e-9 for v in samples.total["bytes"]], axis.x(samples.edges), color="tab:blue")
    zero_based(ax, max(samples.total["bytes"]) * 1e-9)


# ---------------------------------------------------------------- tasks


def plot_tasks(run, name, phase):
    """Tasks queued and running, workers up and busy, tasks done; turnaround CDF."""
    rows = run.rows(f"{name}.csv")
    if not rows:
        return []
    fig = Figure(run, name, f"{name} (tasks): {phase.get('completed', 0):g} of {phase.get('tasks', 0):g} tasks, "
                 f"{phase.get('reexecutions', 0):g} re-executions", [2.0] * 3)
    axis = TimeAxis(phase["start_s"], phase["end_s"])
    t = axis.x([float(r["time_s"]) for r in rows])
    for column in ("queued", "running"):
        fig.axes[0].step(t, [float(r[column]) for r in rows], where="post", label=column)
    fig.axes[0].set_ylabel("tasks")
    fig.axes[1].step(t, [float(r["workers_up"]) for r in rows], where="post", label="up", linewidth=3, alpha=0.5)
    busy = busy_workers(run.rows(f"{name}_worker_states.csv"))
    if busy:
        fig.axes[1].step(axis.x(busy[0]), busy[1], where="post", label="busy")
    fig.axes[1].set_ylabel("workers")
    fig.axes[2].step(t, [float(r["done"]) for r in rows], where="post", color="tab:green", label="done")
    fig.axes[2].set_ylabel("tasks done")
    for ax in fig.axes:
        ax.set_ylim(bottom=0)
        legend(ax)
    axis.label(fig.axes[-1])
    return [fig.save(), plot_turnaround(run, name)]


def busy_workers(rows):
    """(times, busy worker count) from a <phase>_worker_states.csv."""
    counts = {}
    for r in rows:
        t = float(r["time_s"])
        counts[t] = counts.get(t, 0) + (r["state"] == "busy")
    times = sorted(counts)
    return (times, [counts[t] for t in times]) if times else None


def plot_turnaround(run, name):
    rows = [r for r in run.rows(f"{name}_tasks.csv") if float(r["end_s"]) >= 0]
    if not rows:
        return None
    turnaround = sorted(float(r["end_s"]) - float(r["submit_s"]) for r in rows)
    unit, seconds = time_unit(turnaround[-1])
    fig = Figure(run, f"{name}_turnaround", f"{name} (tasks): turnaround of {len(rows)} completed tasks", [3.2], width=7)
    draw_cdf(fig.axes[0], [v / seconds for v in turnaround], "tasks")
    fig.axes[0].set_xlabel(f"turnaround, submit to end ({unit})")
    return fig.save()


def draw_cdf(ax, values, label):
    """An empirical CDF of sorted values: fraction of items at or below each value."""
    n = len(values)
    ax.step(values, [(i + 1) / n for i in range(n)], where="post", label=label)
    fraction_axis(ax, "fraction at or below")


# ---------------------------------------------------------------- ingest


def plot_ingest(run, name, phase):
    """The workload's steps, and RPCs/s per metadata server over time; latency CDFs."""
    steps = run.rows(f"{name}_steps.csv")
    servers = run.rows(f"{name}_servers.csv")
    fig = Figure(run, name, f"{name} (ingest): {phase.get('ops', 0):,.0f} operations at {phase.get('ops_per_s', 0):,.0f} ops/s, "
                 f"{phase.get('rpcs_per_op', 0):.2f} RPCs per operation", [max(0.3 * len(steps) + 0.5, 1.0), 2.6])
    axis = TimeAxis(phase["start_s"], phase["end_s"])
    gantt(fig.axes[0], [(f"{s['step']} ({float(s['ops_per_s']):,.0f} ops/s)",
                         [(float(s["start_s"]), float(s["end_s"]))], "tab:blue") for s in steps], axis)
    draw_rpc_rates(fig.axes[1], servers, phase["start_s"], axis)
    axis.label(fig.axes[-1])
    return [fig.save(), plot_ingest_latency(run, name)]


def draw_rpc_rates(ax, rows, start, axis):
    """RPCs/s of each metadata server per sample (or mean and busiest of many)."""
    if not rows:
        note(ax, "no per-server samples")
        return
    times = sorted({float(r["time_s"]) for r in rows})
    edges = [start] + times
    index = {t: i for i, t in enumerate(times)}
    per_server = {}
    for r in rows:
        per_server.setdefault(r["server"], [0.0] * len(times))[index[float(r["time_s"])]] = float(r["rpcs_per_s"])
    if len(per_server) <= MAX_LINES:
        for server in sorted(per_server, key=natural_key):
            stairs(ax, per_server[server], axis.x(edges), label=f"server {server}")
    else:
        columns = list(zip(*per_server.values()))
        stairs(ax, [sum(c) / len(c) for c in columns], axis.x(edges), label=f"mean of {len(per_server)} servers")
        stairs(ax, [max(c) for c in columns], axis.x(edges), label="busiest server")
    ax.set_ylabel("RPCs/s per\nmetadata server")
    zero_based(ax, max(max(v) for v in per_server.values()))
    legend(ax)


def plot_ingest_latency(run, name):
    """Latency CDF per operation from <phase>_latency.csv (a histogram: op, low_s, high_s,
    operations), rising linearly across each bin."""
    by_op = {}
    for r in run.rows(f"{name}_latency.csv"):
        by_op.setdefault(r["op"], []).append((float(r["low_s"]), float(r["high_s"]), float(r["operations"])))
    if not by_op:
        return None
    fig = Figure(run, f"{name}_latency", f"{name} (ingest): latency of each operation (from the latency histogram)",
                 [3.5], width=8)
    ax = fig.axes[0]
    for op, bins in by_op.items():
        xs, ys = histogram_cdf(sorted(bins))
        ax.plot([x * 1e3 for x in xs], ys, label=f"{op} ({sum(b[2] for b in bins):,.0f} ops)")
    plain_log_axis(ax)
    ax.set_xlabel("latency (ms)")
    fraction_axis(ax, "fraction of operations at or below")
    legend(ax)
    return fig.save()


def histogram_cdf(bins):
    """Points of the CDF of sorted (low, high, count) bins: flat between bins, linear within."""
    total, running, xs, ys = sum(b[2] for b in bins), 0.0, [], []
    for low, high, count in bins:
        xs += [low, high]
        ys += [running / total, (running + count) / total]
        running += count
    return xs, ys


# ---------------------------------------------------------------- preprocess


def plot_preprocess(run, name, phase):
    """Stage Gantt and sampled busy nodes; bytes per stage and the phase's network bytes."""
    stages = run.rows(f"{name}_stages.csv")
    nodes = run.rows(f"{name}_nodes.csv")
    busy = busy_nodes(nodes)
    heights = [max(0.3 * len(stages) + 0.5, 1.0)] + ([2.0] if busy else [])
    fig = Figure(run, name, f"{name} (preprocess): {phase.get('documents', 0):,.0f} documents, "
                 f"{phase.get('documents_removed', 0):,.0f} removed, {plural(phase.get('tasks', 0), 'task')}", heights)
    axis = TimeAxis(phase["start_s"], phase["end_s"])
    gantt(fig.axes[0], [(f"{s['stage']} ({plural(int(s['tasks']), 'task')})", [(float(s["start_s"]), float(s["end_s"]))], "tab:blue")
                        for s in stages], axis)
    if busy:
        fig.axes[1].plot(axis.x(busy[0]), busy[1], marker="o", markersize=3, linewidth=0.8)
        fig.axes[1].set_ylabel("busy nodes\n(samples)")
        fig.axes[1].set_ylim(bottom=0)
    axis.label(fig.axes[-1])
    return [fig.save(), plot_preprocess_bytes(run, name, phase, stages)]


def busy_nodes(rows):
    """(times, busy node count) from <phase>_nodes.csv, or None when no sample shows a busy node."""
    counts = {}
    for r in rows:
        t = float(r["time_s"])
        counts[t] = counts.get(t, 0) + (r["state"] == "busy")
    if not any(counts.values()):
        return None
    times = sorted(counts)
    return times, [counts[t] for t in times]


PREPROCESS_BYTES = [("bytes_read_local", "corpus read\nlocally"), ("bytes_read_remote", "corpus read\nremotely"),
                    ("network_bytes", "network"), ("shuffle_bytes", "shuffle"), ("spill_bytes", "spilled")]


def plot_preprocess_bytes(run, name, phase, stages):
    """Bars in GB: each stage's input and output, and the phase's totals from summary.json (the
    outputs hold no network bytes over time)."""
    fig = Figure(run, f"{name}_bytes", f"{name} (preprocess): bytes per stage and for the whole phase",
                 [2.6, 2.6], sharex=False, width=9)
    x = list(range(len(stages)))
    for offset, column, label in [(-0.2, "input_bytes", "input"), (0.2, "output_bytes", "output")]:
        bars = fig.axes[0].bar([i + offset for i in x], [float(s[column]) * 1e-9 for s in stages], width=0.4, label=label)
        fig.axes[0].bar_label(bars, labels=[human_bytes(float(s[column])) for s in stages], fontsize="x-small")
    fig.axes[0].set_xticks(x, labels=[s["stage"] for s in stages])
    fig.axes[0].set_ylabel("GB per stage")
    legend(fig.axes[0])
    present = [(k, label) for k, label in PREPROCESS_BYTES if phase.get(k) is not None]
    bars = fig.axes[1].bar(range(len(present)), [phase[k] * 1e-9 for k, _ in present], color="tab:purple")
    fig.axes[1].bar_label(bars, labels=[human_bytes(phase[k]) for k, _ in present], fontsize="x-small")
    fig.axes[1].set_xticks(range(len(present)), labels=[label for _, label in present])
    fig.axes[1].set_ylabel("GB, whole phase")
    for ax in fig.axes:
        ax.margins(y=0.15)
    return fig.save()


def human_bytes(value):
    """'22.4 MB', '1.4 TB': base-10 units as llsim writes them."""
    for unit, size in [("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)]:
        if abs(value) >= size:
            return f"{value / size:.3g} {unit}"
    return f"{value:.0f} B"


# ---------------------------------------------------------------- serve


def plot_serve(run, name, phase):
    """TTFT and TBT CDFs with the SLO; request rate, SLO attainment, GPU KV use and the KV pool's
    occupancy over time."""
    requests = run.rows(f"{name}_requests.csv")
    if not requests:
        return []
    slo = run.resolved["phases"].get(name, {}).get("slo", {})
    done = [r for r in requests if float(r["finish_s"]) >= 0]
    fig = Figure(run, name, f"{name} (serve): {len(done)} of {len(requests)} requests served, "
                 f"SLO attainment {phase.get('slo_attainment', 0):.3f}", [3.6], sharex=False, width=11, columns=2)
    axes = fig.axes
    draw_latency_cdf(axes[0], [float(r["ttft_s"]) for r in done], parse_duration(slo.get("ttft")), "TTFT", 1.0, "s")
    statistic = slo.get("tbt_statistic", "")
    draw_latency_cdf(axes[1], [float(r["tbt_s"]) for r in done if float(r["tbt_s"]) > 0],
                     parse_duration(slo.get("tbt")), f"TBT ({statistic or 'per request'})", 1e3, "ms")
    return [fig.save(), plot_serve_over_time(run, name, phase, requests)]


def draw_latency_cdf(ax, values, slo_s, what, scale, unit):
    if not values:
        note(ax, f"no {what}")
        return
    draw_cdf(ax, sorted(v * scale for v in values), f"{what} of each request")
    if slo_s is not None:
        met = sum(v <= slo_s for v in values) / len(values)
        ax.axvline(slo_s * scale, color="tab:red", linestyle="--", label=f"SLO {slo_s * scale:g} {unit} ({met:.1%} within)")
    plain_log_axis(ax)
    ax.set_xlabel(f"{what} ({unit})")
    ax.legend(loc="lower right", fontsize="small")


def plot_serve_over_time(run, name, phase, requests):
    axis = TimeAxis(phase["start_s"], phase["end_s"])
    window = nice_step(axis.end - axis.start, 40)
    edges = [axis.start + i * window for i in range(math.ceil((axis.end - axis.start) / window) + 1)]
    arrivals = [[] for _ in edges[:-1]]
    for r in requests:
        i = min(int((float(r["arrival_s"]) - axis.start) // window), len(arrivals) - 1)
        arrivals[max(i, 0)].append(float(r["met_slo"]))
    instances = run.rows(f"{name}_instances.csv")
    pool = serve_pool(run, name)
    fig = Figure(run, f"{name}_over_time", f"{name} (serve) over time, {window:g} s windows by arrival",
                 [2.0] * (2 + bool(instances) + bool(pool)))
    stairs(fig.axes[0], [len(a) / window for a in arrivals], axis.x(edges), label="arriving")
    fig.axes[0].set_ylabel("requests/s")
    attainment = [sum(a) / len(a) if a else math.nan for a in arrivals]
    stairs(fig.axes[1], attainment, axis.x(edges), label="per window")
    fig.axes[1].axhline(phase.get("slo_attainment", math.nan), color="grey", linestyle="--", label="whole phase")
    fraction_axis(fig.axes[1], "SLO attainment")
    if instances:
        draw_kv_use(fig.axes[2], instances, edges[1:], axis)
    if pool:
        draw_pool_occupancy(fig.axes[-1], run, pool, axis)
    for ax in fig.axes:
        legend(ax)
    axis.label(fig.axes[-1])
    return fig.save()


def draw_kv_use(ax, rows, times, axis):
    """Share of each instance's KV cache memory in use at the end of each window: mean and
    maximum over instances (or each instance when few)."""
    by_instance = {}
    for r in rows:
        by_instance.setdefault(r["instance"], []).append((float(r["time_s"]), float(r["kv_used_share"])))
    curves = {k: sample_at(sorted(v), times) for k, v in by_instance.items()}
    x = axis.x(times)
    if len(curves) <= MAX_LINES:
        for k in sorted(curves, key=natural_key):
            ax.plot(x, curves[k], label=f"instance {k}")
    else:
        columns = list(zip(*curves.values()))
        ax.plot(x, [sum(c) / len(c) for c in columns], label=f"mean of {len(curves)} instances")
        ax.plot(x, [max(c) for c in columns], label="fullest instance")
    fraction_axis(ax, "KV cache in use\n(share of GPU KV)")


def serve_pool(run, name):
    """The memory_pool service a serve phase keeps its KV blocks in, when its CSV has levels."""
    system = run.resolved["phases"].get(name, {}).get("system", {})
    pool = system.get("pool") if isinstance(system, dict) else None
    rows = run.rows(f"service_{pool}.csv") if pool and run.has(f"service_{pool}.csv") else []
    return pool if rows and "stored_bytes" in rows[0] else None


def draw_pool_occupancy(ax, run, pool, axis):
    """Bytes stored in the pool (all its servers) over the phase, against its capacity. The pool
    is a service: blocks other phases put in it count too."""
    curves = stored_levels(run, pool)
    times = [axis.start] + sorted({t for curve in curves.values() for t, _ in curve if axis.start < t < axis.end}) \
        + [axis.end]
    stored = [sum(column) for column in zip(*(levels_at(curve, times) for curve in curves.values()))]
    capacity = run.summary.get("services", {}).get(pool, {}).get("capacity_bytes", 0)
    unit, scale = size_unit(max(stored + [capacity]))
    period = run.summary.get("services", {}).get(pool, {}).get("sample_period_s", 0)
    ax.plot(axis.x(times), [v * scale for v in stored],
            label=f"stored in '{pool}' (all servers; sampled every {period:g} s)")
    if capacity:
        ax.axhline(capacity * scale, color="tab:red", linestyle="--", label=f"capacity {human_bytes(capacity)}")
    zero_based(ax, max(stored + [capacity]) * scale)
    ax.set_ylabel(f"KVCache pool\n({unit})")


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


def size_unit(peak_bytes):
    """('TB', 1e-12) from 1 TB on, else ('GB', 1e-9)."""
    return ("TB", 1e-12) if peak_bytes >= 1e12 else ("GB", 1e-9)


def sample_at(points, times):
    """The last value of sorted (time, value) points at or before each time (0 before the first)."""
    out, i, value = [], 0, 0.0
    for t in times:
        while i < len(points) and points[i][0] <= t:
            value = points[i][1]
            i += 1
        out.append(value)
    return out


# ---------------------------------------------------------------- generic time series


def plot_series(run, name, phase=None):
    """One panel per column of a time series CSV (first column time_s); a cumulative byte column
    becomes a rate (GB/s) between samples and a total (GB)."""
    path = run.path(f"{name}.csv")
    if not os.path.isfile(path):
        return None
    rows = read_rows(path)
    if not rows or "time_s" not in rows[0] or any(number(v) is None for r in rows for v in r.values()):
        return None
    times = [float(r["time_s"]) for r in rows]
    panels = [p for column in rows[0] if column != "time_s"
              for p in series_panels(column, [float(r[column]) for r in rows], times)]
    if not panels:
        return None
    kind = f" ({phase['kind']})" if phase else ""
    fig = Figure(run, name, f"{name}{kind}", [2.0] * len(panels))
    axis = TimeAxis(phase["start_s"] if phase else min(times), phase["end_s"] if phase else max(times))
    for ax, (label, style, values) in zip(fig.axes, panels):
        draw_series(ax, axis, times, values, label, style)
    axis.label(fig.axes[-1])
    return fig.save()


def series_panels(column, values, times):
    """(y label, style, values) panels for one column; style is 'rate' (one value per interval
    between samples), 'fraction' or 'level'."""
    words = column.replace("_", " ")
    if "bytes" in column and len(values) > 1 and all(b >= a for a, b in zip(values, values[1:])):
        rates = [(b - a) / (t1 - t0) * 1e-9 if t1 > t0 else 0.0
                 for a, b, t0, t1 in zip(values, values[1:], times, times[1:])]
        return [(f"{words}\nper second (GB/s)", "rate", rates), (f"{words}\n(GB)", "level", [v * 1e-9 for v in values])]
    if column.endswith("_share") or column in ("utilisation", "utilization"):
        return [(words, "fraction", values)]
    if column.endswith("_s"):
        return [(f"{words[:-2]} (s)", "level", values)]
    return [(words, "level", values)]


def draw_series(ax, axis, times, values, label, style):
    if style == "rate":
        stairs(ax, values, axis.x(times))
    else:
        ax.plot(axis.x(times), values, marker="." if len(values) < 30 else None)
    if style == "fraction":
        fraction_axis(ax, label)
    else:
        ax.set_ylabel(label)
        if min(values) >= 0:
            ax.set_ylim(0, None if max(values) > 0 else 1)


# ---------------------------------------------------------------- main


PHASE_PLOTTERS = {"train": plot_train, "tasks": plot_tasks, "ingest": plot_ingest,
                  "preprocess": plot_preprocess, "serve": plot_serve}


def plot_phase(run, name, phase):
    plotter = PHASE_PLOTTERS.get(phase.get("kind"))
    written = plotter(run, name, phase) if plotter else plot_series(run, name, phase)
    return [w for w in (written if isinstance(written, list) else [written]) if w]


def plot_run(run_dir):
    """Draws every plot of the run directory; returns the files written."""
    plt = pyplot("plot.py")
    run = Run(run_dir, plt)
    os.makedirs(run.out_dir, exist_ok=True)
    written = [guarded("the timeline", plot_timeline, run)]
    for name in run.summary.get("services", {}):
        written.append(guarded(f"service {name}", plot_service, run, name))
    for name, phase in run.summary.get("phases", {}).items():
        written += guarded(f"phase {name}", plot_phase, run, name, phase)
    return [w for w in written if w]


def guarded(what, plotter, *args):
    """plotter(*args), or exit 1 naming what could not be drawn from outputs that are not what
    this script expects (a missing column, a value that is not a number)."""
    try:
        return plotter(*args)
    except (KeyError, ValueError, TypeError, IndexError, ZeroDivisionError) as e:
        fail(f"cannot plot {what} of {args[0].run_dir}: unexpected outputs ({type(e).__name__}: {e})")


def check_run_dir(args):
    """The run directory named on the command line, or exit 1 saying what is wrong."""
    if len(args) != 1:
        fail("usage: plot.py RUN_DIR")
    run_dir = args[0]
    if not os.path.isdir(run_dir):
        fail(f"{run_dir}: no such directory")
    summary = os.path.join(run_dir, "summary.json")
    if not os.path.isfile(summary):
        fail(f"{run_dir} is not an llsim run directory (no summary.json)")
    try:
        with open(summary) as f:
            content = json.load(f)
    except ValueError as e:
        fail(f"{summary} is not valid JSON ({e})")
    if not isinstance(content, dict) or not isinstance(content.get("phases"), dict):
        fail(f"{summary} has no 'phases' object: not an llsim run summary")
    return run_dir


def main():
    run_dir = check_run_dir(sys.argv[1:])
    written = plot_run(run_dir)
    print("plots: " + ", ".join(written))


if __name__ == "__main__":
    main()
