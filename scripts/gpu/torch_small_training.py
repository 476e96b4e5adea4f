"""A short PyTorch training run, for two GPU checks (scripts/gpu-check.sh):

1. a program nobody here wrote, recorded by `gpuprof record` and by torch.profiler
   (--profile PATH), so kernel counts and kernel time can be compared. The profiler
   keeps only the active steps of its schedule, gpuprof all of them: every step is
   marked "step N" (an NVTX range for gpuprof, a record_function for the profiler,
   N counted from the first warm-up step) so that scripts/gpu/compare_profiler_window.py
   can take the same steps from both;
2. the baseline for `gpuprof-workload rnn`: the same GRU/LSTM classifier, sizes,
   batch and precision, fed from pageable host memory one batch at a time as
   gpuprof-workload's old pipeline does (--loader inline --host-memory pageable
   --prefetch 0, which gpu-check.sh's pytorch phase gives it). Prints one line: samples/s.
   The fair comparison of every model is torch_reference_models.py's.
"""
import argparse
import time

import torch
from torch import nn


class SequenceClassifier(nn.Module):
    def __init__(self, cell, features, hidden, layers, classes):
        super().__init__()
        recurrent = nn.GRU if cell == "gru" else nn.LSTM
        self.recurrent = recurrent(features, hidden, num_layers=layers, batch_first=True)
        self.head = nn.Linear(hidden, classes)

    def forward(self, sequences):
        outputs, _ = self.recurrent(sequences)
        return self.head(outputs[:, -1, :])


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cell", choices=["gru", "lstm"], default="gru")
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--seq-len", type=int, default=32)
    parser.add_argument("--features", type=int, default=16)
    parser.add_argument("--classes", type=int, default=4)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--warmup-steps", type=int, default=10)
    parser.add_argument("--precision", choices=["fp32", "tf32"], default="fp32")
    parser.add_argument("--profile", help="write a torch.profiler Chrome trace of the active steps here")
    parser.add_argument("--profile-wait", type=int, default=5,
                        help="timed steps the profiler skips before its warm-up")
    parser.add_argument("--profile-warmup", type=int, default=5, help="steps the profiler runs but does not keep")
    parser.add_argument("--profile-active", type=int, default=10, help="steps the profiler keeps")
    return parser.parse_args()


def main():
    arguments = parse_arguments()
    torch.manual_seed(1)
    torch.backends.cuda.matmul.allow_tf32 = arguments.precision == "tf32"
    torch.backends.cudnn.allow_tf32 = arguments.precision == "tf32"
    device = torch.device("cuda")
    model = SequenceClassifier(arguments.cell, arguments.features, arguments.hidden, arguments.layers,
                               arguments.classes).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_function = nn.CrossEntropyLoss()
    inputs = torch.randn(16, arguments.batch, arguments.seq_len, arguments.features)
    labels = torch.randint(0, arguments.classes, (16, arguments.batch))

    def step(index):
        # The same name for both tools: gpuprof reads the NVTX range, torch.profiler
        # the record_function (a no-op while no profiler runs).
        torch.cuda.nvtx.range_push(f"step {index}")
        try:
            with torch.profiler.record_function(f"step {index}"):
                batch = inputs[index % 16].to(device)
                target = labels[index % 16].to(device)
                optimizer.zero_grad(set_to_none=True)
                loss = loss_function(model(batch), target)
                loss.backward()
                optimizer.step()
                return loss.item()
        finally:
            torch.cuda.nvtx.range_pop()

    # One numbering for warm-up and timed steps: a step's name is the same in both runs.
    for index in range(arguments.warmup_steps):
        step(index)
    torch.cuda.synchronize()
    profiler = None
    if arguments.profile:
        schedule = torch.profiler.schedule(wait=arguments.profile_wait, warmup=arguments.profile_warmup,
                                           active=arguments.profile_active, repeat=1)
        profiler = torch.profiler.profile(
            activities=[torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA],
            schedule=schedule, on_trace_ready=lambda done: done.export_chrome_trace(arguments.profile))
        profiler.__enter__()
        first = arguments.warmup_steps + arguments.profile_wait + arguments.profile_warmup
        print(f"profiled steps {first}-{first + arguments.profile_active - 1}")
    started = time.perf_counter()
    for index in range(arguments.warmup_steps, arguments.warmup_steps + arguments.steps):
        loss = step(index)
        if profiler is not None:
            profiler.step()
    torch.cuda.synchronize()
    elapsed = time.perf_counter() - started
    if profiler is not None:
        profiler.__exit__(None, None, None)
    print(f"final loss {loss:.4f}")
    print(f"samples/s {arguments.steps * arguments.batch / elapsed:.1f}")


if __name__ == "__main__":
    main()
