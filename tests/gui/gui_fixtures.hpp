#pragma once

// Synthetic traces and image checks shared by the GUI tests.

#include <QAbstractButton>
#include <QFontMetrics>
#include <QImage>
#include <QRect>
#include <QString>

#include <memory>
#include <string>
#include <vector>

#include "gpuprof/gui/prediction_panel.hpp"
#include "gpuprof/gui/session.hpp"
#include "gpuprof/gui/timeline_view.hpp"
#include "gpuprof/gui/waterfall_layout.hpp"

namespace gpuprof::gui::testing {

// Writes a synthetic data-parallel trace (devices, steps) to `path`.
void write_trace(const std::string& path, std::int32_t devices, std::int64_t steps);
// Loads on the calling thread (the worker-thread path is tested through MainWindow).
std::shared_ptr<const Session> load(const std::string& path);

struct ImageStats {
  int distinct_colors = 0;
  double non_background_share = 0;  // pixels that differ from the most common colour
};
ImageStats image_stats(const QImage& image);

// Saves under the build folder's gui-screenshots, for a person to look at.
void save_screenshot(const QImage& image, const QString& name);
// Saves it and checks the image is not blank.
void save_and_check(const QImage& image, const QString& name);

// Every way a chart's texts can be illegible, one line each: a text whose ink its rectangle clips, ink outside
// the widget, ink over another text's or over one of `shapes` (bars, lanes). Empty when the texts are legible.
std::vector<std::string> text_legibility_problems(const std::vector<ChartText>& texts, const std::vector<QRect>& shapes,
                                                  QRect widget, const QFontMetrics& metrics);
std::string joined(const std::vector<std::string>& lines);

// Every way the form controls under `root` are cut or overlap, one line each: a placeholder, choice, button
// or one-line label narrower than its text, two controls over each other. Tables and charts are checked by
// their own tests.
std::vector<std::string> control_problems(const QWidget& root);

// Presses `button` as a user does: the mouse at its centre in its window, the press going to whatever widget is
// there. A fatal failure, naming that widget, when it is not the button (covered, cut off by a scroll area,
// scrolled out of view).
void click_as_user(QAbstractButton& button);
// Presses the panel's Predict as a user does and waits for what that press started to show a prediction or an
// error; fails when the press started nothing (a stale prediction is never taken for the new one).
void press_predict(PredictionPanel& panel);

// The three screen sizes every layout test checks (issue 39).
inline const QSize kScreens[] = {{1280, 800}, {1600, 1000}, {1920, 1080}};
// A timeline of `session` at `size`, shown (its axis as wide as the view), compact or not.
std::unique_ptr<TimelineView> shown_timeline(std::shared_ptr<const Session> session, QSize size, bool compact = false);
// The step and gap labels `view` draws at its size (both areas), as its painter places them.
std::vector<ChartText> timeline_labels(const TimelineView& view);
// Problems of those labels (text_legibility_problems inside the view), empty when legible.
std::string timeline_label_problems(const TimelineView& view);
// Labels not inside the row they are over, one line each (empty when each is inside its row).
std::string labels_outside_their_rows(const TimelineView& view);
// The label column's texts `view` draws (both areas) that are wider than their place there, so the painter
// elides them (a rank's mark cut to "Rank 7 · strag…"), one line each; empty when every label is whole.
std::string elided_row_labels(const TimelineView& view);

}  // namespace gpuprof::gui::testing
