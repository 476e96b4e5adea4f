#pragma once

// One worker thread at a time for a panel's slow work (the host summaries, a prediction): start() runs `work`
// off the GUI thread; what it returns runs on the GUI thread once it ends, unless start() or drop() was called
// meanwhile. A start() while a worker runs waits for it, and only the newest waiting request runs: the panels
// share this one staleness rule (the newest request wins) instead of each keeping its own.

#include <QObject>

#include <cstdint>
#include <functional>

class QThread;

namespace gpuprof::gui {

class BackgroundJob : public QObject {
  Q_OBJECT

 public:
  // Runs on the worker; returns what to do with its result on the GUI thread.
  using Work = std::function<std::function<void()>()>;

  explicit BackgroundJob(QObject* parent = nullptr);
  // Waits for a running worker: it may read what the job's owner holds.
  ~BackgroundJob() override;

  void start(Work work);
  // The running work's result, and a waiting request, are dropped (another trace was opened).
  void drop();
  bool busy() const { return worker_ != nullptr; }

 signals:
  // A worker ended and none waits.
  void idle();

 private:
  void launch();

  QThread* worker_ = nullptr;
  Work waiting_;
  std::uint64_t generation_ = 0;  // of the newest request or drop
};

}  // namespace gpuprof::gui
