#include "rossum_logs.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::predict {
namespace {

std::optional<std::string> value_after(const std::string& line, std::string_view key) {
  if (!line.starts_with(key)) return std::nullopt;
  return line.substr(key.size());
}

std::ifstream open_log(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw TraceError::bad_input(path, "cannot read the Rossum benchmark log");
  return in;
}

// Calls `read(line)` on every line, turning a number that does not parse into bad input naming the file.
template <typename Read>
void each_line(const std::string& path, Read&& read) {
  auto in = open_log(path);
  for (std::string line; std::getline(in, line);) {
    try {
      read(line);
    } catch (const std::logic_error&) {
      throw TraceError::bad_input(path, fmt::format("unreadable value in '{}'", line));
    }
  }
}

// "--model alexnet --num_gpus 2 ..." -> the value after `flag`, if any.
std::optional<std::string> flag_value(const std::string& line, const std::string& flag) {
  std::istringstream words(line);
  for (std::string word; words >> word;)
    if (word == flag && words >> word) return word;
  return std::nullopt;
}

}  // namespace

std::vector<KerasRun> read_keras_log(const std::string& path) {
  std::vector<KerasRun> runs;
  each_line(path, [&](const std::string& line) {
    if (const auto v = value_after(line, "architecture: ")) runs.push_back({*v, "", "", 0, 0, 0, std::nullopt});
    if (runs.empty()) return;
    auto& run = runs.back();
    if (const auto v = value_after(line, "number of GPUs: ")) run.gpus = std::stoi(*v);
    if (const auto v = value_after(line, "parameter server: ")) run.server = *v;
    if (const auto v = value_after(line, "parallelization method: ")) run.method = *v;
    if (const auto v = value_after(line, "batch_size: ")) run.batch = std::stoll(*v);
    if (const auto v = value_after(line, "Number of parameters: ")) run.parameters = std::stoll(*v);
    if (const auto v = value_after(line, "Samples/sec: ")) run.throughput = std::stod(*v);
  });
  return runs;
}

std::vector<TfCnnRun> read_tf_cnn_log(const std::string& path) {
  std::vector<TfCnnRun> runs;
  each_line(path, [&](const std::string& line) {
    if (line.starts_with("++ python") && line.find("tf_cnn_benchmarks.py") != std::string::npos) {
      TfCnnRun run;
      run.model = flag_value(line, "--model").value_or("");
      run.gpus = std::stoi(flag_value(line, "--num_gpus").value_or("1"));
      run.parameter_device = flag_value(line, "--local_parameter_device").value_or("gpu");
      run.variable_update = flag_value(line, "--variable_update").value_or("parameter_server");
      run.nccl = flag_value(line, "--use_nccl").value_or("true") == "true";
      run.data_format = flag_value(line, "--data_format").value_or("NCHW");
      runs.push_back(run);
      return;
    }
    if (runs.empty()) return;
    if (const auto at = line.find(" per device"); at != std::string::npos && line.starts_with("  "))
      runs.back().batch = std::stoll(line.substr(0, at));
    if (const auto v = value_after(line, "total images/sec: ")) runs.back().throughput = std::stod(*v);
  });
  return runs;
}

std::vector<EpochRun> read_epoch_log(const std::string& path) {
  std::vector<EpochRun> runs;
  each_line(path, [&](const std::string& line) {
    if (line.starts_with("Using TensorFlow backend.")) runs.emplace_back();
    if (runs.empty()) return;
    if (line.starts_with("name: ")) ++runs.back().gpus;  // one line per device TensorFlow found
    // A finished epoch: the progress bar's last state, "131072/131072 [====] - 18s - loss: ...".
    const auto last = line.substr(line.rfind('\r') == std::string::npos ? 0 : line.rfind('\r') + 1);
    const auto first = last.find_first_not_of(' ');
    const auto slash = last.find('/');
    const auto bar = last.find("] - ");
    if (first == std::string::npos || last[first] < '0' || last[first] > '9' || slash == std::string::npos ||
        bar == std::string::npos || last.find("ETA") != std::string::npos)
      return;
    if (std::stoll(last.substr(0, slash)) != std::stoll(last.substr(slash + 1))) return;
    const auto seconds = last.substr(bar + 4);
    if (const auto unit = seconds.find('s'); unit != std::string::npos)
      runs.back().epoch_seconds.push_back(std::stod(seconds.substr(0, unit)));
  });
  return runs;
}

std::map<std::string, std::int64_t> read_parameter_table(const std::string& path) {
  std::map<std::string, std::int64_t> parameters;
  auto in = open_log(path);
  for (std::string line; std::getline(in, line);) {
    // "| alexnet         | 1,756,620        | 1.17x   | 58.70%     |"
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, '|');) cells.push_back(cell);
    if (cells.size() != 5 || !cells[0].empty()) continue;
    std::string name, digits;
    for (const char c : cells[1])
      if (c != ' ') name += c;
    for (const char c : cells[2]) {
      if (c >= '0' && c <= '9') digits += c;
      else if (c != ',' && c != ' ') digits.clear(), name.clear();
    }
    if (!name.empty() && !digits.empty() && digits.size() < 12) parameters[name] = std::stoll(digits);
  }
  return parameters;
}

}  // namespace gpuprof::predict
