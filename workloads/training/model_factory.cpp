#include "model_factory.hpp"

#include <fmt/format.h>

#include "deterministic_random.hpp"
#include "layer_choices.hpp"
#include "mlp_model.hpp"
#include "resnet_model.hpp"
#include "rnn_classifier.hpp"
#include "towers_model.hpp"
#include "workload_data.hpp"
#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {
constexpr std::uint64_t dropout_stream = 11;
}

std::unique_ptr<TrainableModel> make_model(const WorkloadOptions& options, const PlacementPlan& placement,
                                           const std::vector<const DeviceContext*>& contexts, int max_batch) {
  const DeviceContext& first = *contexts.front();
  first.make_current();
  if (options.model == "rnn") {
    RnnClassifierConfig config;
    config.recurrent = RecurrentConfig{parse_cell(options.cell), options.features, options.hidden, options.layers,
                                       options.seq_len, max_batch, static_cast<float>(options.dropout),
                                       derive_seed(options.seed, dropout_stream), options.rnn_algo == "auto"};
    config.classes = options.classes;
    return std::make_unique<RnnClassifier>(first, config);
  }
  if (options.model == "mlp") return std::make_unique<MlpModel>(first, max_batch);
  if (options.model == "resnet") {
    return std::make_unique<ResnetModel>(first, ResnetConfig{options.depth, options.image_size, options.classes,
                                                             max_batch, resnet_channels_last(options),
                                                             layer_choices(options)});
  }
  if (options.model == "towers") {
    const TowersConfig config{options.vocab, options.review_len, options.embedding, options.filters,
                              options.kernel_size, max_batch};
    return std::make_unique<TowersModel>(contexts, placement, config);
  }
  throw WorkloadError(fmt::format("the {} model is not built into gpuprof-workload", options.model), exit_bad_input);
}

}  // namespace gpuprof::workloads
