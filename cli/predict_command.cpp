#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "cli_reference.hpp"
#include "command.hpp"
#include "gpuprof/predict/job_check.hpp"
#include "gpuprof/predict/link_profile.hpp"
#include "progress_line.hpp"
#include "gpuprof/predict/predict_request.hpp"
#include "gpuprof/predict/prediction.hpp"
#include "gpuprof/predict/prediction_traces.hpp"
#include "gpuprof/predict/prediction_writers.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::cli {
namespace {

struct PredictArguments {
  std::vector<std::string> traces;
  predict::PredictRequest request;
  std::string format = "text", output;
  bool force = false, check = false;
};

// `--check JOB`: the link model against the job's own communication, rank by rank.
int run_check(const PredictArguments& arguments, const Invocation& invocation) {
  const auto format = report::format_from_string(arguments.format);
  if (!arguments.request.link.empty()) predict::link_preset(arguments.request.link);  // said before any trace
  analysis::AnalysisOptions analysis;
  analysis.warmup_steps = arguments.request.warmup_steps;
  if (!arguments.request.step_pattern.empty()) analysis.step_pattern = arguments.request.step_pattern;
  const report::WriteOptions write_options{.overwrite = arguments.force, .inputs = arguments.traces};
  const bool to_stdout = arguments.output.empty() || arguments.output == "-";
  if (!to_stdout) report::check_output(report::Format::text, arguments.output, write_options);
  ProgressLine line(stderr, "predict", invocation.quiet);
  const auto check = predict::check_job(arguments.traces, arguments.request.link, arguments.request.link_files,
                                        analysis, line.callback());
  line.clear();
  const auto text = predict::render_job_check(format, check);
  if (to_stdout)
    std::fwrite(text.data(), 1, text.size(), stdout);
  else
    report::write_files({{arguments.output, text}}, write_options);
  return kExitOk;
}

int run_predict(const PredictArguments& arguments, const Invocation& invocation) {
  if (arguments.check) return run_check(arguments, invocation);
  const auto format = report::format_from_string(arguments.format);
  // Every option and path is checked before a trace is read.
  auto [options, inputs] = predict::check_prediction(arguments.request, arguments.traces);
  const report::WriteOptions write_options{.overwrite = arguments.force, .inputs = std::move(inputs)};
  const bool to_stdout = arguments.output.empty() || arguments.output == "-";
  if (!to_stdout) report::check_output(report::Format::text, arguments.output, write_options);
  std::vector<trace::TraceModel> models;
  ProgressLine line(stderr, "predict", invocation.quiet);
  for (const auto& path : arguments.traces) models.push_back(predict::load_prediction_trace(path, line.callback()));
  line.clear();
  std::vector<const trace::TraceModel*> pointers;
  for (const auto& model : models) pointers.push_back(&model);
  const auto text = predict::render_prediction(format, predict::predict(pointers, options));
  if (to_stdout)
    std::fwrite(text.data(), 1, text.size(), stdout);
  else
    report::write_files({{arguments.output, text}}, write_options);
  return kExitOk;
}

}  // namespace

void add_predict_command(CLI::App& app, Action& action) {
  auto arguments = std::make_shared<PredictArguments>();
  auto* command = app.add_subcommand(
      "predict", "Predict the step time on N GPUs from a 1-GPU trace: speedup, band and the terms that explain it");
  command
      ->add_option("traces", arguments->traces,
                   "The 1-GPU trace (any format gpuprof reads); optionally a second one at the per-GPU batch")
      ->required();
  // The list as typed: predict::parse_gpu_counts reads it, as it reads the app's GPU field (CLI11's own splitting
  // would drop the empty item of "2,,8" that the app refuses).
  command->add_option("--gpus", arguments->request.gpus, "GPU counts to predict, e.g. 2,4,8 (required unless --check)");
  command->add_flag("--check", arguments->check,
                    "Check the link model on a multi-GPU job (its traces or folder): each rank's communication "
                    "replaced by the model, predicted against measured step and exposed communication");
  command->add_option("--strategy", arguments->request.strategy, "data-parallel, host-staged or placement")
      ->capture_default_str();
  command
      ->add_option("--allreduce", arguments->request.allreduce,
                   "data-parallel: bucketed (PyTorch DDP) or after-backward (Keras/TF 1.x)")
      ->capture_default_str();
  command
      ->add_option("--scaling", arguments->request.scaling, "weak (same per-GPU batch) or strong (global batch split)")
      ->capture_default_str();
  command->add_option("--link", arguments->request.link,
                      "Link preset: pcie3, pcie4, pcie5, pcie3-x1, pcie3-m60, pcie3-p2p, nvlink2, nvlink3, nvlink4, "
                      "h800, nvlink5, xgmi (default: chosen from the "
                      "trace's GPU, and said so)");
  command->add_option("--link-file", arguments->request.link_files,
                      "Your own all_reduce_perf output (one file per GPU count), replacing the preset's table");
  command->add_option("--sync", arguments->request.sync,
                      "data-parallel: ring-allreduce, ps-cpu or ps-gpu (default: ring all-reduce; without peer access "
                      "the band covers the parameter servers)");
  command->add_option("--topology", arguments->request.topology,
                      "The machine's `nvidia-smi topo -m` output: a job on N GPUs uses GPUs 0 to N-1");
  command->add_option("--grad-bytes", arguments->request.grad_bytes,
                      "Gradient bytes per step, when the trace does not say");
  command->add_option("--split-bytes", arguments->request.split_bytes,
                      "placement: bytes crossing each split point per step");
  command->add_option("--format", arguments->format, "text, md, json, csv or html")->capture_default_str();
  command->add_flag("--multi-gpu-input", arguments->request.accept_multi_gpu_trace,
                    "The first trace has collectives or several GPUs and is meant as the input (else refused)");
  command->add_option("-o,--output", arguments->output, "Output file (default: standard output)");
  command->add_option("--step-pattern", arguments->request.step_pattern,
                      "Regex of step annotations (default: ProfilerStep#N, step N, batch N)");
  command->add_option("--warmup-steps", arguments->request.warmup_steps, "Leading steps left out")
      ->capture_default_str();
  command->add_flag("-f,--force", arguments->force, "Overwrite an existing output file");
  offer_values(command->get_option("--link"), predict::link_preset_names());
  offer_values(command->get_option("--sync"), predict::sync_names());
  offer_values(command->get_option("--strategy"), predict::strategy_names());
  offer_values(command->get_option("--allreduce"), predict::allreduce_names());
  offer_values(command->get_option("--scaling"), predict::scaling_names());
  offer_values(command->get_option("--format"), {"text", "md", "json", "csv", "html"});
  command->callback(
      [arguments, &action] { action = [arguments](const Invocation& invocation) { return run_predict(*arguments, invocation); }; });
}

}  // namespace gpuprof::cli
