#include "gpuprof/gui/background_job.hpp"

#include <QThread>

#include <memory>

namespace gpuprof::gui {

BackgroundJob::BackgroundJob(QObject* parent) : QObject(parent) {}

BackgroundJob::~BackgroundJob() {
  if (!worker_) return;
  worker_->wait();
  delete worker_;  // its `finished` reaches no one now
}

void BackgroundJob::start(Work work) {
  ++generation_;
  waiting_ = std::move(work);
  if (!worker_) launch();
}

void BackgroundJob::drop() {
  ++generation_;
  waiting_ = nullptr;
}

void BackgroundJob::launch() {
  const auto generation = generation_;
  auto result = std::make_shared<std::function<void()>>();
  worker_ = QThread::create([work = std::move(waiting_), result] { *result = work(); });
  waiting_ = nullptr;
  connect(worker_, &QThread::finished, this, [this, generation, result] {
    worker_->deleteLater();
    worker_ = nullptr;
    // Delivered on `finished`, so a result and the next request's start never cross.
    if (generation == generation_ && *result) (*result)();
    if (worker_) return;  // the result's own code asked for more
    if (waiting_) launch();
    else emit idle();
  });
  worker_->start();
}

}  // namespace gpuprof::gui
