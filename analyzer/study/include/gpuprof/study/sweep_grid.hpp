#pragma once

// What a sweep runs: the grid of configurations and how each becomes a command.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuprof::study {

struct SweepSettings {
  std::string workload;  // rnn | towers | resnet | mlp; empty with a user command
  std::vector<std::int64_t> batches;
  std::vector<std::int64_t> gpus;
  std::string strategy = "data-parallel";  // used for the runs with more than one GPU
  std::optional<std::int64_t> epochs, steps;
  std::int64_t repeat = 1;
  bool calibrate = false;
  // 'CMD {batch} {gpus} {strategy} {summary}': the user's own program instead of the built-in workload.
  std::string command;
  std::vector<std::string> extra_arguments;  // appended to the built-in workload's command line
  // Each run is a `gpuprof synth` trace shaped by the configuration instead of a
  // program on a GPU: the study can be seen and tested anywhere, labelled synthetic.
  bool synthetic = false;
};

struct Configuration {
  std::string workload;
  std::int64_t batch = 0;
  std::int64_t gpus = 1;
  std::string strategy;
  // Stable folder and key: e.g. "rnn_b256_g2_data-parallel".
  std::string name() const;
  friend bool operator==(const Configuration&, const Configuration&) = default;
};

// Empty when the settings make sense, otherwise one line naming the bad value.
std::string check_settings(const SweepSettings& settings);

// Empty when this machine can run the sweep, otherwise one line saying why not. The
// built-in workloads need as many GPUs as the largest count asked for; synthetic
// sweeps and user commands are not checked (a user's program may not need gpuprof's GPU).
std::string check_machine(const SweepSettings& settings, int gpu_count, const std::string& no_gpu_reason);

// Every (batch, gpus) pair in the order given: 1-GPU runs use strategy `single`,
// the others the chosen strategy. Duplicates are dropped.
std::vector<Configuration> expand_grid(const SweepSettings& settings);

// Replaces {name} by values[name]; unknown placeholders are left as written.
std::string substitute_placeholders(const std::string& pattern, const std::map<std::string, std::string>& values);

// argv for one run. The built-in workload is `workload_binary MODEL --batch ...`;
// a user command runs through /bin/sh -c with its placeholders filled in.
std::vector<std::string> command_for(const SweepSettings& settings, const Configuration& configuration,
                                     const std::string& summary_path, const std::string& workload_binary);

// The program a command would start (first word of a user command); empty if none.
std::string program_of(const SweepSettings& settings, const Configuration& configuration,
                       const std::string& workload_binary);

// True when `program` names an executable file, directly or through PATH.
bool program_exists(const std::string& program);

// A fingerprint of everything but the batch and GPU lists: a resumed sweep must match it.
std::string settings_fingerprint(const SweepSettings& settings);

}  // namespace gpuprof::study
