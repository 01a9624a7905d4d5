#pragma once
// What core/metrics offers: a machine's block-device settings, how its
// devices stack, its drift against a profile and the history's last figures
// as Prometheus metrics (text exposition format 0.0.4), for node_exporter's
// textfile collector or any scraper.
//
//     TuningSession session(root);
//     MetricsReport m = collectMetrics(session, *machine->profiles(), {});
//     writeTextfile(QStringLiteral("/var/lib/prometheus/node-exporter"), m.text);
//
// Every value is in base units (bytes, seconds); the `device` label is the
// kernel name, as node_exporter's own `device` label is. What could not be
// read is counted in blocktune_metrics_errors and said in `errors`; a
// series whose figure is unknown is left out, never guessed.

#include "common/result.h"
#include "readahead/readahead.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

namespace blocktune {

class TuningSession;
class ProfileLibrary;
class DeviceModel;

/// The name of the file writeTextfile() writes: node_exporter reads `*.prom`.
inline constexpr QLatin1StringView kTextfileName{"blocktune.prom"};
/// Debian's prometheus-node-exporter reads this folder (its
/// --collector.textfile.directory in /etc/default/prometheus-node-exporter).
inline constexpr QLatin1StringView kDebianTextfileDir{"/var/lib/prometheus/node-exporter"};

/// A label value as the exposition format writes it between quotes:
/// backslash, double quote and newline escaped (\\, \", \n).
QString escapeLabelValue(const QString &value);
/// A HELP text: backslash and newline escaped.
QString escapeHelp(const QString &text);
/// A sample value: integers exactly, others as the shortest round-trip
/// decimal; NaN and infinities as the format spells them.
QString formatSampleValue(double value);

/// Metric families in the exposition format: one HELP and one TYPE line
/// per family, then its samples, families in the order they were declared
/// (the format wants every sample of a family together).
class Exposition final
{
public:
    using Labels = QList<QPair<QString, QString>>;
    enum class Type { Gauge, Counter };

    /// Declares a family (again: no effect); samples may come before its turn.
    void family(const QString &name, const QString &help, Type type = Type::Gauge);
    void sample(const QString &name, const Labels &labels, double value);
    /// Families without a sample are left out.
    QByteArray text() const;

private:
    struct Family
    {
        QString name;
        QString help;
        Type type = Type::Gauge;
        QStringList lines;
    };
    QList<Family> m_families;
};

struct MetricsOptions
{
    /// Verify against this profile (name or file) instead of the applied one.
    QString profile;
    /// The history to read the last figures from; nullopt: none (a recorded
    /// tree is another machine, whose history is not this one's).
    std::optional<QString> historyPath;
};

struct MetricsReport
{
    QByteArray text;
    /// What could not be read, one sentence each (blocktune_metrics_errors).
    QStringList errors;
};

/// Everything the metrics say, from the session's one model (no second
/// scan), its applied state, its profiles (the drift's, loaded where they
/// are kept: this machine's folders or a host's agent) and the history.
MetricsReport collectMetrics(TuningSession &session, ProfileLibrary &profiles, const MetricsOptions &options);

/// Writes `text` as DIR/blocktune.prom atomically: DIR opened once without
/// following a link to it (safeopen::openFolder), a temporary file made in
/// it with O_EXCL|O_NOFOLLOW, every write and the fsync checked, renamed
/// over the old file only when whole, the folder fsynced; mode 0644 so
/// node_exporter's user may read it. A reader sees the old file or the new
/// one, whole. Refused, nothing written: DIR is not a folder, is a link,
/// is owned by someone other than root, this user or prometheus, or is
/// writable by group or others; DIR/blocktune.prom is a link. A failed
/// write (ENOSPC) says why and leaves the old file as it was.
Status writeTextfile(const QString &dir, const QByteArray &text);
/// The same for DIR/`fileName` (a `*.prom` name of its own, so two writers
/// never replace each other's file).
Status writeTextfile(const QString &dir, const QByteArray &text, QLatin1StringView fileName);
/// Removes DIR/`fileName` (a link there is removed, not followed); no file
/// is no error.
Status removeTextfile(const QString &dir, QLatin1StringView fileName);

// ---- Readahead on the live workload (core/readahead) ---------------------------------

/// The file `blocktune-cli readahead --collect` keeps in the textfile folder.
inline constexpr QLatin1StringView kReadaheadTextfileName{"blocktune-readahead.prom"};

/// The `device` label of each device number a readahead snapshot may hold:
/// the kernel name of every block device of `model` (a partition's own).
/// A number without one (a filesystem with no block device) is labelled
/// "MAJ:MIN" by readaheadMetricsText().
QHash<quint64, QString> readaheadDeviceLabels(const DeviceModel &model);

/// A readahead source's counters (cumulative since it started: a collector
/// that starts again starts them at 0, which rate() takes as a reset), every
/// device the snapshot holds, by label:
///   blocktune_readahead_windows_total{device,kind}        windows started (kind: sync, async, mmap, forced)
///   blocktune_readahead_windows_at_cap_total{device,kind} of them, sized at the device's read_ahead_kb
///   blocktune_readahead_sized_windows_total{device,kind}  windows whose size was seen
///   blocktune_readahead_window_bytes_total{device,kind}   their sizes added up (mean: the ratio of the rates)
///   blocktune_readahead_pages_total{device,outcome}       read_ahead; of them used, wasted (left the cache
///                                                         unused), untracked (the probe's table was full)
///   blocktune_readahead_interleaved_restarts_total{device} sync restarts of interleaved readers
///   blocktune_readahead_dropped_events_total              events a full table of the probe refused
QByteArray readaheadMetricsText(const ReadaheadSnapshot &snapshot, const QHash<quint64, QString> &labels);

} // namespace blocktune
