#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <new>
#include <string_view>

#include "cli_reference.hpp"
#include "command.hpp"
#include "help_formatter.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/stage_timings.hpp"
#include "gpuprof/trace/temporary_files.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/utf8_text.hpp"
#include "typed_values.hpp"

namespace gpuprof::cli {
namespace {

int write_cli_reference(const CLI::App& app, const std::string& kind, const std::string& path) {
  const auto text = cli_reference(app, kind, std::string("gpuprof ") + GPUPROF_VERSION);
  if (!text) {
    fmt::print(stderr, "gpuprof: --cli-reference takes bash, zsh or man\n");
    return kExitBadInput;
  }
  try {
    // Like every output: a temporary renamed into place, never through a link or into a FIFO.
    report::write_files({{path, *text}}, {.overwrite = true});
  } catch (const TraceError& error) {
    fmt::print(stderr, "gpuprof: {}\n", printable(error.what()));
    return error.kind() == TraceError::Kind::bad_input ? kExitBadInput : kExitFailure;
  }
  return kExitOk;
}

// Every command takes -q/--quiet; added here so that none can miss it, and
// before parsing so that help, the man page and completion list it.
void add_quiet_flag(CLI::App& app, bool& quiet) {
  for (auto* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    command->add_flag("-q,--quiet", quiet, "No progress line and no notes on stderr (errors and warnings still print)");
  }
}

// --timings or GPUPROF_TIMINGS: where the time went, after everything else the command printed.
void print_stage_timings() {
  if (!trace::stage_timings_enabled()) return;
  const auto text = trace::format_stage_timings(trace::recorded_stage_timings(), trace::process_usage());
  std::fwrite(text.data(), 1, text.size(), stderr);
}

}  // namespace

void notice(const Invocation& invocation, std::string_view line) {
  // Notes quote paths and names from files: one clean line whatever they hold.
  if (!invocation.quiet) fmt::print(stderr, "{}\n", printable(line));
}

int run_gpuprof(int argc, char** argv) {
  sqlite::configure_for_untrusted_files();
  // Ctrl-C or kill during an import, export or report leaves no temporary behind.
  remove_temporaries_on_signal();
  CLI::App app{"gpuprof: where does the time of a training step go, and why is the multi-GPU run not faster?",
               "gpuprof"};
  app.formatter(wrapping_help_formatter());  // before the commands: each takes its parent's formatter
  app.set_version_flag("--version", std::string("gpuprof ") + GPUPROF_VERSION);
  app.require_subcommand(1);
  Action action;
  add_info_command(app, action);
  add_synth_command(app, action);
  add_record_command(app, action);
  add_report_command(app, action);
  add_import_command(app, action);
  add_export_command(app, action);
  add_compare_command(app, action);
  add_sweep_command(app, action);
  add_study_command(app, action);
  add_gui_command(app, action);
  add_predict_command(app, action);
  Invocation invocation;
  add_quiet_flag(app, invocation.quiet);
  keep_values_as_typed(app);
  // Generated at build time from the definitions above (completion, man page); not a user's command.
  if (argc == 4 && std::string_view(argv[1]) == "--cli-reference") {
    return write_cli_reference(app, argv[2], argv[3]);
  }
  if (argc >= 2) {
    if (const auto problem = unknown_command(app, argv[1])) {
      fmt::print(stderr, "gpuprof: {}\nRun 'gpuprof --help' for the commands.\n", printable(*problem));
      return kExitBadInput;
    }
  }
  const auto marked = mark_bracketed_arguments(argc, argv);
  std::vector<const char*> marked_argv;
  for (const auto& argument : marked) marked_argv.push_back(argument.c_str());
  try {
    app.parse(argc, marked_argv.data());
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForAllHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForVersion& version) {
    return app.exit(version);
  } catch (const CLI::ParseError& error) {
    fmt::print(stderr, "gpuprof: {}\nRun 'gpuprof --help' for usage.\n", printable(without_marks(error.what())));
    return kExitBadInput;
  }
  for (int i = 0; i < argc; ++i) invocation.command_line += (i ? " " : "") + std::string(argv[i]);
  try {
    const int status = action ? action(invocation) : kExitOk;
    print_stage_timings();
    return status;
  } catch (const TraceError& error) {
    // The message may quote the file (SQLite's schema errors do): one clean line whatever it holds.
    fmt::print(stderr, "gpuprof: {}\n", printable(error.what()));
    return error.kind() == TraceError::Kind::bad_input ? kExitBadInput : kExitFailure;
  } catch (const std::bad_alloc&) {
    // The input asked for more than this machine has (a huge or hostile file, an option too large).
    fmt::print(stderr, "gpuprof: out of memory: the inputs or options need more memory than is available\n");
    return kExitBadInput;
  } catch (const std::exception& error) {
    fmt::print(stderr, "gpuprof: internal error: {}\n", printable(error.what()));
    return kExitFailure;
  }
}

}  // namespace gpuprof::cli
