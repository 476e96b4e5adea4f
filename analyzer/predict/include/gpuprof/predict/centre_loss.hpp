#pragma once

// The centre of a data-parallel prediction beyond the replay (docs/predict.md, "Centre"): what N replicas
// lose that a 1-GPU trace does not show, in two parts, each with one figure fitted to published runs and
// kept apart here so that the validation calibrates them leave one source out (case_validation.hpp).

#include <vector>

namespace gpuprof::predict {

struct CentreLoss {
  // Of the all-reduce time that the bucketed schedule hides behind backward, the share real runs expose
  // (gradients ready later than in proportion to the backward work, fusion cycles, contention).
  double exposed_share = 0;
  // The replicas' loss as a spread s of the step: the slowest of N costs s·√(2 ln N) of it (stragglers,
  // one host's input pipeline shared by N processes); the larger of it and the measured spread counts.
  double replica_loss = 0;
};

// Calibrated on the published 1-vs-8-GPU runs (`calibrate_centre_loss`); the test
// `CaseValidation.ShippedCentreLossIsTheCalibrationOfThePublishedRuns` recomputes it from ../shared/data/scaling.
inline constexpr CentreLoss kPublishedCentreLoss{1.0, 0.0};

struct CentreParts {
  double model_ns = 0;             // one replica's replayed step with the strategy's edits
  double hidden_allreduce_ns = 0;  // the after-backward replay minus model_ns: what the overlap hides
  double measured_sync_ns = 0;     // σ·√(2 ln N) from the 1-GPU step spread
  double loss_unit_ns = 0;         // √(2 ln N) × model_ns; 0 without replicas or with N = 1

  double at(const CentreLoss& loss) const;
  double exposed_ns(const CentreLoss& loss) const { return loss.exposed_share * hidden_allreduce_ns; }
  double sync_ns(const CentreLoss& loss) const;
};

// A run to calibrate on: its centre in parts and the measured step of one replica on the same scale.
struct CentreRun {
  CentreParts parts;
  double measured_step_ns = 0;
};

// The figures with the smallest mean |error| of the runs' throughput (ties: the smaller figures), searched
// on a fixed grid: exposed share 0 to 1 by 0.05 (1: nothing overlapped), replica loss 0 to 0.15 by 0.0025.
CentreLoss calibrate_centre_loss(const std::vector<CentreRun>& runs);

}  // namespace gpuprof::predict
