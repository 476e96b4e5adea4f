#!/usr/bin/env python3
"""Kernel counts and kernel time of torch.profiler and of gpuprof over the same steps.

    compare_profiler_window.py PROFILER_TRACE.json GPUPROF_TRACE.sqlite

torch.profiler keeps only the active steps of its schedule; `gpuprof record` keeps
the whole run. Both runs of scripts/gpu/torch_small_training.py name every step
"step N" (a record_function the profiler keeps, an NVTX range gpuprof keeps), so
the steps compared are the ones the profiler's trace holds, and in each trace a
kernel belongs to the step during which the host call that launched it started
(its correlation id leads to that call; the call may run on another thread than the
step's, as autograd's backward does).

Prints one line: the steps, then each tool's kernels and kernel time. Exits 1 (with
the first step whose counts differ on stderr) when the counts differ, when the
profiler kept no step, or when gpuprof's trace lacks one of the profiler's steps.
Uses only the standard library: the GPU machine's python3 has no sqlite3 shell.
"""
import bisect
import json
import re
import sqlite3
import sys

STEP = re.compile(r"^step (\d+)$")


def step_of(starts, steps, time):
    """The number of the step whose [start, end] holds time, or None."""
    position = bisect.bisect_right(starts, time) - 1
    if position < 0:
        return None
    start, end, number = steps[position]
    return number if start <= time <= end else None


def count_by_step(step_ranges, launches):
    """{step: [kernels, total duration]} over launches given as (launch time, duration)."""
    steps = sorted((start, end, number) for number, (start, end) in step_ranges.items())
    starts = [start for start, _, _ in steps]
    counts = {number: [0, 0.0] for number in step_ranges}
    for time, duration in launches:
        number = step_of(starts, steps, time)
        if number is not None:
            counts[number][0] += 1
            counts[number][1] += duration
    return counts


def profiler_counts(path):
    """Per step of the profiler's trace: kernels and their time in ns."""
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
        elif category == "kernel" and correlation is not None:
            kernels.append((correlation, float(event.get("dur", 0)) * 1000.0))
    launches = [(launch_time[c], duration) for c, duration in kernels if c in launch_time]
    return count_by_step(step_ranges, launches)


def gpuprof_counts(path, wanted):
    """Per step of gpuprof's trace named in wanted: kernels and their time in ns."""
    database = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    step_ranges = {}
    for name, start, end in database.execute(
            "select s.value, r.start_ns, r.end_ns from ranges r join strings s on s.id = r.name_id "
            "where r.on_gpu = 0 and s.value like 'step %'"):
        match = STEP.match(name)
        if match and int(match.group(1)) in wanted:
            step_ranges[int(match.group(1))] = (start, end)
    # A correlation id names one launch; should two calls carry it (a driver call
    # inside a runtime call), the kernel still counts once, at the outer call.
    launches = database.execute(
        "select min(a.start_ns), k.end_ns - k.start_ns from kernels k "
        "join api_calls a on a.correlation_id = k.correlation_id group by k.rowid").fetchall()
    # Kernels no recorded API call leads to cannot be placed in a step: said, not guessed.
    unlinked = database.execute(
        "select count(*) from kernels k where not exists "
        "(select 1 from api_calls a where a.correlation_id = k.correlation_id)").fetchone()[0]
    return count_by_step(step_ranges, launches), unlinked


def describe(counts):
    kernels = sum(count for count, _ in counts.values())
    milliseconds = sum(time for _, time in counts.values()) / 1e6
    return kernels, f"{kernels} kernels {milliseconds:.3f} ms"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    theirs = profiler_counts(sys.argv[1])
    if not theirs:
        sys.exit("the profiler's trace holds no 'step N' range: no step to compare")
    ours, unlinked = gpuprof_counts(sys.argv[2], set(theirs))
    numbers = sorted(theirs)
    their_kernels, their_text = describe(theirs)
    our_kernels, our_text = describe(ours)
    unlinked_text = f" ({unlinked} kernels of the run not linked to an API call)" if unlinked else ""
    # Flushed before any line on stderr: with stdout a pipe, Python would otherwise write it last.
    print(f"steps {numbers[0]}-{numbers[-1]} ({len(numbers)}): torch.profiler {their_text}, "
          f"gpuprof {our_text}{unlinked_text}", flush=True)
    missing = [number for number in numbers if number not in ours]
    if missing:
        print(f"gpuprof's trace has no range for steps {missing}", file=sys.stderr)
        return 1
    if their_kernels == 0:
        print("the profiler's steps hold no kernel", file=sys.stderr)
        return 1
    for number in numbers:
        if theirs[number][0] != ours[number][0]:
            print(f"first difference: step {number}, torch.profiler {theirs[number][0]} kernels, "
                  f"gpuprof {ours[number][0]}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
