#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "gpuprof/importers/import_trace.hpp"
#include "gpuprof/analysis/run_facts.hpp"
#include "gpuprof/predict/comm_cases.hpp"
#include "gpuprof/predict/link_choice.hpp"
#include "gpuprof/predict/nccl_tests_reader.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::predict {
namespace {

namespace fs = std::filesystem;

// The multi-rank traces of ../shared/data/external/README.md, grouped by job: every DLRM rank (one job,
// one clock), and the two HTA ranks whose other ranks are not in the data. (hta/sampled_rank-* are
// down-sampled: their idle time, and so the exposed communication, is not meaningful.)
std::vector<std::vector<fs::path>> multi_rank_jobs(const fs::path& dir) {
  std::vector<std::vector<fs::path>> jobs;
  std::vector<fs::path> dlrm;
  if (fs::is_directory(dir / "dlrm-8rank"))
    for (const auto& entry : fs::directory_iterator(dir / "dlrm-8rank"))
      if (entry.path().string().ends_with(".json.gz")) dlrm.push_back(entry.path());
  std::sort(dlrm.begin(), dlrm.end());
  if (!dlrm.empty()) jobs.push_back(dlrm);
  for (const auto* name : {"hta/training_rank0of16.json.gz", "hta/nccl_data_rank0of2.json.gz"})
    if (fs::exists(dir / name)) jobs.push_back({dir / name});
  return jobs;
}

trace::TraceModel load(const fs::path& path, const fs::path& external_dir, const fs::path& work_dir) {
  importers::ImportOptions import;
  import.input = path.string();
  import.output = (work_dir / (path.filename().string() + ".sqlite")).string();
  import.overwrite = true;
  importers::import_trace(import);
  auto model = trace::load_trace_model(import.output, {.load_kernel_launch_details = false});
  model.path = fs::relative(path, external_dir).string();
  return model;
}

std::string device_of(const trace::TraceModel& model) {
  for (const auto& row : model.devices)
    if (row.name) return *row.name;
  return "";
}

// The link of the trace's hardware: its GPU's preset, and for a job past one 8-GPU node the measured
// two-node all-reduce of the same GPU where the scaling data has one (Echo's A100 nodes, 200 Gb/s
// InfiniBand per GPU): the preset alone would extrapolate NVLink past the node.
LinkProfile link_of(const trace::TraceModel& model, const std::string& device, const fs::path& scaling_dir) {
  const auto preset = preset_for_gpu_name(device);
  if (preset.empty()) throw TraceError::bad_input(model.path, fmt::format("no link preset for '{}'", device));
  auto link = link_preset(preset);
  const auto two_nodes = scaling_dir / "nccl-tests/echo-a100/nccl_16.log";
  if (preset == "nvlink3" && analysis::positive_run_fact(model, "world_size").value_or(0) > 8 &&
      fs::exists(two_nodes)) {
    link.tables.push_back(read_allreduce_file(two_nodes.string()));
    link.name += "+ib";
    link.source += "; 16 ranks: NetX-lab/Echo:nccl-test-log/nccl_16.log (2 nodes, measured)";
  }
  return link;
}

}  // namespace

std::vector<CommCase> run_comm_cases(const std::string& external_dir, const std::string& scaling_dir,
                                     const std::string& work_dir) {
  std::vector<CommCase> cases;
  for (const auto& job : multi_rank_jobs(external_dir)) {
    std::vector<trace::TraceModel> ranks;
    for (const auto& path : job) ranks.push_back(load(path, external_dir, work_dir));
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      std::vector<const trace::TraceModel*> partners;
      for (std::size_t p = 0; p < ranks.size(); ++p)
        if (p != r) partners.push_back(&ranks[p]);
      const auto link = link_of(ranks[r], device_of(ranks[r]), scaling_dir);
      cases.push_back(leave_communication_out(ranks[r], link, {}, partners));
    }
  }
  return cases;
}

}  // namespace gpuprof::predict
