#!/usr/bin/env python3
"""Kernel time per training step, in all and by kernel family, from a recording.

  kernel_time_per_step.py TRACE [--warmup N] [--families]

TRACE is a gpuprof trace (.sqlite, from `gpuprof record`) or a torch.profiler Chrome
trace (.json). Both sides mark each step with a "step N" range (N counted from the
first warm-up step); steps numbered below --warmup are left out. A kernel belongs to
the step in whose range its launching call started (the CPU side: kernels run later
than they are launched), so a kernel no call leads to is counted apart, never placed.

Prints one line: "kernel ms/step X over N steps (K kernels/step[, U kernels unplaced])";
with --families a line per family, largest first: "family NAME ms/step X (P %)", and for a
gpuprof trace "event creations/step E": the cudaEventCreate* calls in those steps (issue 36
saw 175 a GRU step; none of them are gpuprof-workload's own, which creates its events once).
The families answer issue 36's question (is ResNet's time in batch norm, in the
convolutions' data and weight gradients, in layout transposes or in elementwise glue?):
a kernel's family is the first of FAMILIES whose pattern its name matches.
"""
import argparse
import re
import sqlite3
import sys

from step_kernels import STEP, gpuprof_kernels, profiler_kernels

FAMILIES = [
    ("transpose", r"nchwToNhwc|nhwcToNchw|transpose|permute"),
    ("batch norm", r"bn_?fw|bn_?bw|bnFwd|bnBwd|batch_?norm|batchnorm|welford|norm_?(fwd|bwd)"),
    ("conv dgrad", r"dgrad"),
    ("conv wgrad", r"wgrad"),
    ("conv other", r"conv|fprop|implicit_?gemm|winograd|fft|precomputed"),
    ("gemm", r"gemm|cublas|cutlass|matmul|nvjet"),
    ("rnn", r"rnn|lstm|gru|persist"),
    ("pooling", r"pool"),
    ("optimizer", r"adam|sgd|optimizer|multi_tensor"),
    ("elementwise", r"elementwise|vectorized|relu|add|mul|copy|fill|scale|cast|round|widen|bias"),
]
COMPILED = [(name, re.compile(pattern, re.IGNORECASE)) for name, pattern in FAMILIES]


def family(name):
    """The first family whose pattern the kernel's name matches, else "other"."""
    for label, pattern in COMPILED:
        if pattern.search(name):
            return label
    return "other"


def per_step(kernels, warmup):
    """Kernel ns by family over the steps numbered warmup or more, the steps counted and the kernels."""
    by_family, steps, placed = {}, 0, 0
    for number, found in kernels.items():
        if number < warmup:
            continue
        steps += 1
        placed += len(found)
        for name, duration in found:
            by_family[family(name)] = by_family.get(family(name), 0) + duration
    return by_family, steps, placed


def event_creations(path, warmup):
    """cudaEventCreate* calls started in the steps numbered warmup or more, and those steps."""
    database = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    steps = [(start, end) for name, start, end in database.execute(
        "select s.value, r.start_ns, r.end_ns from ranges r join strings s on s.id = r.name_id "
        "where r.on_gpu = 0 and s.value like 'step %'")
        if STEP.match(name) and int(STEP.match(name).group(1)) >= warmup]
    calls = [start for (start,) in database.execute(
        "select a.start_ns from api_calls a join strings s on s.id = a.name_id "
        "where s.value like 'cudaEventCreate%' or s.value like 'cuEventCreate%'")]
    return sum(1 for time in calls if any(start <= time <= end for start, end in steps)), len(steps)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trace")
    parser.add_argument("--warmup", type=int, default=0, help="steps numbered below this are left out")
    parser.add_argument("--families", action="store_true", help="also a line per kernel family")
    a = parser.parse_args()
    try:
        kernels, unplaced = (profiler_kernels if a.trace.endswith(".json") else gpuprof_kernels)(a.trace)
    except (OSError, ValueError, KeyError, sqlite3.Error) as error:
        print(f"kernel_time_per_step.py: cannot read {a.trace}: {error}", file=sys.stderr)
        return 2
    by_family, count, placed = per_step(kernels, a.warmup)
    if count == 0:
        print(f"kernel_time_per_step.py: {a.trace} has no 'step N' range numbered {a.warmup} or more",
              file=sys.stderr)
        return 1
    total = sum(by_family.values())
    line = f"kernel ms/step {total / count / 1e6:.3f} over {count} steps ({placed / count:.0f} kernels/step"
    print(line + (f", {unplaced} kernels unplaced)" if unplaced else ")"))
    if a.families:
        for name, ns in sorted(by_family.items(), key=lambda item: -item[1]):
            print(f"family {name} ms/step {ns / count / 1e6:.3f} ({100 * ns / total:.1f} %)")
        if not a.trace.endswith(".json"):
            created, steps = event_creations(a.trace, a.warmup)
            print(f"event creations/step {created / max(steps, 1):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
