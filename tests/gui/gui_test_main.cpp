// GUI tests need one QApplication for the whole process, created before any test.
#include <gtest/gtest.h>

#include <QApplication>
#include <QSettings>

int main(int argc, char** argv) {
  // ctest sets this too; a developer running the binary by hand needs no display either.
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("gpuprof-tests"));
  QApplication::setApplicationName(QStringLiteral("gpuprof-gui-tests"));
  // Recent files must not touch the developer's own settings.
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, QStringLiteral(GPUPROF_GUI_TEST_SETTINGS_DIR));
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
