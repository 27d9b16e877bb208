"""A requests phase: <phase>.png, one panel per column of <phase>.csv (see series.py): the
requests completed and failed so far."""
from .series import plot_series


def plot_requests(run, name, phase):
    return plot_series(run, name, phase)
