#pragma once

#include <string>

namespace gpuprof {

// Moves a finished temporary file onto `target`, where readers see it whole.
// Without `overwrite` an existing target is never replaced: link() refuses an
// existing name atomically, where a check followed by rename would race with a
// file appearing meanwhile. On file systems without hard links it falls back to
// rename after checking the target is absent. Throws TraceError: bad_input
// when the target exists, failure when the move itself fails. On success the
// temporary name is gone.
void publish_file(const std::string& temporary, const std::string& target, bool overwrite);

}  // namespace gpuprof
