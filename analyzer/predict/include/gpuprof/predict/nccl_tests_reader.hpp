#pragma once

// Reads all-reduce measurements: nccl-tests' all_reduce_perf output, in the
// older layout (`size count type redop time algbw busbw error …`) and the newer
// one (with `root` and `#wrong` columns), with or without MPI's
// `[1,0]<stdout>:` prefixes; and all-reduce look-up tables in vTrain's CSV form
// (`size(B),count,type,time(ns),busbw(GB/s),time(ns),busbw(GB/s)`, GPU count in
// the file name `AR_GPU<n>_…`).

#include <string>
#include <string_view>

#include "gpuprof/predict/allreduce_curve.hpp"

namespace gpuprof::predict {

// `source` names the text in errors. The time of a size is the mean of the out-of-place and in-place times.
// Throws TraceError::bad_input (naming `source`) for text without a result table, a table that is not an
// all-reduce (busbw/algbw is not 2(N-1)/N), or fewer than 2 GPUs.
AllReduceTable parse_nccl_tests(std::string_view text, const std::string& source);

// `gpus` from the file name when the caller has it (vTrain names), else nullopt reads it from `source`.
// vTrain reads the last (time, busbw) pair of each row; so does this.
AllReduceTable parse_allreduce_lut(std::string_view text, const std::string& source);

// Either form, told apart by content. Reads the file; errors name `path`.
AllReduceTable read_allreduce_file(const std::string& path);

}  // namespace gpuprof::predict
