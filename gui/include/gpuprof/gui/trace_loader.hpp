#pragma once

// Runs load_session on a worker thread so the window stays responsive;
// progress, results and errors come back as signals on the GUI thread.

#include <QObject>
#include <QStringList>

#include <atomic>
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
  bool busy() const { return job_ != nullptr; }

 signals:
  void progress(int done, int total, const QString& stage);
  void loaded(std::shared_ptr<const gpuprof::gui::Session> session);
  // One line: the file and its problem.
  void failed(const QString& message);
  void cancelled();

 private:
  struct Job;
  void finish(const std::shared_ptr<Job>& job);

  std::shared_ptr<Job> job_;
  QThread* thread_ = nullptr;
};

}  // namespace gpuprof::gui
