#include "gpuprof/study/logged_process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace gpuprof::study {

ProcessOutcome run_logged(const std::vector<std::string>& argv, const std::string& log_path) {
  ProcessOutcome outcome;
  const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log < 0) {
    return {127, false, log_path + ": " + std::strerror(errno)};
  }
  std::vector<char*> arguments;
  for (const auto& argument : argv) arguments.push_back(const_cast<char*>(argument.c_str()));
  arguments.push_back(nullptr);
  // A pipe closed on exec tells the parent whether exec itself failed.
  int status_pipe[2];
  if (::pipe2(status_pipe, O_CLOEXEC) != 0) {
    ::close(log);
    return {127, false, std::string("pipe: ") + std::strerror(errno)};
  }
  const pid_t child = ::fork();
  if (child == 0) {
    ::dup2(log, STDOUT_FILENO);
    ::dup2(log, STDERR_FILENO);
    ::execvp(arguments[0], arguments.data());
    const int error = errno;
    [[maybe_unused]] auto ignored = ::write(status_pipe[1], &error, sizeof error);
    ::_exit(127);
  }
  ::close(status_pipe[1]);
  ::close(log);
  if (child < 0) {
    ::close(status_pipe[0]);
    return {127, false, std::string("fork: ") + std::strerror(errno)};
  }
  int exec_error = 0;
  const auto got = ::read(status_pipe[0], &exec_error, sizeof exec_error);
  ::close(status_pipe[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (got == static_cast<ssize_t>(sizeof exec_error)) {
    return {127, false, argv[0] + ": " + std::strerror(exec_error)};
  }
  if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) outcome.exit_code = 128 + WTERMSIG(status);
  return outcome;
}

std::string failure_line(const std::string& log_path) {
  std::ifstream log(log_path);
  std::string last, last_own;
  for (std::string line; std::getline(log, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty()) continue;
    const bool own_note = line.rfind("gpuprof: wrote ", 0) == 0 || line.rfind("gpuprof: no trace written", 0) == 0;
    if (own_note) last_own = line; else last = line;
  }
  return last.empty() ? last_own : last;
}

}  // namespace gpuprof::study
