// The signal side of temporary_files.hpp: a fixed table of names that a
// SIGINT/SIGTERM handler can walk using only async-signal-safe calls.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "gpuprof/trace/temporary_files.hpp"

namespace gpuprof {
namespace {

constexpr int kSlots = 64;
constexpr std::size_t kPathBytes = 4096;
constexpr char kJournal[] = "-journal";

enum SlotState : int { kFree = 0, kFilling = 1, kReady = 2 };

// Static storage: the handler never allocates, and the table outlives every user.
struct Slot {
  std::atomic<int> state{kFree};
  bool folder = false;
  char path[kPathBytes] = {};
};
Slot slots[kSlots];

// unlink() of the name and of SQLite's journal beside it.
void unlink_with_journal(const char* path) {
  ::unlink(path);
  char journal[kPathBytes + sizeof kJournal];
  const std::size_t length = std::strlen(path);
  std::memcpy(journal, path, length);
  std::memcpy(journal + length, kJournal, sizeof kJournal);
  ::unlink(journal);
}

void remove_registered(int signal_number) {
  for (auto& slot : slots) {
    if (slot.state.load() == kReady && !slot.folder) unlink_with_journal(slot.path);
  }
  for (auto& slot : slots) {
    if (slot.state.load() == kReady && slot.folder) ::rmdir(slot.path);
  }
  // Default action again, so the process ends as the sender meant (exit status, core).
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free slots");

}  // namespace

void remove_temporaries_on_signal() {
  struct sigaction action {};
  action.sa_handler = remove_registered;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
  // Past `ulimit -f` a write then fails with EFBIG, and the writer removes its
  // temporary and says so in one line, where SIGXFSZ's default would kill the
  // process with the temporary left behind.
  ::signal(SIGXFSZ, SIG_IGN);
}

TemporaryName::TemporaryName(const std::string& path, bool folder) {
  if (path.empty() || path.size() >= kPathBytes) return;
  for (int index = 0; index < kSlots; ++index) {
    int expected = kFree;
    if (!slots[index].state.compare_exchange_strong(expected, kFilling)) continue;
    slots[index].folder = folder;
    std::memcpy(slots[index].path, path.c_str(), path.size() + 1);
    slots[index].state.store(kReady);
    slot_ = index;
    return;
  }
}

TemporaryName::~TemporaryName() {
  if (slot_ >= 0) slots[slot_].state.store(kFree);
}

}  // namespace gpuprof
