#include <fmt/format.h>

#include <map>
#include <tuple>

#include "case_band.hpp"
#include "case_traces.hpp"
#include "csv_table.hpp"
#include "gpuprof/predict/case_validation.hpp"

namespace gpuprof::predict {
namespace {

// Public parameter counts (assumed: the tables do not state them): ResNet-50 (He et al.), BERT-large
// (Devlin et al.; the DeepLearningExamples BERT tables train and fine-tune the large model),
// Transformer-XL base and large on WikiText-103 (Dai et al.). Gradients all-reduced in fp32.
struct ModelFacts {
  double parameters;
  double samples_per_unit;  // tokens per sequence for tokens/s tables (the target length), else 1
};

std::optional<ModelFacts> facts_of(const CsvRow& row) {
  const auto& model = row.at("model");
  const bool large = row.at("variant").find("Large") != std::string::npos;
  if (model == "ResNet-50 v1.5") return ModelFacts{25.6e6, 1.0};
  if (model == "BERT" || model == "BERT 1.0") return ModelFacts{336e6, 1.0};
  if (model == "Transformer-XL") return large ? ModelFacts{257e6, 384.0} : ModelFacts{151e6, 192.0};
  return std::nullopt;
}

bool in_scope(const CsvRow& row, const std::string& gpus) {
  const auto& system = row.at("system");
  return (system == "DGX-1" || system == "DGX A100") && (row.at("gpus") == "1" || row.at("gpus") == gpus) &&
         !row.at("batch_per_gpu").empty() && facts_of(row).has_value();
}

}  // namespace

std::vector<CaseResult> run_published_cases(const std::string& dir, const std::string& work,
                                            const PublishedCaseOptions& published) {
  const auto gpus = published.gpus;
  const auto n = std::to_string(gpus);
  using Key = std::tuple<std::string, std::string, std::string, std::string, std::string, std::string, std::string>;
  std::map<Key, std::map<std::string, CsvRow>> groups;
  for (const auto& row : read_csv_table(dir + "/published-scaling.csv")) {
    if (!in_scope(row, n)) continue;
    const Key key{row.at("model"),     row.at("framework"),     row.at("system"), row.at("gpu"),
                  row.at("precision"), row.at("batch_per_gpu"), row.at("variant")};
    groups[key].emplace(row.at("gpus"), row);
  }
  std::vector<CaseResult> results;
  auto seed = published.first_seed;
  for (const auto& [key, rows] : groups) {
    if (!rows.contains("1") || !rows.contains(n)) continue;
    const auto& one = rows.at("1");
    const auto facts = *facts_of(one);
    const double throughput = std::stod(one.at("throughput"));
    const double step_ns = std::stod(one.at("batch_per_gpu")) * facts.samples_per_unit / throughput * 1e9;
    const auto trace = fmt::format("{}/published_{}.sqlite", work, seed);
    write_step_trace(trace, step_ns, seed++);
    PredictOptions options;
    options.gpus = {gpus};
    options.link = link_preset(one.at("system") == "DGX-1" ? "nvlink2" : "nvlink3");
    options.gradient_bytes = static_cast<std::int64_t>(facts.parameters * 4);
    options.stated_step_spread = published.step_spread;
    options.centre_loss = CentreLoss{};
    const auto prediction = predict_files(trace, std::nullopt, options);
    const auto& row = prediction.rows.front();
    const double per_step = gpus * throughput * prediction.measured_step_ns;
    const double measured = std::stod(rows.at(n).at("throughput"));
    CaseResult result{"published",
                      fmt::format("{} {} {} {} b{} {}", std::get<0>(key), std::get<1>(key), std::get<2>(key),
                                  std::get<4>(key), std::get<5>(key), std::get<6>(key).substr(0, 24)),
                      per_step / row.step_ns,
                      measured,
                      per_step / row.high_ns,
                      per_step / row.low_ns,
                      rows.at(n).at("unit")};
    set_step_band(result, row, per_step / measured);
    result.centre = row.centre;
    const auto& source = one.at("source");
    result.source = source.substr(0, source.find('@'));
    result.one_gpu = throughput, result.gpus = gpus;
    results.push_back(result);
  }
  return results;
}

}  // namespace gpuprof::predict
