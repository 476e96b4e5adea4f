#pragma once

// A held-out check of `gpuprof predict` on modern consumer PCIe boxes without peer access (issue 37): published
// 1- and N-GPU runs on GeForce RTX 3090 / 4090 / 4070 Ti SUPER machines, transcribed into
// analyzer/predict/validation/data/heldout-pcie-no-p2p.csv (README beside it). Nothing is calibrated on these
// rows: each is predicted with the model, centre and band exactly as shipped, the link the CLI would choose from
// the GPU's name (no --link), and the source's synchronisation as --sync. A check only.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/predict/case_validation.hpp"

namespace gpuprof::predict {

// The N-GPU rows of the file, each predicted (`rows`) or, where its source gives no 1-GPU step to predict from
// (no per-GPU batch, no 1-GPU run of the same configuration, a time per run instead of a throughput), named with
// the reason (`not_checkable`). Every N-GPU row of the file is in exactly one of the two.
struct HeldOutPcieCheck {
  std::size_t data_rows = 0, one_gpu_rows = 0;  // the file's rows on N > 1 GPUs, on 1 GPU
  std::vector<CaseResult> rows;                 // source: the page's address; note: the preset chosen
  std::vector<std::string> not_checkable;       // "<address> <model> on N GPUs: <reason>"
};

struct HeldOutPcieOptions {
  // Each row's `sync` column as --sync (the source's strategy, or its framework's documented default where the
  // page does not state it); false: no --sync, what a user who gives none gets.
  bool with_stated_sync = true;
  // A diagnostic, never a check: rows whose page states no per-GPU batch predicted as if it were this one (0:
  // such rows are not checkable). Their names say "assumed".
  std::int64_t assumed_batch = 0;
};

// Throws TraceError::bad_input naming the file and line for a malformed row.
HeldOutPcieCheck run_heldout_pcie_cases(const std::string& csv_path, const std::string& work_dir,
                                        const HeldOutPcieOptions& options = {});

// Whether a row comes from the held-out file (its source is a web address, the calibration rows' are not).
bool is_heldout_pcie_row(const CaseResult& row);

}  // namespace gpuprof::predict
