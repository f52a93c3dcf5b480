#!/usr/bin/env python3
"""Runs a command and stops it when it has printed nothing for too long, saying where it stood.

    python3 scripts/watch-silence.py SECONDS command [argument ...]
    python3 scripts/watch-silence.py --report

A test run that hangs (a test waiting for ever, every cooperative thread blocked) used to hold CI until its 90-minute
limit and leave nothing to read. Under this watch the command's output (standard output and error, merged) is passed
through line by line; when no line came for SECONDS, the watch prints every process the command started (the process
tree with its states and kernel wait channels) and the threads' stacks of each Swift test binary in it (lldb from the
toolchain, else gdb), then kills the tree and exits 124. Otherwise it exits with the command's status.

`--report` prints the same report for every Swift test binary on the machine, and kills nothing: `.ci/run` calls it
when its tmux rerun passes its time limit. `--self-test` checks the watch itself on three small commands (a planted
hang, a failing command, a slow but talkative one); `.ci/run` runs it before the tests.

A build prints a line per compiled module and Swift Testing a line per test started and ended, so the usual silence is
seconds; the longest seen in a healthy run (one large module compiled on a loaded 2-core machine) is a few minutes.
"""
import os
import shutil
import signal
import subprocess
import sys
import threading
import time


def processes():
    """Every process as (pid, parent, state, name, command line), read from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        close = stat.rfind(")")
        fields = stat[close + 2 :].split()
        found.append((int(entry), int(fields[1]), fields[0], stat[stat.find("(") + 1 : close], command))
    return found


def descendants(root):
    """The processes below `root` (itself included), parents before children."""
    table = processes()
    children = {}
    for process in table:
        children.setdefault(process[1], []).append(process)
    ordered, stack = [], [p for p in table if p[0] == root]
    while stack:
        process = stack.pop()
        ordered.append(process)
        stack.extend(children.get(process[0], []))
    return ordered


def wait_channel(pid):
    try:
        with open(f"/proc/{pid}/wchan") as f:
            return f.read().strip() or "-"
    except OSError:
        return "?"


def is_test_binary(process):
    name, command = process[3], process[4]
    return "PackageTests" in command.split(" ")[0] or name.endswith(".xctest")


def stacks(pid):
    """The stacks of every thread of `pid`, from lldb (the toolchain's) or gdb; a note when neither can attach."""
    lldb, gdb = shutil.which("lldb"), shutil.which("gdb")
    if lldb:
        command = [lldb, "--batch", "-p", str(pid), "-o", "thread backtrace all", "-o", "process detach"]
    elif gdb:
        command = [gdb, "-batch", "-p", str(pid), "-ex", "thread apply all bt"]
    else:
        return "(neither lldb nor gdb is installed: no stacks)\n"
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=180)
        return result.stdout + result.stderr
    except subprocess.TimeoutExpired:
        return f"({os.path.basename(command[0])} did not finish within 180 s)\n"


def report(tree):
    print("== the processes, with their state and kernel wait channel", flush=True)
    for pid, parent, state, name, command in tree:
        print(f"{pid:>8} {parent:>8} {state} {wait_channel(pid):<24} {command[:200] or name}", flush=True)
    for process in tree:
        if is_test_binary(process):
            print(f"== the threads of {process[0]} ({process[3]})", flush=True)
            print(stacks(process[0]), flush=True)


def self_test():
    """The watch on three commands, each in a child process: its exit status and what it printed."""
    def watch(limit, script):
        result = subprocess.run([sys.executable, __file__, str(limit), sys.executable, "-c", script],
                                capture_output=True, text=True, timeout=120)
        return result.returncode, result.stdout

    failures = []
    status, printed = watch(3, "import time; print('started', flush=True); time.sleep(60)")
    if status != 124 or "nothing printed for 3 s" not in printed or "time.sleep(60)" not in printed:
        failures.append(f"a planted hang: exit {status}, printed {printed!r}")
    status, printed = watch(10, "import sys; print('failing', flush=True); sys.exit(3)")
    if status != 3 or printed.strip() != "failing":
        failures.append(f"a failing command: exit {status}, printed {printed!r}")
    # A line a second for 12 seconds against a 10-second limit: alive although it runs past the limit (a loaded
    # machine may delay a line, never by 9 seconds).
    status, printed = watch(10, "import time\nfor i in range(12): print(i, flush=True); time.sleep(1)")
    if status != 0 or printed.split() != [str(i) for i in range(12)]:
        failures.append(f"a slow, talkative command: exit {status}, printed {printed!r}")
    for failure in failures:
        print(f"watch-silence self-test: {failure}", file=sys.stderr)
    if not failures:
        print("watch-silence self-test: a hang is stopped and reported, a status is passed on, talk keeps a run alive")
    return 1 if failures else 0


def main(arguments):
    if arguments == ["--self-test"]:
        return self_test()
    if arguments == ["--report"]:
        report([p for p in processes() if is_test_binary(p)])
        return 0
    if len(arguments) < 2 or not arguments[0].isdigit():
        print(__doc__, file=sys.stderr)
        return 2
    limit = int(arguments[0])
    # restore_signals=False: the command inherits Python's SIGPIPE ignored, so a test's write to a pipe or socket the
    # other end closed fails with EPIPE instead of killing the whole test binary with signal 13 (seen once in CI: the
    # tools' test binary died so, every test with it).
    child = subprocess.Popen(arguments[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, restore_signals=False)
    last = [time.monotonic()]

    def relay():
        for line in iter(child.stdout.readline, b""):
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
            last[0] = time.monotonic()

    reader = threading.Thread(target=relay, daemon=True)
    reader.start()
    while child.poll() is None:
        time.sleep(1)
        if time.monotonic() - last[0] < limit:
            continue
        print(f"\n== nothing printed for {limit} s: stopping `{' '.join(arguments[1:])}`", flush=True)
        tree = descendants(child.pid)
        report(tree)
        for process in reversed(tree):
            try:
                os.kill(process[0], signal.SIGKILL)
            except OSError:
                pass
        child.wait()
        reader.join(timeout=10)
        return 124
    reader.join(timeout=30)
    return child.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
