#include "gpuprof/trace/trace_writer.hpp"

#include <unistd.h>

#include <array>
#include <ctime>
#include <filesystem>
#include <string>
#include <tuple>
#include <unordered_map>

#include "gpuprof/trace/file_publishing.hpp"
#include "gpuprof/trace/output_guard.hpp"
#include "gpuprof/trace/schema_version.hpp"
#include "gpuprof/trace/symbol_names.hpp"
#include "gpuprof/trace/temporary_files.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "background_writes.hpp"
#include "trace_store.hpp"

namespace gpuprof::trace {
namespace {

namespace fs = std::filesystem;

struct TransparentHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

void check_output_path(const std::string& path, bool overwrite) {
  refuse_non_regular_output(path);
  std::error_code error;
  const auto status = fs::status(path, error);
  refuse_folder_output(path);
  if (fs::exists(status) && !overwrite) {
    throw TraceError::bad_input(path, "already exists (use --force to overwrite)");
  }
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty() && !fs::is_directory(parent, error)) {
    throw TraceError::bad_input(path, "folder " + parent.string() + " does not exist");
  }
}

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

}  // namespace

struct TraceWriter::Impl {
  WriterOptions options;
  std::string working_path;  // where SQLite writes; differs from options.path in atomic mode
  TemporaryName registration;  // so that SIGINT/SIGTERM remove the unfinished file
  TraceStore store;
  // Declared after the store, so that it stops before the store closes.
  std::unique_ptr<BackgroundWrites> background;
  std::unordered_map<std::string, StringId, TransparentHash, std::equal_to<>> strings;
  // Demangling costs microseconds and a kernel name repeats for every launch.
  std::unordered_map<std::string, KernelName, TransparentHash, std::equal_to<>> kernel_names;
  std::uint64_t rows = 0;
  bool finished = false;

  Impl(WriterOptions writer_options, std::string path)
      : options(std::move(writer_options)),
        working_path(std::move(path)),
        registration(working_path != options.path ? working_path : std::string()),
        store(working_path, options) {
    if (options.background_writes) {
      background = std::make_unique<BackgroundWrites>([this](const WriteOp& op) { store.apply(op); });
    }
  }

  template <typename Op>
  void write(Op&& op) {
    if (background) {
      background->add(WriteOp(std::forward<Op>(op)));
    } else {
      store.apply(op);
    }
  }

  template <typename Row>
  void add_row(const Row& row) {
    write(row);
    ++rows;
  }

  // Every write so far applied (and, after a CommitPoint, committed).
  void wait_applied() {
    if (background) background->wait_applied();
  }

  void write_identity() {
    set_meta("format", kFormatName);
    set_meta("schema_version", std::to_string(kSchemaMajor) + "." + std::to_string(kSchemaMinor));
    if (!options.tool_version.empty()) set_meta("tool_version", options.tool_version);
    set_meta("created_utc", utc_now_iso8601());
  }

  void set_meta(std::string_view key, std::string_view value) {
    write(MetaEntry{std::string(key), std::string(value)});
  }

  StringId intern(std::string_view text) {
    if (auto found = strings.find(text); found != strings.end()) return found->second;
    const auto id = static_cast<StringId>(strings.size());
    write(InternedString{id, std::string(text)});
    strings.emplace(std::string(text), id);
    return id;
  }

  KernelName intern_kernel_name(std::string_view reported, std::string_view demangled) {
    const bool cacheable = demangled.empty();
    if (cacheable) {
      if (auto found = kernel_names.find(reported); found != kernel_names.end()) return found->second;
    }
    const bool source_demangled = !demangled.empty() && !is_mangled_symbol(demangled);
    const std::string readable = source_demangled ? std::string(demangled) : demangle_symbol(reported);
    KernelName result{intern(readable), std::nullopt};
    if (is_mangled_symbol(reported) && readable != reported) result.mangled = intern(reported);
    if (cacheable) kernel_names.emplace(std::string(reported), result);
    return result;
  }

  void publish() {
    if (working_path != options.path) publish_file(working_path, options.path, options.overwrite);
  }

  void abandon() noexcept {
    if (background && options.durability == Durability::crash_safe) {
      try {
        background->wait_applied();  // what was added before the end is kept
      } catch (...) {
        // The failed write was reported to nobody; the file holds what was committed before it.
      }
    }
    background.reset();
    store.abandon(options.durability);
    if (options.durability == Durability::atomic) {
      std::error_code ignored;
      fs::remove(working_path, ignored);
    }
  }
};

TraceWriter::TraceWriter(WriterOptions options) {
  check_output_path(options.path, options.overwrite);
  const std::string final_path = options.path;
  const std::string working = options.durability == Durability::atomic
                                  ? temporary_path_beside(final_path)
                                  : final_path;
  try {
    impl_ = std::make_unique<Impl>(std::move(options), working);
  } catch (const TraceError& error) {
    std::error_code ignored;
    if (working != final_path) fs::remove(working, ignored);
    // An output that cannot be created is an unusable path (exit 2), as in every command.
    throw TraceError::bad_input(final_path, "cannot create trace file: " + error.problem());
  }
  impl_->write_identity();
}

TraceWriter::~TraceWriter() {
  if (impl_ && !impl_->finished) impl_->abandon();
}

void TraceWriter::set_meta(std::string_view key, std::string_view value) { impl_->set_meta(key, value); }
StringId TraceWriter::intern(std::string_view text) { return impl_->intern(text); }
KernelName TraceWriter::intern_kernel_name(std::string_view reported, std::string_view demangled) {
  return impl_->intern_kernel_name(reported, demangled);
}

template <WrittenRow Row>
void TraceWriter::add(const Row& row) {
  impl_->add_row(row);
}

// Compiles add() here for every written table, where Impl is known.
template <typename List>
struct RowAdds;
template <typename... Rows>
struct RowAdds<RowTypes<Rows...>> {
  static auto functions() { return std::tuple{static_cast<void (TraceWriter::*)(const Rows&)>(&TraceWriter::add<Rows>)...}; }
};
template struct RowAdds<WrittenRows>;

void TraceWriter::set_stat(const StatRow& row) { impl_->write(row); }

void TraceWriter::flush() {
  impl_->write(CommitPoint{});
  impl_->wait_applied();
}

void TraceWriter::finish() {
  impl_->set_meta("finished_utc", utc_now_iso8601());
  impl_->wait_applied();
  impl_->background.reset();
  impl_->store.finish();
  impl_->finished = true;
  try {
    impl_->publish();
  } catch (...) {
    std::error_code ignored;
    if (impl_->working_path != impl_->options.path) fs::remove(impl_->working_path, ignored);
    throw;
  }
}

std::uint64_t TraceWriter::rows_written() const { return impl_->rows; }
const std::string& TraceWriter::path() const { return impl_->options.path; }

}  // namespace gpuprof::trace
