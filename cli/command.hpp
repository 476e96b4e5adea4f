#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <string_view>

namespace gpuprof::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitBadInput = 2;

// For every path option: `-o ""` names no file (exit 2), where an absent -o means standard output.
inline const CLI::Validator kNonEmptyPath(
    [](std::string& value) { return value.empty() ? std::string("must not be empty") : std::string(); }, "PATH");

// What every subcommand may want to know about how gpuprof was started.
struct Invocation {
  std::string command_line;
  // -q/--quiet: no progress line and no notes (what was written, how ranks were
  // assigned); warnings about lost data and errors still print.
  bool quiet = false;
};

// A line on stderr that is neither an error nor a warning: dropped with --quiet.
void notice(const Invocation& invocation, std::string_view line);

// A parsed subcommand, ready to run; returns the process exit code.
using Action = std::function<int(const Invocation&)>;

// Each add_*_command registers a subcommand; when CLI11 parses it, the
// subcommand stores its action in `action`.
void add_info_command(CLI::App& app, Action& action);
void add_synth_command(CLI::App& app, Action& action);
void add_record_command(CLI::App& app, Action& action);
void add_report_command(CLI::App& app, Action& action);
void add_import_command(CLI::App& app, Action& action);
void add_export_command(CLI::App& app, Action& action);
void add_compare_command(CLI::App& app, Action& action);
void add_sweep_command(CLI::App& app, Action& action);
void add_study_command(CLI::App& app, Action& action);
void add_gui_command(CLI::App& app, Action& action);
void add_predict_command(CLI::App& app, Action& action);

// Parses argv and runs the chosen subcommand, turning every error into one
// line on stderr and an exit code (2 for bad input or usage).
int run_gpuprof(int argc, char** argv);

}  // namespace gpuprof::cli
