#pragma once

// The analysis commands hold a trace as a few GB of column vectors. glibc's
// malloc maps them in 4 KiB pages unless GLIBC_TUNABLES asks it for
// transparent huge pages (glibc.malloc.hugetlb=1), a setting it reads only when
// a program starts. On the development VM a 10 M-event report took 412 k page
// faults and 6.6 s, and 44 k faults and 3.7 s with the setting, so those
// commands start themselves once more with it set (docs/performance.md).

#include <string_view>

namespace gpuprof::cli {

// Whether `command` (argv[1]) should start again with the huge-page heap:
// only commands that read traces and start no other program (whose children
// would inherit the setting), only when the user set no GLIBC_TUNABLES of
// their own, this is not already the restarted process, and the kernel's
// transparent huge pages are not "never" (`thp_setting`, as in
// /sys/kernel/mm/transparent_hugepage/enabled).
bool wants_huge_page_heap(std::string_view command, const char* user_tunables, const char* restarted_marker,
                          std::string_view thp_setting);

// Restarts this program through /proc/self/exe with the setting when
// wants_huge_page_heap says so; returns when it does not, or when the restart
// fails (the program then runs as it is). In the restarted program it removes
// the setting from the environment, so that nothing it starts inherits it.
void restart_with_huge_page_heap(int argc, char** argv);

}  // namespace gpuprof::cli
