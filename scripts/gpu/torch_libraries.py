#!/usr/bin/env python3
"""Which CUDA libraries torch maps once it has run a convolution and a matrix product.

scripts/gpu-check.sh's inventory runs this twice, with the environment it was started
with and with the library path it gives `gpuprof record`, to show which cuDNN, cuBLAS,
NCCL and CUPTI files a recorded PyTorch program loads in each case.
"""
import re

import torch

images = torch.randn(8, 3, 32, 32, device="cuda")
features = torch.nn.functional.conv2d(images, torch.randn(4, 3, 3, 3, device="cuda")).flatten(1)
(features @ features.T).sum().item()
pattern = re.compile(r"lib(cudart|cublas|cublasLt|cudnn[a-z_]*|nccl|cupti)\.so")
with open("/proc/self/maps") as maps:
    paths = {line.split()[-1] for line in maps if pattern.search(line)}
print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(0))
print(*sorted(paths), sep="\n")
