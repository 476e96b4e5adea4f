#pragma once

// The slow end of a prediction's band for one GPU count (docs/predict.md, "Band"), kept in its parts so
// that the validation can calibrate and cross-check the one figure in it that comes from published runs.

#include <vector>

namespace gpuprof::predict {

// The loss of N replicas that a 1-GPU step does not show (stragglers, one host's input pipeline shared by N
// processes, framework fusion cycles), as a per-step spread s of the replica's step: the slowest of N
// replicas costs s·√(2 ln N) of it, the same shape as the measured synchronization term. Calibrated by source
// on the 61 published 1-vs-8-GPU runs of docs/predict.md (`calibrate_by_source` at 80 % coverage, with the
// shipped centre loss; the test `CaseValidation.ShippedCentreAndReplicaLossAreTheCalibrationOfThePublishedRuns`
// recomputes it from ../shared/data/scaling).
inline constexpr double kPublishedReplicaLoss = 0.0716;
// The same loss on machines whose GPUs talk over PCIe only (LinkProfile::over_pcie): one host feeds every
// replica through thin links (Keras's feed_dict, a shared input pipeline, switches shared by several GPUs), which
// NVLink servers do not show. Calibrated the same way, by source, on the 112 runs of Rossum's PCIe machines
// (../shared/data/scaling/rossum-keras-multi-gpu, 6 sources; the test
// `RossumCases.ShippedPcieReplicaLossIsTheCalibrationOfTheRossumRuns` recomputes it).
inline constexpr double kPcieReplicaLoss = 0.2434;
// The shipped replica loss for a link of that kind.
inline constexpr double replica_loss_for(bool over_pcie) { return over_pcie ? kPcieReplicaLoss : kPublishedReplicaLoss; }

struct BandHigh {
  double nominal_ns = 0;      // the prediction itself: the slow end is never faster
  double replay_ns = 0;       // the high-end replay: slower link, contention, no all-reduce overlap
  double measured_sync_ns = 0;  // the synchronization term from the trace's own step spread
  double loss_unit_ns = 0;    // √(2 ln N) × the replica's replayed step; 0 without replicas or with N = 1

  // The slow end with a replica loss `spread` (a fraction of the step): the larger of the measured and the
  // published spread, never both, since both describe waiting for the slowest replica.
  double at(double spread) const;
  // The smallest spread that puts `measured_ns` at or below the slow end (0 when it already is).
  double spread_to_reach(double measured_ns) const;
};

// The spread that puts the truth inside the slow end for `coverage` of the runs whose required spreads
// are given: split-conformal, the ⌈(n + 1)·coverage⌉-th smallest (the largest when that exceeds n).
double calibrate_replica_loss(std::vector<double> required_spreads, double coverage);

}  // namespace gpuprof::predict
