#!/usr/bin/env python3
"""PyTorch equivalents of gpuprof-workload's models, for throughput comparisons.

Same sizes, batch, optimizer (Adam) and precision as `gpuprof-workload MODEL`:
fp32 (no tensor cores), tf32, or bf16 (torch.autocast with fp32 master weights,
the scheme gpuprof-workload uses). Batches come from pageable host memory one at a
time, as gpuprof-workload's default input pipeline does. Prints "samples/s N".

  torch_reference_models.py rnn --cell gru --batch 256 --precision bf16
  torch_reference_models.py resnet --depth 50 --batch 64 --precision bf16
"""
import argparse
import contextlib
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


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", choices=["rnn", "towers", "mlp", "resnet"])
    parser.add_argument("--precision", choices=["fp32", "tf32", "bf16"], default="fp32")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--warmup-steps", type=int, default=10)
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
    host_batches = [(make_inputs(), make_labels()) for _ in range(4)]

    def autocast():
        if a.precision == "bf16":
            return torch.autocast(device_type="cuda", dtype=torch.bfloat16)
        return contextlib.nullcontext()

    def step(index):
        with torch.cuda.nvtx.range(f"step {index}"):
            inputs, labels = host_batches[index % len(host_batches)]
            inputs, labels = inputs.to(device), labels.to(device)
            if channels_last:
                inputs = inputs.contiguous(memory_format=torch.channels_last)
            optimizer.zero_grad(set_to_none=True)
            with autocast():
                loss = loss_function(model(inputs), labels)
            loss.backward()
            optimizer.step()
            return loss

    for index in range(a.warmup_steps):
        step(index)
    torch.cuda.synchronize()
    started = time.perf_counter()
    for index in range(a.steps):
        loss = step(index)
    torch.cuda.synchronize()
    elapsed = time.perf_counter() - started
    print(f"final loss {loss.item():.4f}")
    print(f"samples/s {a.steps * a.batch / elapsed:.1f}")


if __name__ == "__main__":
    main()
