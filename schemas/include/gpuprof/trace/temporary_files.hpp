#pragma once

// Every temporary file or folder gpuprof creates carries one recognisable
// name, `.<target name>.gpuprof-tmp-<pid>-<random>` beside its target or
// `gpuprof-tmp-<pid>-<random>` in $TMPDIR, so that whatever a killed process
// left behind can be told from the user's files and removed by a later run
// once that pid no longer runs.

#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>

namespace gpuprof {

// The name a writer of `target` works under until it renames the file into
// place: in the target's folder, marked with this process's id. Removes stale
// temporaries of dead processes from that folder first (once per folder and process).
std::string temporary_path_beside(const std::string& target);

// The pid a file name of our pattern carries; nullopt for any other name.
std::optional<pid_t> temporary_owner(const std::string& file_name);

// Removes the temporaries of our pattern directly inside `folder` whose
// process is gone. Never touches other names or the temporaries of live
// processes; errors are ignored (another run may be removing the same file).
void remove_stale_temporaries(const std::string& folder);

// Installs SIGINT and SIGTERM handlers that unlink every registered temporary
// and then re-raise the signal with its default action, and ignores SIGXFSZ
// (a write past `ulimit -f` fails instead). For programs only (the CLI and the
// app), never for the collector inside a traced program.
void remove_temporaries_on_signal();

// Keeps a temporary's name where the signal handler finds it, for the lifetime
// of the object. `folder` names are removed with rmdir after every file.
class TemporaryName {
 public:
  explicit TemporaryName(const std::string& path, bool folder = false);
  ~TemporaryName();
  TemporaryName(const TemporaryName&) = delete;
  TemporaryName& operator=(const TemporaryName&) = delete;

 private:
  int slot_ = -1;  // -1: the registry was full; the name is then only cleaned by a later run
};

// A private folder in $TMPDIR, registered for removal on a signal before it is created.
struct PrivateFolder {
  std::string path;
  std::unique_ptr<TemporaryName> registration;
};

// Creates a private folder in $TMPDIR named after the same pattern (after
// removing stale ones there). Throws TraceError::failure when it cannot.
PrivateFolder make_temporary_folder();

}  // namespace gpuprof
