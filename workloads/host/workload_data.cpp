#include "workload_data.hpp"

#include <fmt/format.h>

#include "layer_choices.hpp"
#include "workload_error.hpp"

namespace gpuprof::workloads {

WorkloadData::WorkloadData(const WorkloadOptions& o) {
  if (o.model == "rnn") {
    sequences_ = generate_sequence_data(
        {o.train_samples, o.validation_samples, o.seq_len, o.features, o.classes, o.seed});
    train_ = std::make_unique<SequenceSamples>(sequences_.train);
    validation_ = std::make_unique<SequenceSamples>(sequences_.validation);
  } else if (o.model == "mlp") {
    dense_ = generate_teacher_data({mlp_features, o.train_samples, o.validation_samples, o.seed});
    train_ = std::make_unique<DenseSamples>(dense_.train);
    validation_ = std::make_unique<DenseSamples>(dense_.validation);
  } else if (o.model == "towers") {
    reviews_ = generate_review_data(
        {o.users, o.items, o.vocab, o.review_len, o.train_samples, o.validation_samples, o.seed});
    train_ = std::make_unique<ReviewSamples>(reviews_.corpus, reviews_.train);
    validation_ = std::make_unique<ReviewSamples>(reviews_.corpus, reviews_.validation);
  } else if (o.model == "resnet") {
    const auto count = static_cast<std::uint64_t>(o.train_samples);
    const bool channels_last = resnet_channels_last(o);
    train_ = std::make_unique<ImageSamples>(
        ImageDataConfig{o.train_samples, o.image_size, o.classes, o.seed, 0, channels_last});
    validation_ = std::make_unique<ImageSamples>(
        ImageDataConfig{o.validation_samples, o.image_size, o.classes, o.seed, count, channels_last});
  } else {
    throw WorkloadError(fmt::format("no synthetic data for model '{}'", o.model), exit_bad_input);
  }
}

}  // namespace gpuprof::workloads
