#pragma once

// Opens traces on worker threads so the window stays responsive: first what the
// timeline draws (load_session_timeline, then `timeline_ready`), then the
// analyses (analyse_session, applied to the same session, then `loaded`);
// progress, results and errors come back as signals on the GUI thread.

#include <QObject>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>

#include "gpuprof/gui/session.hpp"

class QThread;

namespace gpuprof::gui {

class TraceLoader : public QObject {
  Q_OBJECT

 public:
  explicit TraceLoader(QObject* parent = nullptr);
  ~TraceLoader() override;

  // Starts loading `paths` as one job (one file per rank); a job still running is cancelled.
  void start(const QStringList& paths, const analysis::AnalysisOptions& options = {});
  void cancel();
  // Until `loaded`, `failed` or `cancelled`: the analyses still run after `timeline_ready`.
  bool busy() const { return job_ != nullptr; }

 signals:
  void progress(int done, int total, const QString& stage);
  // Loaded and laid out, not analysed yet (Session::analysed false): the timeline can be drawn. The session is
  // the one `loaded` gives later, with its analyses stored in it on the GUI thread.
  void timeline_ready(std::shared_ptr<const gpuprof::gui::Session> session);
  void loaded(std::shared_ptr<const gpuprof::gui::Session> session);
  // One line: the file and its problem.
  void failed(const QString& message);
  void cancelled();

 private:
  struct Job;
  // Runs `work` on a worker thread for `job`, then `done` on the GUI thread unless a newer job replaced it.
  void run(const std::shared_ptr<Job>& job, std::function<void()> work, std::function<void()> done);
  void finish_timeline(const std::shared_ptr<Job>& job);
  void finish(const std::shared_ptr<Job>& job);
  // Reports the job's error or cancellation, if any, and ends it; false when it went well.
  bool ended_badly(const std::shared_ptr<Job>& job);
  // Progress reports of a worker, queued to the GUI thread.
  std::function<void(const LoadProgress&)> reporter();

  std::shared_ptr<Job> job_;
  QThread* thread_ = nullptr;
};

}  // namespace gpuprof::gui
