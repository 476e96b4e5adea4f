#include "gpuprof/gui/trace_loader.hpp"

#include <QPointer>
#include <QThread>

#include <exception>

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::gui {

struct TraceLoader::Job {
  std::atomic<bool> cancel{false};
  std::shared_ptr<Session> session;
  QString error;
  bool cancelled = false;
};

namespace {

std::vector<std::string> to_paths(const QStringList& list) {
  std::vector<std::string> paths;
  for (const auto& path : list) paths.push_back(path.toStdString());
  return paths;
}

QString describe(const TraceError& error) {
  if (error.path().empty()) return QString::fromStdString(error.problem());
  return QStringLiteral("%1: %2").arg(QString::fromStdString(error.path()), QString::fromStdString(error.problem()));
}

}  // namespace

TraceLoader::TraceLoader(QObject* parent) : QObject(parent) {
  qRegisterMetaType<std::shared_ptr<const Session>>("std::shared_ptr<const gpuprof::gui::Session>");
}

TraceLoader::~TraceLoader() {
  // The worker reports to this object: it must be gone before this object is.
  if (job_) job_->cancel = true;
  if (thread_) thread_->wait();
}

void TraceLoader::start(const QStringList& paths, const analysis::AnalysisOptions& options) {
  if (job_) {
    job_->cancel = true;
    thread_->wait();
  }
  auto job = std::make_shared<Job>();
  job_ = job;
  QPointer<TraceLoader> self(this);
  thread_ = QThread::create([job, self, paths = to_paths(paths), options] {
    const auto report = [&](const LoadProgress& step) {
      QMetaObject::invokeMethod(
          self, [self, step] {
            if (self) emit self->progress(step.done, step.total, QString::fromStdString(step.stage));
          },
          Qt::QueuedConnection);
    };
    try {
      job->session = load_session(paths, options, job->cancel, report);
    } catch (const LoadCancelled&) {
      job->cancelled = true;
    } catch (const TraceError& error) {
      job->error = describe(error);
    } catch (const std::exception& error) {
      job->error = QStringLiteral("internal error: %1").arg(QString::fromUtf8(error.what()));
    }
  });
  connect(thread_, &QThread::finished, this, [this, job, thread = thread_] {
    thread->deleteLater();
    if (thread_ == thread) thread_ = nullptr;
    finish(job);
  });
  thread_->start();
}

void TraceLoader::cancel() {
  if (job_) job_->cancel = true;
}

void TraceLoader::finish(const std::shared_ptr<Job>& job) {
  if (job != job_) return;  // a job replaced by a newer one reports nothing
  job_.reset();
  if (job->cancelled) emit cancelled();
  else if (!job->error.isEmpty()) emit failed(job->error);
  else emit loaded(std::move(job->session));
}

}  // namespace gpuprof::gui
