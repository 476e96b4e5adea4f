#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "case_band.hpp"
#include "case_traces.hpp"
#include "csv_table.hpp"
#include "gpuprof/predict/case_validation.hpp"

namespace gpuprof::predict {
namespace {

// The GRU write-up gives epoch times, not its data set: steps are sized for an assumed 100,000 samples.
constexpr double kSamples = 100'000.0, kEpochs = 15.0;
constexpr std::int64_t kFitBatch = 64;

struct GruTimes {
  std::map<std::int64_t, std::pair<double, double>> seconds;  // batch -> (1 GPU, 2 GPUs), 15 epochs
};

GruTimes gru_times(const std::string& dir) {
  GruTimes times;
  for (const auto& row : read_csv_table(dir + "/classic-cases.csv")) {
    if (row.at("case_id") != "gru-multi-gpu-model") continue;
    auto& entry = times.seconds[std::stoll(row.at("batch_size"))];
    (row.at("gpus") == "1" ? entry.first : entry.second) = std::stod(row.at("value"));
  }
  return times;
}

struct GruPrediction {
  double seconds = 0, low = 0, high = 0;
  std::string top_term;
  GpuCountPrediction row;
  double seconds_per_step_ns = 0;  // the 1-GPU time over its trace's step
};

GruPrediction predict_gru(const GruTimes& times, const std::string& work, std::int64_t batch, std::int64_t bytes) {
  PredictOptions options;
  options.gpus = {2};
  options.strategy = Strategy::host_staged;
  options.scaling = Scaling::strong;
  options.link = link_preset("pcie3");
  options.gradient_bytes = bytes;
  const auto trace = fmt::format("{}/gru_b{}.sqlite", work, batch);
  const auto half = times.seconds.find(batch / 2);
  const auto per_gpu =
      half != times.seconds.end() ? std::optional(fmt::format("{}/gru_b{}.sqlite", work, batch / 2)) : std::nullopt;
  const auto prediction = predict_files(trace, per_gpu, options);
  const auto& row = prediction.rows.front();
  const double one_gpu = times.seconds.at(batch).first;
  const double scale = one_gpu / prediction.measured_step_ns;
  return {row.step_ns * scale, row.low_ns * scale, row.high_ns * scale, row.terms.front().name, row, scale};
}

// The one fitted parameter: the gradient bytes that reproduce the 2-GPU time at kFitBatch (monotonic in bytes).
std::int64_t fit_gradient_bytes(const GruTimes& times, const std::string& work) {
  double low = 1e3, high = 1e10;
  const double target = times.seconds.at(kFitBatch).second;
  for (int i = 0; i < 40; ++i) {
    const double mid = std::sqrt(low * high);
    (predict_gru(times, work, kFitBatch, static_cast<std::int64_t>(mid)).seconds < target ? low : high) = mid;
  }
  return static_cast<std::int64_t>(std::sqrt(low * high));
}

// Where the 1-GPU / 2-GPU time ratio crosses 1, interpolated in log(batch); 0 when it never does.
double break_even(const std::vector<std::pair<std::int64_t, double>>& ratios) {
  for (std::size_t i = 1; i < ratios.size(); ++i) {
    const auto [b0, r0] = ratios[i - 1];
    const auto [b1, r1] = ratios[i];
    if ((r0 - 1.0) * (r1 - 1.0) > 0) continue;
    const double w = (1.0 - r0) / (r1 - r0);
    return std::exp2(std::log2(static_cast<double>(b0)) +
                     w * (std::log2(static_cast<double>(b1)) - std::log2(static_cast<double>(b0))));
  }
  return 0.0;
}

}  // namespace

GruSummary run_gru_case(const std::string& dir, const std::string& work) {
  const auto times = gru_times(dir);
  std::uint64_t seed = 1;
  for (const auto& [batch, seconds] : times.seconds) {
    const double steps = kEpochs * kSamples / static_cast<double>(batch);
    write_step_trace(fmt::format("{}/gru_b{}.sqlite", work, batch), seconds.first / steps * 1e9, seed++);
  }
  GruSummary summary;
  summary.fitted_gradient_bytes = fit_gradient_bytes(times, work);
  std::vector<std::pair<std::int64_t, double>> predicted_ratios, measured_ratios;
  for (const auto& [batch, seconds] : times.seconds) {
    const auto p = predict_gru(times, work, batch, summary.fitted_gradient_bytes);
    CaseResult row{
        "gru", fmt::format("GRU batch {}, 2 GPUs (s / 15 epochs)", batch), p.seconds, seconds.second, p.low, p.high,
        "s"};
    set_verdict(row, seconds.first, true);
    row.note = batch == kFitBatch ? "gradient size fitted here" : fmt::format("top term: {}", p.top_term);
    set_step_band(row, p.row, seconds.second / p.seconds_per_step_ns);
    summary.rows.push_back(row);
    predicted_ratios.emplace_back(batch, seconds.first / p.seconds);
    measured_ratios.emplace_back(batch, seconds.first / seconds.second);
  }
  summary.predicted_break_even = break_even(predicted_ratios);
  summary.measured_break_even = break_even(measured_ratios);
  return summary;
}

CaseResult run_towers_case(const std::string& dir, const std::string& work) {
  double one = 0, two = 0;
  for (const auto& row : read_csv_table(dir + "/classic-cases.csv"))
    if (row.at("case_id") == "deepconn-towers" && !row.at("value").empty())
      (row.at("gpus") == "1" ? one : two) = std::stod(row.at("value"));
  // Assumed, the write-up gives neither: 50 ms steps, and at the split a tower's embedded review batch
  // (100 reviews x 300 words x 100 fp32 = 12 MB) crosses forward, its gradient backward, over PCIe 3 without P2P.
  const auto trace = work + "/towers.sqlite";
  write_step_trace(trace, 50e6, 7);
  PredictOptions options;
  options.gpus = {2};
  options.strategy = Strategy::placement;
  options.link = link_preset("pcie3");
  options.split_bytes = 12'000'000;
  const auto prediction = predict_files(trace, std::nullopt, options);
  const auto& row = prediction.rows.front();
  const double scale = one / prediction.measured_step_ns;
  CaseResult result{"towers",
                    "DeepCoNN two towers on 2 GPUs (s / epoch)",
                    row.step_ns * scale,
                    two,
                    row.low_ns * scale,
                    row.high_ns * scale,
                    "s"};
  set_verdict(result, one, true);
  result.note = fmt::format("top term: {}", row.terms.front().name);
  set_step_band(result, row, two / scale);
  return result;
}

}  // namespace gpuprof::predict
