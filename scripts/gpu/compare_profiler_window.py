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
import sys

from step_kernels import gpuprof_kernels, profiler_kernels


def counts(kernels):
    """{step: [kernels, total duration ns]}."""
    return {number: [len(found), sum(duration for _, duration in found)] for number, found in kernels.items()}


def profiler_counts(path):
    """Per step of the profiler's trace: kernels and their time in ns."""
    return counts(profiler_kernels(path)[0])


def gpuprof_counts(path, wanted):
    """Per step of gpuprof's trace named in wanted: kernels and their time in ns."""
    kernels, unlinked = gpuprof_kernels(path, wanted)
    return counts(kernels), unlinked


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
