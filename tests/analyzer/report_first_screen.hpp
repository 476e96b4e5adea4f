#pragma once

// What the first screen of a job's report must hold, checked on the synthetic job and on the shared real ones.

#include <string>

namespace gpuprof::testing {

// The text report: the answer (step, parts, idle cause, the rank holding the others back) ends within 40 lines;
// no note is repeated per rank; the rank files come after the tables.
void expect_first_screen_answers(const std::string& text, const std::string& what);
// The HTML report: notes said once, the job's table of ranks before any per-rank chart, those folded away.
void expect_html_leads_with_the_job(const std::string& html, const std::string& what);

}  // namespace gpuprof::testing
