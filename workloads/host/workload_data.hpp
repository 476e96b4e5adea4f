#pragma once

#include <memory>

#include "options.hpp"
#include "image_dataset.hpp"
#include "review_dataset.hpp"
#include "sample_source.hpp"
#include "sequence_dataset.hpp"
#include "teacher_dataset.hpp"

namespace gpuprof::workloads {

// The synthetic training and validation sets of the model named in the options,
// behind the SampleSource interface the input pipeline reads.
class WorkloadData {
 public:
  explicit WorkloadData(const WorkloadOptions& options);
  WorkloadData(const WorkloadData&) = delete;
  WorkloadData& operator=(const WorkloadData&) = delete;

  const SampleSource& train() const { return *train_; }
  const SampleSource& validation() const { return *validation_; }

 private:
  SequenceData sequences_;  // rnn
  TeacherData dense_;       // mlp
  ReviewData reviews_;      // towers
  std::unique_ptr<SampleSource> train_;
  std::unique_ptr<SampleSource> validation_;
};

// The mlp model's input width (its first layer's fan-in).
inline constexpr int mlp_features = 8000;

}  // namespace gpuprof::workloads
