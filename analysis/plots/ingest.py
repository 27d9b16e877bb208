"""An ingest phase: <phase>.png, the workload's steps and RPCs/s per metadata server over time;
<phase>_latency.png, the latency CDF of each operation (from the latency histogram)."""
from .common import MAX_LINES, Figure, TimeAxis, fraction_axis, gantt, legend, natural_key, note, plain_log_axis, \
    stairs, zero_based


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
