"""A tasks phase: <phase>.png, tasks queued and running, workers up and busy, tasks done;
<phase>_turnaround.png, the CDF of the tasks' turnaround."""
from .common import Figure, TimeAxis, draw_cdf, legend, time_unit


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
