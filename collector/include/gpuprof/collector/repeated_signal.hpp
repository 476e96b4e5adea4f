#pragma once

// Whether a termination signal that arrives while the trace is being finished is
// the first request again or a new one meaning "stop now". Called from a signal
// handler: pure arithmetic, async-signal-safe.

#include <cstdint>

namespace gpuprof::collector {

struct SignalOrigin {
  bool sent_by_a_process = false;  // kill() or sigqueue(), not the terminal or the kernel
  bool from_parent_or_own_group = false;
};

// `timeout` signals its child and then the child's process group, and `gpuprof
// record` hands the signal on too: the same request arrives two or three times
// within moments. `first_ns` is when the first signal was taken (CLOCK_MONOTONIC).
bool is_the_same_request(std::int64_t now_ns, std::int64_t first_ns, SignalOrigin origin);

}  // namespace gpuprof::collector
