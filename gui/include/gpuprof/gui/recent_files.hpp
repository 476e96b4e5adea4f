#pragma once

// Recently opened jobs (each one or more files, one per rank), kept in QSettings.

#include <QList>
#include <QStringList>

namespace gpuprof::gui {

class RecentFiles {
 public:
  static constexpr int kMaxEntries = 10;

  QList<QStringList> jobs() const;
  // Moves the job to the front (adding it if new) and drops the oldest beyond kMaxEntries.
  void add(const QStringList& job);
  void clear();
};

}  // namespace gpuprof::gui
