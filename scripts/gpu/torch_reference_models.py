#!/usr/bin/env python3
"""PyTorch equivalents of gpuprof-workload's models, for throughput comparisons.

Same sizes, batch, optimizer (Adam) and precision as `gpuprof-workload MODEL`:
fp32 (no tensor cores), tf32, or bf16 (torch.autocast with fp32 master weights,
the scheme gpuprof-workload uses). The input pipeline is gpuprof-workload's default
(--input pinned-prefetch: batches in pinned host memory, copied --prefetch steps
ahead on a side stream, ResNet's already channels-last on the host) or its old one
(--input pageable-sync: pageable memory, each batch copied when the step needs it).

Each timed window runs --warmup-steps untimed steps first, then --steps timed ones.
With --repeats R and a gpuprof-workload command after `--`, the two alternate on one
warm GPU: ours, then a PyTorch window, R times (the PyTorch process stays loaded, so
its start-up is paid once); ours' samples/s is read from its --summary file
(--ours-summary). Prints a line per run, then the medians:
  "run 1 gpuprof-workload samples/s X", "run 1 PyTorch samples/s Y", ...,
  "median gpuprof-workload samples/s X (runs ...)", "median PyTorch samples/s Y (runs ...)"
and, the last line, "samples/s Y" (PyTorch's median). With --profile PATH a last
window of --profile-steps steps runs under torch.profiler and its Chrome trace is
written to PATH (kernel time per step: scripts/gpu/kernel_time_per_step.py). Every
step is named "step N", N counted from the first warm-up step of the process.

  torch_reference_models.py rnn --cell gru --batch 256 --precision bf16
  torch_reference_models.py resnet --depth 50 --batch 64 --precision bf16 --repeats 3 \
      --ours-summary ours.json -- gpuprof-workload resnet --depth 50 --batch 64 --precision bf16 --summary ours.json
"""
import argparse
import collections
import contextlib
import json
import statistics
import subprocess
import sys
import time

import torch
from torch import nn


class SequenceClassifier(nn.Module):
    def __init__(self, a):
        super().__init__()
        recurrent = nn.GRU if a.cell == "gru" else nn.LSTM
        self.recurrent = recurrent(a.features, a.hidden, a.layers, batch_first=True)
        self.classifier = nn.Linear(a.hidden, a.classes)

    def forward(self, sequences):
        _, state = self.recurrent(sequences)
        hidden = state[0] if isinstance(state, tuple) else state
        return self.classifier(hidden[-1])


class TextTower(nn.Module):
    def __init__(self, a):
        super().__init__()
        self.embedding = nn.Embedding(a.vocab, a.embedding)
        self.convolution = nn.Conv1d(a.embedding, a.filters, a.kernel_size)
        self.dense = nn.Linear(a.filters, 64)

    def forward(self, tokens):
        words = self.embedding(tokens).transpose(1, 2)           # [batch][embedding][length]
        features = torch.tanh(self.convolution(words)).amax(dim=2)  # max over positions
        return torch.relu(self.dense(features))


class Towers(nn.Module):
    """DeepCoNN: two text towers and a factorization machine over their outputs."""

    def __init__(self, a, factors=8):
        super().__init__()
        self.review_len = a.review_len
        self.user, self.item = TextTower(a), TextTower(a)
        self.linear = nn.Linear(128, 1)
        self.factors = nn.Parameter(torch.randn(128, factors) * 0.01)

    def forward(self, tokens):
        joined = torch.cat([self.user(tokens[:, :self.review_len]), self.item(tokens[:, self.review_len:])], dim=1)
        interactions = 0.5 * ((joined @ self.factors) ** 2 - (joined ** 2) @ (self.factors ** 2)).sum(dim=1)
        return self.linear(joined).squeeze(1) + interactions


def mlp():
    widths = [8000, 4000, 2000, 500, 300]
    layers = []
    for index, (inputs, outputs) in enumerate(zip(widths, widths[1:])):
        layers += [nn.Linear(inputs, outputs), nn.Tanh() if index == 0 else nn.ReLU()]
    return nn.Sequential(*layers, nn.Linear(300, 1))


def resnet(a):
    import torchvision
    return getattr(torchvision.models, f"resnet{a.depth}")(num_classes=a.classes)


def build(a):
    """The model, a host batch maker and the loss, for the named workload."""
    if a.model == "rnn":
        inputs = lambda: torch.randn(a.batch, a.seq_len, a.features)
        labels = lambda: torch.randint(0, a.classes, (a.batch,))
        return SequenceClassifier(a), inputs, labels, nn.CrossEntropyLoss()
    if a.model == "towers":
        inputs = lambda: torch.randint(0, a.vocab, (a.batch, 2 * a.review_len))
        labels = lambda: torch.rand(a.batch) * 4 + 1
        return Towers(a), inputs, labels, nn.MSELoss()
    if a.model == "mlp":
        inputs = lambda: torch.randn(a.batch, 8000)
        labels = lambda: torch.randint(0, 2, (a.batch,)).float()
        loss = nn.BCEWithLogitsLoss()
        return mlp(), inputs, labels, lambda output, target: loss(output.squeeze(1), target)
    inputs = lambda: torch.randn(a.batch, 3, a.image_size, a.image_size)
    labels = lambda: torch.randint(0, a.classes, (a.batch,))
    return resnet(a), inputs, labels, nn.CrossEntropyLoss()


class Prefetcher:
    """Device batches for each step from a few host batches, as gpuprof-workload's pipeline feeds them:
    pinned host memory with copies `depth` steps ahead on a side stream (events order the streams), or
    pageable memory copied synchronously when the step needs it (depth 0, the old pipeline)."""

    def __init__(self, host_batches, device, depth, pinned):
        self.host = [tuple(t.pin_memory() if pinned else t for t in batch) for batch in host_batches]
        self.device, self.depth = device, depth
        self.stream = torch.cuda.Stream() if depth > 0 else None
        self.events = [torch.cuda.Event() for _ in range(depth + 1)]  # reused: none created per step
        self.pending = collections.deque()
        self.next = None

    def get(self, index):
        host = lambda i: self.host[i % len(self.host)]
        if self.depth == 0:
            return tuple(t.to(self.device) for t in host(index))
        if self.next is None:
            self.next = index  # steps come one after the other from here on
        while self.next <= index + self.depth:
            with torch.cuda.stream(self.stream):
                copies = tuple(t.to(self.device, non_blocking=True) for t in host(self.next))
                event = self.events[self.next % len(self.events)]
                event.record(self.stream)
            self.pending.append((self.next, copies, event))
            self.next += 1
        _, copies, event = self.pending.popleft()
        torch.cuda.current_stream().wait_event(event)
        for tensor in copies:  # the side stream's allocations are used on the compute stream
            tensor.record_stream(torch.cuda.current_stream())
        return copies


def run_ours(command, summary):
    """Runs our workload once; its samples/s from its --summary file, or what failed."""
    try:
        finished = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except OSError as error:
        return f"FAILED: {error}"
    if finished.returncode != 0:
        last = (finished.stderr.strip().splitlines() or [""])[-1]
        return f"FAILED: exit {finished.returncode} {last}".strip()
    try:
        with open(summary) as file:
            return float(json.load(file)["samples_per_second"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        return f"FAILED: no samples/s in {summary}: {error}"


def median_line(side, values):
    numbers = [value for value in values if isinstance(value, float)]
    runs = " ".join(f"{value:.1f}" if isinstance(value, float) else "FAILED" for value in values)
    if not numbers:
        return f"median {side} samples/s FAILED (runs {runs})"
    return f"median {side} samples/s {statistics.median(numbers):.1f} (runs {runs})"


def parse_arguments():
    ours = []
    if "--" in sys.argv:
        ours = sys.argv[sys.argv.index("--") + 1:]
        sys.argv = sys.argv[:sys.argv.index("--")]
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", choices=["rnn", "towers", "mlp", "resnet"])
    parser.add_argument("--precision", choices=["fp32", "tf32", "bf16"], default="fp32")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--warmup-steps", type=int, default=10, help="untimed steps before each timed window")
    parser.add_argument("--repeats", type=int, default=1, help="timed windows (interleaved with ours when given)")
    parser.add_argument("--input", choices=["pinned-prefetch", "pageable-sync"], default="pinned-prefetch")
    parser.add_argument("--prefetch", type=int, default=2, help="steps copied ahead (pinned-prefetch)")
    parser.add_argument("--ours-summary", help="the --summary file of the command after --")
    parser.add_argument("--profile", help="write a torch.profiler Chrome trace of a last window here")
    parser.add_argument("--profile-steps", type=int, default=10)
    parser.add_argument("--cell", choices=["gru", "lstm"], default="gru")
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--seq-len", type=int, default=32)
    parser.add_argument("--features", type=int, default=16)
    parser.add_argument("--classes", type=int)
    parser.add_argument("--vocab", type=int, default=5000)
    parser.add_argument("--review-len", type=int, default=96)
    parser.add_argument("--embedding", type=int, default=64)
    parser.add_argument("--filters", type=int, default=100)
    parser.add_argument("--kernel-size", type=int, default=3)
    parser.add_argument("--depth", type=int, choices=[18, 34, 50], default=50)
    parser.add_argument("--image-size", type=int, default=224)
    arguments = parser.parse_args()
    if arguments.classes is None:
        arguments.classes = 285 if arguments.model == "resnet" else 4
    if arguments.steps < 1 or arguments.warmup_steps < 0 or arguments.repeats < 1 or arguments.prefetch < 0:
        parser.error("--steps and --repeats must be 1 or more, --warmup-steps and --prefetch 0 or more")
    if ours and not arguments.ours_summary:
        parser.error("a gpuprof-workload command after -- needs --ours-summary FILE")
    arguments.ours = ours
    return arguments


def main():
    a = parse_arguments()
    torch.manual_seed(1)
    tensor_cores = a.precision != "fp32"
    torch.backends.cuda.matmul.allow_tf32 = tensor_cores
    torch.backends.cudnn.allow_tf32 = tensor_cores
    torch.backends.cudnn.benchmark = True
    device = torch.device("cuda")
    model, make_inputs, make_labels, loss_function = build(a)
    model = model.to(device)
    channels_last = a.model == "resnet" and tensor_cores
    if channels_last:
        model = model.to(memory_format=torch.channels_last)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    layout = torch.channels_last if channels_last else torch.contiguous_format
    host_batches = [(make_inputs().contiguous(memory_format=layout), make_labels()) for _ in range(4)]
    pinned = a.input == "pinned-prefetch"
    feed = Prefetcher(host_batches, device, a.prefetch if pinned else 0, pinned)
    fed = (f"pinned host batches copied {a.prefetch} steps ahead on a side stream" if pinned
           else "pageable host batches copied synchronously")
    print(f"input: {fed}{', channels-last on the host' if channels_last else ''}")
    print(f"warm-up: {a.warmup_steps} untimed steps before each window of {a.steps} timed steps")

    def autocast():
        if a.precision == "bf16":
            return torch.autocast(device_type="cuda", dtype=torch.bfloat16)
        return contextlib.nullcontext()

    def step(index):
        # The same name for both tools: gpuprof reads the NVTX range, torch.profiler the record_function.
        with torch.cuda.nvtx.range(f"step {index}"), torch.profiler.record_function(f"step {index}"):
            inputs, labels = feed.get(index)
            optimizer.zero_grad(set_to_none=True)
            with autocast():
                loss = loss_function(model(inputs), labels)
            loss.backward()
            optimizer.step()
            return loss

    counter = [0]

    def window(steps):
        """Runs the warm-up, then `steps` timed steps; samples/s of the timed ones."""
        for _ in range(a.warmup_steps):
            step(counter[0])
            counter[0] += 1
        torch.cuda.synchronize()
        started = time.perf_counter()
        for _ in range(steps):
            window.loss = step(counter[0])
            counter[0] += 1
        torch.cuda.synchronize()
        return steps * a.batch / (time.perf_counter() - started)

    ours, theirs = [], []
    for run in range(1, a.repeats + 1):
        if a.ours:
            ours.append(run_ours(a.ours, a.ours_summary))
            shown = ours[-1] if isinstance(ours[-1], str) else f"{ours[-1]:.1f}"
            print(f"run {run} gpuprof-workload samples/s {shown}", flush=True)
        theirs.append(window(a.steps))
        print(f"run {run} PyTorch samples/s {theirs[-1]:.1f}", flush=True)
    if a.profile:
        activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
        with torch.profiler.profile(activities=activities) as profiler:
            window(a.profile_steps)
        profiler.export_chrome_trace(a.profile)
        first = counter[0] - a.profile_steps
        print(f"profiled steps {first}-{counter[0] - 1} into {a.profile}")
    print(f"final loss {window.loss.item():.4f}")
    if a.ours:
        print(median_line("gpuprof-workload", ours))
    print(median_line("PyTorch", theirs))
    print(f"samples/s {statistics.median(theirs):.1f}")


if __name__ == "__main__":
    main()
