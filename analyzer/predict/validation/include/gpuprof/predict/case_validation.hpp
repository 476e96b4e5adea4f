#pragma once

// The validation cases of issue 29 on the published figures in
// ../shared/data/scaling, each predicted from synthetic 1-GPU traces (made by
// the project's synth library with the published 1-GPU step time) through the
// same replay and edits as `gpuprof predict`. Shared by the tests (bounds) and
// the benchmark (the table in docs/predict.md).

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/predict/band_high.hpp"
#include "gpuprof/predict/centre_loss.hpp"

namespace gpuprof::predict {

struct CaseResult {
  std::string family;  // "gru", "towers", "published"
  std::string name;
  double predicted = 0, measured = 0;  // the case's figure (seconds, ratio or throughput)
  double low = 0, high = 0;            // the band, same unit
  std::string unit;
  bool verdict_right = true;  // faster/slower as measured, decided by the whole band (never when uncertain)
  bool uncertain = false;     // the band straddles the 1-GPU figure: the trace cannot decide (set_verdict)
  std::string note;

  // The same band in step time, its slow end in parts, and the truth as one replica's step: the band
  // again with another replica loss (the calibration and its held-out checks).
  double measured_step_ns = 0, low_step_ns = 0;
  BandHigh band_high;
  CentreParts centre;  // the predicted step in its parts (published rows: predicted with a zero centre loss)

  // Published rows: the source (README) the row comes from, the 1-GPU throughput and N, for the no-skill
  // baselines (baselines.hpp) and leave-one-source-out checks.
  std::string source;
  double one_gpu = 0;
  std::int32_t gpus = 0;
  bool over_pcie = false;  // predicted with a PCIe-only link: its band's replica loss is calibrated on such runs
  // Rossum's CIFAR-10 rows, a diagnostic beside the figure (docs/predict.md): the prediction counted as the run
  // counts it, samples per epoch over the epoch's time, if the epoch's partial last batch costs a full step.
  double per_epoch_full_steps = 0;
  // Rossum's tf_cnn_benchmarks rows, a diagnostic: the same model, data format and GPU count in `independent`
  // mode (each GPU trains alone, nothing is exchanged), the most the run reached without synchronising. A
  // measured N-GPU figure, so never an input of the prediction; 0 where the log has no such run.
  double no_exchange = 0;

  double error() const { return measured != 0 ? predicted / measured - 1.0 : 0.0; }
  bool in_band() const { return low <= measured && measured <= high; }
  bool in_band_with(double replica_loss) const {
    return low_step_ns <= measured_step_ns && measured_step_ns <= band_high.at(replica_loss);
  }
};

struct GruSummary {
  std::vector<CaseResult> rows;
  std::int64_t fitted_gradient_bytes = 0;
  double predicted_break_even = 0, measured_break_even = 0;  // batch sizes, interpolated in log(batch)
};

// `work_dir`: where the synthetic traces are written. Throws TraceError for missing files.
GruSummary run_gru_case(const std::string& scaling_dir, const std::string& work_dir);
CaseResult run_towers_case(const std::string& scaling_dir, const std::string& work_dir);
// The published runs on `gpus` GPUs (8: the table; 2 and 4: held out of every calibration). Their
// 1-GPU step is a synthetic trace of the published throughput, so its spread is stated, not synth's jitter
// (step_variability.hpp), and the centre is predicted with a zero centre loss: `with_centre_loss` and
// `centre_left_out` put the calibrated one in.
struct PublishedCaseOptions {
  std::int32_t gpus = 8;
  double step_spread = 0;          // the stated 1-GPU step spread, a share of the step
  std::uint64_t first_seed = 100;  // synth's seed of the first row's trace; the next rows count up
};
std::vector<CaseResult> run_published_cases(const std::string& scaling_dir, const std::string& work_dir,
                                            const PublishedCaseOptions& options);

// The cases predicted again with `loss` in the centre (the band's fast end and centre moved with it).
std::vector<CaseResult> with_centre_loss(std::vector<CaseResult> cases, const CentreLoss& loss);
// The centre loss calibrated on the cases (calibrate_centre_loss).
CentreLoss calibrate_centre_on(const std::vector<CaseResult>& cases);
// Leave one source out: each of `test`'s rows predicted with the centre loss calibrated on the rows of
// `train` from the other sources (a source: one README). `test` may be `train` itself or other GPU counts.
std::vector<CaseResult> centre_left_out(const std::vector<CaseResult>& train, const std::vector<CaseResult>& test);


// The hard cases (issue 37): avolkov1's Keras CIFAR-10 CNN on Rossum's 7gforce, 2 to 6 GTX 1070s on PCIe x1
// (every multi-GPU row, with and without NCCL, on the GPUs it names), weak scaling, where N GPUs are often slower
// than one (../shared/data/scaling/rossum-keras-multi-gpu).
std::vector<CaseResult> run_rossum_cases(const std::string& scaling_dir, const std::string& work_dir);
// Rossum's Keras InceptionV3 / ResNet50 runs (kuza55's and avolkov1's make_parallel, the parameter server on the
// CPU or a GPU, batch 32 split over 2 to 6 GPUs) on 7gforce and Azure's 2x M60: strong scaling, the sync as each
// run's log names it, the link preset measured on the machine's own bandwidth tests.
std::vector<CaseResult> run_rossum_keras_cases(const std::string& scaling_dir, const std::string& work_dir);
// kuza55's MLP (41 M parameters, 2048 samples per GPU) on Azure's 2x M60: the complete runs of its log, with
// no --sync (the log does not name each run's parameter server), so the band covers the strategies.
std::vector<CaseResult> run_rossum_mlp_cases(const std::string& scaling_dir, const std::string& work_dir);
// Rossum's tf_cnn_benchmarks runs on Azure's M60s (CIFAR-10 models and InceptionV3 on 2 GPUs, InceptionV3 on 2 to
// 4, and the 22 September log's ImageNet models on 2, their sizes counted from their layers: layer_parameters.hpp):
// weak scaling, each run's variable mode as its synchronisation; independent runs and runs with no 1-GPU run of
// the same model, data format and batch are left out.
std::vector<CaseResult> run_rossum_tf_cnn_cases(const std::string& scaling_dir, const std::string& work_dir);
// The tf_cnn_benchmarks log of 22 September 2017, whose runs were added after the PCIe figures were calibrated:
// a check, reported apart (CaseResult::source ends with it).
inline constexpr const char* kRossumImageNetLog = "benchmark_batch_results_az2xm60_2017-09-22.txt";
inline bool from_rossum_imagenet_log(const CaseResult& row) { return row.source.ends_with(kRossumImageNetLog); }

// The replica loss that the cases' bands need for `coverage` of them (`calibrate_replica_loss`), row by row.
double calibrate_on(const std::vector<CaseResult>& cases, double coverage);
// The same calibrated source by source (split-conformal over sources, not rows, since the rows of one README
// share their system and framework and miss together): each source's spread for `coverage` of its rows,
// then the `calibrate_replica_loss` rank of those. The shipped figure (band_high.hpp) is this one.
double calibrate_by_source(const std::vector<CaseResult>& cases, double coverage);

// The verdict from the band (prediction.hpp, Call): faster where the slow end beats `one_gpu`, no faster where
// the fast end does not, else uncertain, which is never right. Throughputs: `low` is the slow end; times
// (`lower_is_faster`): `low` is the fast end.
void set_verdict(CaseResult& result, double one_gpu, bool lower_is_faster = false);
// Rows whose band has the replica loss calibrated leave one source out: each of `test`'s rows gets its slow end
// (and its verdict) from `calibrate_by_source` on `train`'s rows of the other sources with a link of the same
// kind (over PCIe or not). Throughput rows with `one_gpu` set.
std::vector<CaseResult> band_rows_left_out(const std::vector<CaseResult>& train, const std::vector<CaseResult>& test,
                                           double coverage);

// The band calibrated on some cases and checked on others it never saw.
struct HeldOutCoverage {
  std::size_t inside = 0, cases = 0;
  double share() const { return cases > 0 ? static_cast<double>(inside) / static_cast<double>(cases) : 0.0; }
};
// The cases whose band, with this replica loss, holds their truth.
HeldOutCoverage coverage_with(const std::vector<CaseResult>& cases, double replica_loss);
// `test` checked with the loss calibrated (by source) on `train`.
HeldOutCoverage held_out(const std::vector<CaseResult>& train, const std::vector<CaseResult>& test, double coverage);
// Leave one source out: each row of `test` checked with the loss calibrated (by source) on `train`'s rows of
// the other sources (a source: one README or log) whose link is of the same kind (over PCIe or not); `test` may
// be `train` itself or another GPU count.
HeldOutCoverage band_left_out(const std::vector<CaseResult>& train, const std::vector<CaseResult>& test,
                              double coverage);

}  // namespace gpuprof::predict
