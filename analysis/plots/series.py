"""<phase>.png for a phase kind without plots of its own (transfer, requests, or one this script
does not know): one panel per column of <phase>.csv; cumulative byte columns become a rate
(GB/s) and a total (GB)."""
import os

from .common import Figure, TimeAxis, fraction_axis, number, read_rows, stairs


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
