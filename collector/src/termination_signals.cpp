#include "termination_signals.hpp"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

#include "gpuprof/collector/repeated_signal.hpp"

namespace gpuprof::collector {
namespace {

struct sigaction previous_interrupt {};
struct sigaction previous_terminate {};
std::atomic<int> wake_target{-1};
std::atomic<bool> termination_started{false};
std::atomic<std::int64_t> first_signal_ns{0};
std::atomic<int> accepted_signal{0};
pid_t owner = 0;
bool installed = false;

std::int64_t monotonic_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe
  return std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

// Only a repeat from elsewhere, or a later one, means "stop now".
bool same_request_again(const siginfo_t* info) {
  SignalOrigin origin;
  origin.sent_by_a_process = info != nullptr && (info->si_code == SI_USER || info->si_code == SI_QUEUE);
  origin.from_parent_or_own_group =
      origin.sent_by_a_process && (info->si_pid == ::getppid() || ::getpgid(info->si_pid) == ::getpgrp());
  return is_the_same_request(monotonic_ns(), first_signal_ns.load(), origin);
}

void raise_with_previous(int signal_number, const struct sigaction& previous) {
  ::sigaction(signal_number, &previous, nullptr);
  ::raise(signal_number);
}

struct sigaction& previous_for(int signal_number) {
  return signal_number == SIGINT ? previous_interrupt : previous_terminate;
}

// Async-signal-safe: only sigaction, write, raise and the chained handler.
void on_termination(int signal_number, siginfo_t* info, void* context) {
  const struct sigaction& previous = previous_for(signal_number);
  if (previous.sa_flags & SA_SIGINFO) {
    if (previous.sa_sigaction != nullptr) previous.sa_sigaction(signal_number, info, context);
    return;
  }
  if (previous.sa_handler == SIG_IGN) return;
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != nullptr) {
    previous.sa_handler(signal_number);
    return;
  }
  const int target = wake_target.load();
  // A child of fork shares our wake-up pipe: its signal must not end the parent's recording.
  if (target < 0 || ::getpid() != owner) {
    raise_with_previous(signal_number, previous);
    return;
  }
  if (termination_started.exchange(true)) {
    // A second signal while the trace is being finished means "stop now", unless it is the same request again.
    if (!same_request_again(info)) raise_with_previous(signal_number, previous);
    return;
  }
  first_signal_ns = monotonic_ns();
  accepted_signal = signal_number;
  const unsigned char byte = static_cast<unsigned char>(signal_number);
  if (::write(target, &byte, 1) != 1) raise_with_previous(signal_number, previous);
}

}  // namespace

void install_termination_handlers(int wake_descriptor) {
  owner = ::getpid();
  wake_target = wake_descriptor;
  struct sigaction action {};
  action.sa_sigaction = on_termination;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, &previous_interrupt);
  ::sigaction(SIGTERM, &action, &previous_terminate);
  installed = true;
}

void remove_termination_handlers() {
  wake_target = -1;
  if (!installed) return;
  // Only put the old action back if ours is still in place: the program may have replaced it.
  for (int signal_number : {SIGINT, SIGTERM}) {
    struct sigaction current {};
    ::sigaction(signal_number, nullptr, &current);
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_termination) {
      ::sigaction(signal_number, &previous_for(signal_number), nullptr);
    }
  }
  installed = false;
}

int termination_signal_accepted() { return accepted_signal.load(); }

void reraise_with_previous_action(int signal_number) {
  ::sigaction(signal_number, &previous_for(signal_number), nullptr);
  ::raise(signal_number);
}

}  // namespace gpuprof::collector
