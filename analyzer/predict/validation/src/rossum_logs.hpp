#pragma once

// Readers of the Rossum benchmark logs (../shared/data/scaling/rossum-keras-multi-gpu), shared by the
// validation cases that predict their runs.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuprof::predict {

// One run of Rossum's Keras InceptionV3 / ResNet50 benchmark log: the settings it prints before training and
// its last `Samples/sec` line.
struct KerasRun {
  std::string architecture, server, method;
  std::int32_t gpus = 0;
  std::int64_t batch = 0, parameters = 0;
  std::optional<double> throughput;  // none: the run failed
};
std::vector<KerasRun> read_keras_log(const std::string& path);

// One run of a tf_cnn_benchmarks log: its command line's settings, the per-device batch and `total images/sec`.
struct TfCnnRun {
  std::string model, parameter_device = "gpu", variable_update = "parameter_server", data_format = "NCHW";
  bool nccl = false;
  std::int32_t gpus = 0;
  std::int64_t batch = 0;
  std::optional<double> throughput;
};
std::vector<TfCnnRun> read_tf_cnn_log(const std::string& path);

// One run of kuza55's MLP example log (Keras epochs): the GPUs TensorFlow found and each epoch's seconds.
struct EpochRun {
  std::int32_t gpus = 0;
  std::vector<double> epoch_seconds;
};
std::vector<EpochRun> read_epoch_log(const std::string& path);

// measurements.md's CIFAR-10 table: model name -> number of parameters.
std::map<std::string, std::int64_t> read_parameter_table(const std::string& path);

}  // namespace gpuprof::predict
