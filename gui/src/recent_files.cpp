#include "gpuprof/gui/recent_files.hpp"

#include <QSettings>

namespace gpuprof::gui {
namespace {
const char* const kKey = "recent/jobs";
}

QList<QStringList> RecentFiles::jobs() const {
  QList<QStringList> result;
  const QVariantList stored = QSettings().value(kKey).toList();
  for (const auto& entry : stored) {
    const QStringList job = entry.toStringList();
    if (!job.isEmpty()) result.push_back(job);
  }
  return result;
}

void RecentFiles::add(const QStringList& job) {
  QList<QStringList> list = jobs();
  list.removeAll(job);
  list.prepend(job);
  while (list.size() > kMaxEntries) list.removeLast();
  QVariantList stored;
  for (const auto& entry : list) stored.push_back(entry);
  QSettings().setValue(kKey, stored);
}

void RecentFiles::clear() { QSettings().remove(kKey); }

}  // namespace gpuprof::gui
