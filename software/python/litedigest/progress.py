# SPDX-License-Identifier: BSD-2-Clause
"""Progress of long work (a SoC build, a firmware run, a bench, a design-space run) on stderr.

The layers below the command line report through the `log` callback they take:
`log(message)` says a step begins. A `Progress` is such a callback that can say more; the
functions of this module tell it, and do nothing for a plain callback (a notebook's `print`):

- `status(log, text)`: the live detail of the step (the build's phase, the results so far);
- `task(log, total, desc)`: counted work (`.advance(note)` after each unit: an engine, a
  seed), with the units done and left and an estimate of the time left;
- `keeping(log, text)`: what an interruption now leaves in the build cache.

On a terminal the steps are lines and a live line below them shows the step, its elapsed
time and its detail (tqdm); elsewhere each step (and each unit of a task) is one plain line;
`quiet` prints nothing. Standard output is never written."""

import os
import sys
import threading
import time


def status(log, text):
    """Tell `log` the live detail of its current step (a Progress only)."""
    f = getattr(log, "status", None)
    if f is not None:
        f(text)


def keeping(log, text):
    """Tell `log` what an interruption from now on leaves in the build cache (None: nothing
    to say)."""
    f = getattr(log, "keeping", None)
    if f is not None:
        f(text)


class _NoTask:
    done = 0

    def begin(self, what):
        pass

    def advance(self, note="", worked=True, n=1):
        pass

    def close(self):
        pass


def task(log, total, desc):
    """Counted work of `total` units reported to `log`: a Task (`advance(note)` after each
    unit), or one that says nothing for a plain callback."""
    f = getattr(log, "task", None)
    return f(total, desc) if f is not None else _NoTask()


def begin(log, what):
    """Tell `log` which unit of its task is under way (shown live on a terminal)."""
    t = getattr(log, "current", None)
    if t is not None:
        t.begin(what)


def advance(log, note="", worked=True, n=1):
    """Tell `log` that `n` units of its task are done (`note`: their result; `worked`: False
    when they were cached)."""
    t = getattr(log, "current", None)
    if t is not None:
        t.advance(note, worked, n)


def shown_path(path):
    """`path` relative to the current directory when it is below it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def duration(seconds):
    """3 s, 4 min 05 s, 2 h 03 min."""
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


class Task:
    """Counted work of a Progress: `advance(note, worked=True)` after each unit (`worked`:
    False for a unit that was cached, left out of the estimate of the time left)."""

    def __init__(self, progress, total, desc):
        self.progress, self.total, self.desc = progress, total, desc
        self.done = 0
        self.spent, self.worked = 0.0, 0
        self.last = time.monotonic()

    def left_text(self):
        left = self.total - self.done
        if not left or not self.worked:
            return ""
        return f", about {duration(self.spent / self.worked * left)} left"

    def begin(self, what):
        self.progress._begin(self, what)

    def advance(self, note="", worked=True, n=1):
        now = time.monotonic()
        self.done += n
        if worked:
            self.spent += now - self.last
            self.worked += n
        self.last = now
        self.progress._advance(self, note)

    def close(self):
        self.progress._end_task(self)


class Progress:
    """The `log` of a command: steps, live status, counted tasks on `stream` (stderr).
    `tty`: draw a live line (default: whether `stream` is a terminal); `quiet`: say nothing."""

    def __init__(self, prog="litedigest", quiet=False, stream=None, tty=None):
        self.prog = prog
        self.quiet = quiet
        self.stream = stream if stream is not None else sys.stderr
        if tty is None:
            try:
                tty = self.stream.isatty()
            except (AttributeError, ValueError):
                tty = False
        self.tty = tty and not quiet
        self.kept = None
        self.step = None
        self.started = None
        self.detail = ""
        self.current = None  # the Task in progress
        self._bar = None
        self._lock = threading.RLock()
        self._ticker = None
        self._closed = threading.Event()

    # what the layers below call
    def __call__(self, message):
        """A step begins (or a message of the running step)."""
        with self._lock:
            self.step, self.started, self.detail = str(message), time.monotonic(), ""
            self._line(str(message))
            self._draw()

    def status(self, text):
        with self._lock:
            self.detail = str(text)
            self._draw()

    def keeping(self, text):
        self.kept = text

    def task(self, total, desc):
        with self._lock:
            self.current = Task(self, total, desc)
            self._draw()
            return self.current

    # the command's own output
    def pause(self):
        """A context in which the command writes its output (on a terminal, the live line is
        taken away while it does)."""
        return _Paused(self)

    def interrupted(self):
        """The line an interruption (Ctrl-C) ends the command with."""
        note = f": {self.kept}" if self.kept else ""
        return f"{self.prog}: interrupted{note}"

    def close(self):
        with self._lock:
            self._closed.set()
            if self._bar is not None:
                self._bar.close()
                self._bar = None

    # drawing
    def _line(self, text):
        if self.quiet:
            return
        if self._bar is not None:
            self._bar.clear()
        try:
            self.stream.write(text + "\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def _begin(self, t, what):
        with self._lock:
            self.step, self.started, self.detail = what, time.monotonic(), ""
            self._draw()

    def _advance(self, t, note):
        with self._lock:
            if not self.tty:
                note = f": {note}" if note else ""
                self._line(f"{t.desc}: {t.done}/{t.total} done{note}{t.left_text()}")
            else:
                self.detail = note
                self._draw()

    def _end_task(self, t):
        with self._lock:
            if self.current is t:
                self.current = None
                self._draw()

    def _text(self):
        parts = []
        t = self.current
        if t is not None:
            parts.append(f"{t.desc} {t.done}/{t.total}{t.left_text()}")
        if self.step:
            parts.append(self.step.rstrip(". "))
        if self.started is not None:
            parts.append(clock(time.monotonic() - self.started))
        if self.detail:
            parts.append(self.detail)
        return " | ".join(parts)

    def _draw(self):
        if not self.tty or self._closed.is_set():
            return
        if self._bar is None:
            from tqdm import tqdm

            try:  # (a terminal of unknown size, 0 columns or lines: tqdm would draw nothing)
                sized = min(os.get_terminal_size(self.stream.fileno())) > 0
            except (AttributeError, OSError, ValueError):
                sized = False
            self._bar = tqdm(
                total=None,
                file=self.stream,
                bar_format="{desc}",
                dynamic_ncols=sized,
                ncols=None if sized else 100,
                nrows=None if sized else 20,
                leave=False,
            )
            self._ticker = threading.Thread(target=self._tick, daemon=True)
            self._ticker.start()
        self._bar.set_description_str(self._text(), refresh=True)

    def _tick(self):
        while not self._closed.wait(1.0):
            with self._lock:
                if self._bar is not None:
                    self._draw()


def clock(seconds):
    """m:ss (h:mm:ss from an hour on)."""
    s = int(seconds)
    return (
        f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
    )


class _Paused:
    def __init__(self, progress):
        self.progress = progress

    def __enter__(self):
        p = self.progress
        p._lock.acquire()
        if p._bar is not None:
            p._bar.clear()
        return p

    def __exit__(self, *exc):
        p = self.progress
        try:
            sys.stdout.flush()
        except (OSError, ValueError, AttributeError):
            pass
        if p._bar is not None:
            p._bar.refresh()
        p._lock.release()
