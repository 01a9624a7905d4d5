#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QScrollArea;
class QVBoxLayout;

namespace blocktune {

struct BlockDevice;

/// The Details tab: one device as a form a person reads, labelled values
/// with their units in groups (identity, stacking, queue, filesystem, and
/// the md array, dm volume or loop backing where there is one). The JSON
/// behind it (`blocktune-cli list --json`'s object for the device) is one
/// button away: Copy as JSON puts it on the clipboard.
class DetailsView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DetailsView)

public:
    explicit DetailsView(QWidget *parent = nullptr);
    ~DetailsView() override = default;

    /// Shows `device`; nullptr with `name` says that device is gone.
    void showDevice(const BlockDevice *device, const QString &name = {});
    /// No device shown, and `why` instead (the one shown went away).
    void showGone(const QString &why);
    /// The JSON Copy as JSON copies (empty when no device is shown).
    QString json() const { return m_json; }
    /// The value shown beside `label` (a row's label text without its
    /// colon), for tests; empty when there is no such row.
    QString value(const QString &label) const;

private:
    void clearGroups();
    QWidget *addGroup(const QString &title, const QList<std::pair<QString, QString>> &rows);
    void addIdentity(const BlockDevice &d);
    void addStacking(const BlockDevice &d);
    void addQueue(const BlockDevice &d);
    void addFilesystem(const BlockDevice &d);
    void addMd(const BlockDevice &d);
    void addDmAndLoop(const BlockDevice &d);

    QLabel *m_title = nullptr;
    QPushButton *m_copy = nullptr;
    QScrollArea *m_scroll = nullptr;
    QVBoxLayout *m_groups = nullptr;
    QString m_json;
};

} // namespace blocktune
