#include "report_first_screen.hpp"

#include <gtest/gtest.h>

#include "report_width.hpp"

namespace gpuprof::testing {
namespace {

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

}  // namespace

void expect_first_screen_answers(const std::string& text, const std::string& what) {
  EXPECT_LE(lines_through_answer(text), 40u) << what << ":\n" << text.substr(0, 6000);
  const auto begin = text.find("  Answer: ");
  ASSERT_NE(begin, std::string::npos) << what;
  const auto flat = [&] {
    std::string joined;
    for (std::size_t i = begin; i < text.size(); ++i) {
      if (text.compare(i, 3, "\n  ") == 0 && text.compare(i, 5, "\n    ") != 0) break;
      joined += text[i];
    }
    return joined;
  }();
  EXPECT_NE(flat.find("a step takes"), std::string::npos) << what << ": " << flat;
  EXPECT_NE(flat.find("the GPUs idle"), std::string::npos) << what << ": " << flat;
  EXPECT_TRUE(flat.find("holds the others back") != std::string::npos || flat.find("no rank") != std::string::npos)
      << what << ": " << flat;
  EXPECT_LE(count_of(text, "is a warm-up step"), 1u) << what;
  const auto files = text.find("\nRank files\n");
  ASSERT_NE(files, std::string::npos) << what;
  EXPECT_GT(files, text.find("Kernel summary")) << what;
  // A rank file's line starts at the margin; "rank 7: " also opens a straggler's part of a summary line.
  EXPECT_EQ(text.find("\n  rank 7: "), text.find("\n  rank 7: ", files)) << what << ": rank files before the tables";
}

void expect_html_leads_with_the_job(const std::string& html, const std::string& what) {
  EXPECT_LE(count_of(html, "is a warm-up step"), 1u) << what;
  const auto folded = html.find("<details><summary>Charts per rank");
  ASSERT_NE(folded, std::string::npos) << what;
  const auto job_table = html.find("<h3>Job summary");
  EXPECT_LT(job_table, folded) << what;
  EXPECT_GT(html.find("<h2>Steps and batch gaps (rank"), folded) << what;
  EXPECT_NE(html.find("<b>Answer:</b>"), std::string::npos) << what;
}

}  // namespace gpuprof::testing
