"""The kernels of each "step N" range of a recording, for the scripts beside it.

Two kinds of recording: a torch.profiler Chrome trace (.json) and a gpuprof trace
(.sqlite). In both a kernel belongs to the step during which the host call that
launched it started (its correlation id leads to that call; the call may run on
another thread than the step's, as autograd's backward does). Times are in the
recording's own unit (µs in Chrome traces, ns in gpuprof's); durations are in ns.
Uses only the standard library: the GPU machine's python3 has no sqlite3 shell.
"""
import bisect
import json
import re
import sqlite3

STEP = re.compile(r"^step (\d+)$")


def step_of(starts, steps, time):
    """The number of the step whose [start, end] holds time, or None."""
    position = bisect.bisect_right(starts, time) - 1
    if position < 0:
        return None
    start, end, number = steps[position]
    return number if start <= time <= end else None


def kernels_by_step(step_ranges, launches):
    """{step: [(kernel name, duration ns)]} over launches given as (launch time, duration, name)."""
    steps = sorted((start, end, number) for number, (start, end) in step_ranges.items())
    starts = [start for start, _, _ in steps]
    kernels = {number: [] for number in step_ranges}
    for time, duration, name in launches:
        number = step_of(starts, steps, time)
        if number is not None:
            kernels[number].append((name, duration))
    return kernels


def profiler_kernels(path):
    """The profiler's steps and their kernels, and the kernels no launching call leads to."""
    with open(path) as trace_file:
        events = json.load(trace_file)["traceEvents"]
    step_ranges, launch_time, kernels = {}, {}, []
    for event in events:
        if event.get("ph") != "X":
            continue
        category = event.get("cat", "")
        correlation = event.get("args", {}).get("correlation")
        match = STEP.match(event.get("name", ""))
        if match and not category.startswith("gpu_"):
            step_ranges[int(match.group(1))] = (float(event["ts"]), float(event["ts"]) + float(event.get("dur", 0)))
        elif category in ("cuda_runtime", "cuda_driver") and correlation is not None:
            launch_time[correlation] = min(float(event["ts"]), launch_time.get(correlation, float("inf")))
        elif category == "kernel":
            kernels.append((correlation, float(event.get("dur", 0)) * 1000.0, str(event.get("name", ""))))
    launches = [(launch_time[c], duration, name) for c, duration, name in kernels if c in launch_time]
    return kernels_by_step(step_ranges, launches), len(kernels) - len(launches)


def gpuprof_kernels(path, wanted=None):
    """gpuprof's steps (those in wanted, or all) and their kernels, and the kernels no call leads to."""
    database = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    step_ranges = {}
    for name, start, end in database.execute(
            "select s.value, r.start_ns, r.end_ns from ranges r join strings s on s.id = r.name_id "
            "where r.on_gpu = 0 and s.value like 'step %'"):
        match = STEP.match(name)
        if match and (wanted is None or int(match.group(1)) in wanted):
            step_ranges[int(match.group(1))] = (start, end)
    # A correlation id names one launch; should two calls carry it (a driver call
    # inside a runtime call), the kernel still counts once, at the outer call.
    launches = database.execute(
        "select min(a.start_ns), k.end_ns - k.start_ns, s.value from kernels k "
        "join api_calls a on a.correlation_id = k.correlation_id join strings s on s.id = k.name_id "
        "group by k.rowid").fetchall()
    # Kernels no recorded API call leads to cannot be placed in a step: said, not guessed.
    unlinked = database.execute(
        "select count(*) from kernels k where not exists "
        "(select 1 from api_calls a where a.correlation_id = k.correlation_id)").fetchone()[0]
    return kernels_by_step(step_ranges, launches), unlinked
