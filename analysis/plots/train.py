"""A train phase: <phase>.png, a Gantt of compute, blocking checkpoints, background flushes,
failures and restarts (configured delay plus the mean checkpoint read; the first read when
resuming); each checkpoint's blocking time; each storage tier's bandwidth (io.forwarding,
io.storage, io.local) over the phase."""
from .common import Figure, TimeAxis, gantt, note, parse_duration, plural, stairs, time_unit, zero_based


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
