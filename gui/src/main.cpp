// gpuprof-gui [TRACE...]: opens the given traces (one file per rank) as one job.
#include <QApplication>
#include <QCommandLineParser>

#include "gpuprof/gui/main_window.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/temporary_files.hpp"

int main(int argc, char** argv) {
  gpuprof::sqlite::configure_for_untrusted_files();
  QApplication app(argc, argv);
  // Traces imported on the fly live in $TMPDIR until the app closes; a kill must not leave them there.
  gpuprof::remove_temporaries_on_signal();
  QApplication::setOrganizationName(QStringLiteral("gpuprof"));
  QApplication::setApplicationName(QStringLiteral("gpuprof-gui"));
  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("gpuprof desktop app: timeline, gaps, transfers, kernels"));
  parser.addHelpOption();
  parser.addPositionalArgument(
      QStringLiteral("traces"),
      QStringLiteral("Trace files, one per rank (gpuprof, Kineto JSON, Nsight or nvprof files), or a job folder"),
      QStringLiteral("[TRACE...|FOLDER]"));
  parser.process(app);
  gpuprof::gui::MainWindow window;
  window.show();
  window.open_files(parser.positionalArguments());
  return QApplication::exec();
}
