#include "run_summary.hpp"

#include <fstream>

#include <fmt/format.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

using JsonWriter = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

void write_key(JsonWriter& writer, const char* key) { writer.Key(key); }

void write_string(JsonWriter& writer, const char* key, const std::string& value) {
  writer.Key(key);
  writer.String(value.c_str(), static_cast<rapidjson::SizeType>(value.size()));
}

void write_int(JsonWriter& writer, const char* key, std::int64_t value) {
  writer.Key(key);
  writer.Int64(value);
}

void write_double(JsonWriter& writer, const char* key, double value) {
  writer.Key(key);
  writer.Double(value);
}

void write_optional(JsonWriter& writer, const char* key, const std::optional<double>& value) {
  writer.Key(key);
  if (value) {
    writer.Double(*value);
  } else {
    writer.Null();
  }
}

void write_configuration(JsonWriter& writer, const WorkloadOptions& o, const TrainingPlan& plan) {
  write_key(writer, "configuration");
  writer.StartObject();
  write_string(writer, "model", o.model);
  write_string(writer, "cell", o.cell);
  write_int(writer, "layers", o.layers);
  write_int(writer, "hidden", o.hidden);
  write_int(writer, "seq_len", o.seq_len);
  write_int(writer, "features", o.features);
  write_int(writer, "classes", o.classes);
  write_double(writer, "dropout", o.dropout);
  write_int(writer, "users", o.users);
  write_int(writer, "items", o.items);
  write_int(writer, "vocab", o.vocab);
  write_int(writer, "review_len", o.review_len);
  write_int(writer, "embedding", o.embedding);
  write_int(writer, "filters", o.filters);
  write_int(writer, "kernel_size", o.kernel_size);
  write_int(writer, "depth", o.depth);
  write_int(writer, "image_size", o.image_size);
  write_string(writer, "conv_algo", o.conv_algo);
  write_string(writer, "batch_norm", o.batch_norm);
  write_string(writer, "layout", o.layout);
  write_int(writer, "train_samples", o.train_samples);
  write_int(writer, "validation_samples", o.validation_samples);
  write_int(writer, "batch", o.batch);
  write_int(writer, "per_gpu_batch", plan.per_gpu_batch);
  write_int(writer, "steps", plan.total_steps);
  write_int(writer, "steps_per_epoch", plan.steps_per_epoch);
  write_int(writer, "warmup_steps", plan.warmup_steps);
  write_int(writer, "seed", static_cast<std::int64_t>(o.seed));
  write_string(writer, "optimizer", o.optimizer);
  write_double(writer, "learning_rate", o.learning_rate);
  write_string(writer, "precision", o.precision);
  write_string(writer, "rnn_algo", o.rnn_algo);
  write_string(writer, "cuda_graphs", o.cuda_graphs);
  write_string(writer, "loader", o.loader);
  write_string(writer, "host_memory", o.host_memory);
  write_int(writer, "prefetch", o.prefetch);
  write_int(writer, "loader_us", o.loader_us);
  write_int(writer, "loader_threads", o.loader_threads);
  write_int(writer, "gpus", plan.gpu_count);
  write_string(writer, "strategy", strategy_name(plan.strategy));
  writer.Key("overlap_allreduce");
  writer.Bool(o.overlap_allreduce);
  write_int(writer, "bucket_kib", o.bucket_kib);
  writer.EndObject();
}

void write_epoch(JsonWriter& writer, const EpochRecord& record) {
  writer.StartObject();
  write_int(writer, "epoch", record.epoch);
  write_int(writer, "steps", record.steps);
  write_double(writer, "seconds", record.seconds);
  write_int(writer, "warmup_steps", record.warmup_steps);
  write_optional(writer, "samples_per_second",
                 record.warmup_steps < record.steps ? std::optional<double>(record.samples_per_second) : std::nullopt);
  write_double(writer, "train_loss", record.train_loss);
  write_double(writer, "train_accuracy", record.train_accuracy);
  write_optional(writer, "validation_loss", record.validation_loss);
  write_optional(writer, "validation_accuracy", record.validation_accuracy);
  writer.EndObject();
}

}  // namespace

std::string format_epoch_line(const EpochRecord& r) {
  std::string line = fmt::format("epoch {} steps {} loss {:.4f} accuracy {:.4f}", r.epoch, r.steps,
                                 r.train_loss, r.train_accuracy);
  if (r.validation_loss && r.validation_accuracy) {
    line += fmt::format(" val_loss {:.4f} val_accuracy {:.4f}", *r.validation_loss,
                        *r.validation_accuracy);
  }
  line += fmt::format(" seconds {:.3f}", r.seconds);
  if (r.warmup_steps >= r.steps) return line + " samples/s - (warm-up only)";
  line += fmt::format(" samples/s {:.1f}", r.samples_per_second);
  if (r.warmup_steps > 0) line += fmt::format(" ({} warm-up steps not timed)", r.warmup_steps);
  return line;
}

std::string format_throughput_line(const RunSummary& s) {
  return fmt::format("throughput {:.1f} samples/s over {} timed steps ({:.3f} s); {} warm-up steps not timed",
                     s.samples_per_second, s.timed_steps, s.timed_seconds, s.warmup_steps);
}

std::string format_input_pipeline(const WorkloadOptions& o) {
  const std::string loader = o.loader == "pool" ? fmt::format("by a pool of {} loader threads", o.loader_threads)
                                                : fmt::format("inline on the training thread, each batch's rows "
                                                              "shared by {} threads",
                                                              o.loader_threads);
  const std::string copies = o.prefetch == 0 ? "copied synchronously on the compute stream"
                                             : fmt::format("copied {} ahead on a copy stream", o.prefetch);
  return fmt::format("batches assembled {}, in {} host memory, {}", loader, o.host_memory, copies);
}

std::string format_run_conditions(const RunSummary& s) {
  return fmt::format("input pipeline: {}\ncuda graphs: {}", format_input_pipeline(s.options), s.cuda_graphs);
}

std::string summary_to_json(const RunSummary& summary) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  write_string(writer, "format", "gpuprof.workload/1");
  write_configuration(writer, summary.options, summary.plan);
  write_key(writer, "devices");
  writer.StartArray();
  for (const auto& name : summary.device_names) writer.String(name.c_str());
  writer.EndArray();
  write_int(writer, "parameters", static_cast<std::int64_t>(summary.parameter_count));
  write_int(writer, "transfers_per_step", summary.transfers_per_step);
  write_key(writer, "epochs");
  writer.StartArray();
  for (const auto& record : summary.epochs) write_epoch(writer, record);
  writer.EndArray();
  write_double(writer, "training_seconds", summary.training_seconds);
  write_double(writer, "samples_per_second", summary.samples_per_second);
  write_int(writer, "warmup_steps", summary.warmup_steps);
  write_int(writer, "timed_steps", summary.timed_steps);
  write_double(writer, "timed_seconds", summary.timed_seconds);
  write_string(writer, "input_pipeline", format_input_pipeline(summary.options));
  write_string(writer, "cuda_graphs", summary.cuda_graphs);
  write_key(writer, "final");
  if (summary.epochs.empty()) {
    writer.Null();
  } else {
    write_epoch(writer, summary.epochs.back());
  }
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

void write_summary_file(const RunSummary& summary, const std::string& path) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw WorkloadError(fmt::format("cannot open --summary file '{}' for writing", path));
  file << summary_to_json(summary);
  if (!file.flush()) throw WorkloadError(fmt::format("cannot write --summary file '{}'", path));
}

}  // namespace gpuprof::workloads
