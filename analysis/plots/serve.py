"""A serve phase: <phase>.png, TTFT and TBT CDFs with the SLO lines (from resolved.json);
<phase>_over_time.png, request rate, SLO attainment per arrival window, the instances allocated
and serving (when it autoscales), GPU KV cache use, and the stored bytes of its KV pool (a
memory_pool service) against its capacity."""
import math

from .common import MAX_LINES, Figure, TimeAxis, draw_cdf, fraction_axis, human_bytes, legend, levels_at, \
    natural_key, nice_step, note, parse_duration, plain_log_axis, size_unit, stairs, stored_levels, zero_based


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
    draw_latency_cdf(axes[1], [float(r["slo_tbt_s"]) for r in done if float(r["slo_tbt_s"]) > 0],
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
    scaling = run.rows(f"{name}_scaling.csv") if run.has(f"{name}_scaling.csv") else []
    pool = serve_pool(run, name)
    fig = Figure(run, f"{name}_over_time", f"{name} (serve) over time, {window:g} s windows by arrival",
                 [2.0] * (2 + bool(scaling) + bool(instances) + bool(pool)))
    stairs(fig.axes[0], [len(a) / window for a in arrivals], axis.x(edges), label="arriving")
    fig.axes[0].set_ylabel("requests/s")
    attainment = [sum(a) / len(a) if a else math.nan for a in arrivals]
    stairs(fig.axes[1], attainment, axis.x(edges), label="per window")
    fig.axes[1].axhline(phase.get("slo_attainment", math.nan), color="grey", linestyle="--", label="whole phase")
    fraction_axis(fig.axes[1], "SLO attainment")
    if scaling:
        draw_scaling(fig.axes[2], scaling, axis, phase)
    if instances:
        draw_kv_use(fig.axes[2 + bool(scaling)], instances, edges[1:], axis)
    if pool:
        draw_pool_occupancy(fig.axes[-1], run, pool, axis)
    for ax in fig.axes:
        legend(ax)
    axis.label(fig.axes[-1])
    return fig.save()


def draw_scaling(ax, rows, axis, phase):
    """The instances allocated after each decision, those found serving at each decision (over
    the period before it), and what the policy proposed (before the governor's bounds and
    delays)."""
    decisions = [float(r["time_s"]) for r in rows]
    times = axis.x([axis.start] + decisions + [axis.end])
    allocated = [float(rows[0]["allocated"])] + [float(r["decided"]) for r in rows]
    ax.step(times, allocated + allocated[-1:], where="post", label="allocated")
    serving = [float(r["serving"]) for r in rows]
    ax.step(times[:-1], serving[:1] + serving, where="pre", linestyle="--", label="serving (seen at decisions)")
    proposed = [float(r["proposed"]) for r in rows]
    ax.step(axis.x(decisions), proposed, where="post", linestyle=":", label="proposed by the policy")
    ax.set_ylabel(f"instances\n({phase.get('instance_time_s', 0) / 3600:.2f} instance-h)")
    zero_based(ax, max(proposed + allocated) + 1)


def draw_kv_use(ax, rows, times, axis):
    """Share of each instance's KV cache memory in use at the end of each window: mean and
    maximum over the instances of each role (or each instance when few), named by role when
    they have one (a disaggregated system's prefill and decode instances)."""
    by_instance, roles = {}, {}
    for r in rows:
        by_instance.setdefault(r["instance"], []).append((float(r["time_s"]), float(r["kv_used_share"])))
        roles[r["instance"]] = "" if r.get("role", "colocated") == "colocated" else r["role"] + " "
    curves = {k: sample_at(sorted(v), times) for k, v in by_instance.items()}
    x = axis.x(times)
    if len(curves) <= MAX_LINES:
        for k in sorted(curves, key=natural_key):
            ax.plot(x, curves[k], label=f"{roles[k]}instance {k}")
    else:
        for role in sorted(set(roles.values())):
            columns = list(zip(*(curves[k] for k in curves if roles[k] == role)))
            ax.plot(x, [sum(c) / len(c) for c in columns], label=f"mean of {len(columns[0])} {role}instances")
            ax.plot(x, [max(c) for c in columns], label=f"fullest {role}instance")
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


def sample_at(points, times):
    """The last value of sorted (time, value) points at or before each time (0 before the first)."""
    out, i, value = [], 0, 0.0
    for t in times:
        while i < len(points) and points[i][0] <= t:
            value = points[i][1]
            i += 1
        out.append(value)
    return out
