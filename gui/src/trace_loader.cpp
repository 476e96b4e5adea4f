#include "gpuprof/gui/trace_loader.hpp"

#include <QPointer>
#include <QThread>

#include <exception>

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::gui {

struct TraceLoader::Job {
  std::atomic<bool> cancel{false};
  std::vector<std::string> paths;
  analysis::AnalysisOptions options;
  std::shared_ptr<Session> session;  // written by the worker threads only while none of them runs
  SessionAnalyses analyses;
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
  job->paths = to_paths(paths);
  job->options = options;
  job_ = job;
  run(job, [job, report = reporter()] {
        job->session = load_session_timeline(job->paths, job->options, job->cancel, report);
      },
      [this, job] { finish_timeline(job); });
}

std::function<void(const LoadProgress&)> TraceLoader::reporter() {
  QPointer<TraceLoader> self(this);
  return [self](const LoadProgress& step) {
    QMetaObject::invokeMethod(
        self, [self, step] {
          if (self) emit self->progress(step.done, step.total, QString::fromStdString(step.stage));
        },
        Qt::QueuedConnection);
  };
}

void TraceLoader::run(const std::shared_ptr<Job>& job, std::function<void()> work, std::function<void()> done) {
  thread_ = QThread::create([job, work = std::move(work)] {
    try {
      work();
    } catch (const LoadCancelled&) {
      job->cancelled = true;
    } catch (const TraceError& error) {
      job->error = describe(error);
    } catch (const std::exception& error) {
      job->error = QStringLiteral("internal error: %1").arg(QString::fromUtf8(error.what()));
    }
  });
  connect(thread_, &QThread::finished, this, [this, job, thread = thread_, done = std::move(done)] {
    thread->deleteLater();
    if (thread_ == thread) thread_ = nullptr;
    if (job == job_) done();  // a job replaced by a newer one reports nothing
  });
  thread_->start();
}

void TraceLoader::cancel() {
  if (job_) job_->cancel = true;
}

bool TraceLoader::ended_badly(const std::shared_ptr<Job>& job) {
  if (!job->cancelled && job->error.isEmpty()) return false;
  job_.reset();
  if (job->cancelled) emit cancelled();
  else emit failed(job->error);
  return true;
}

void TraceLoader::finish_timeline(const std::shared_ptr<Job>& job) {
  if (ended_badly(job)) return;
  emit timeline_ready(job->session);
  if (job != job_) return;  // the window opened something else meanwhile
  // The analyses read only the models, which the GUI thread draws meanwhile without changing them.
  run(job, [job, report = reporter()] { job->analyses = analyse_session(*job->session, job->cancel, report); },
      [this, job] { finish(job); });
}

void TraceLoader::finish(const std::shared_ptr<Job>& job) {
  if (ended_badly(job)) return;
  job_.reset();
  apply_analyses(*job->session, std::move(job->analyses));
  emit loaded(std::move(job->session));
}

}  // namespace gpuprof::gui
