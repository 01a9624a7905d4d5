#pragma once

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QTableWidget;
class QCheckBox;

namespace blocktune {

struct TuningPanelState;

/// The "change" half of the console: readahead slider, scheduler and its
/// tunables, queue limits; Apply shows what will change first, writes as one
/// transaction (rolled back on failure), Revert restores what this session
/// changed.
class TuningPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TuningPanel)

public:
    /// `sysroot` empty = the live machine.
    explicit TuningPanel(const QString &sysroot, QWidget *parent = nullptr);
    ~TuningPanel() override;

    /// Text of the last outcome (for tests and the status bar).
    QString lastMessage() const;

public Q_SLOTS:
    void setDevice(const QString &name);
    /// Re-reads the device's settings (after a change made elsewhere).
    void reload();
    /// Shows the preview and, if confirmed (or `confirm` is false), applies.
    bool applyChanges(bool confirm = true);
    /// Restores every value this panel changed since the console started.
    void revertSession();

Q_SIGNALS:
    /// Something was written: the device list should be refreshed.
    void settingsChanged(const QString &device);
    void message(const QString &text);

private:
    void readaheadSliderMoved(int position);
    void readaheadSpinChanged(int kib);
    void updateReadaheadHint();
    void updateDirty();
    void setMessage(const QString &text);

    std::unique_ptr<TuningPanelState> m_state;
    QLabel *m_title = nullptr;
    QLabel *m_note = nullptr;
    QSlider *m_raSlider = nullptr;
    QSpinBox *m_raSpin = nullptr;
    QLabel *m_raHint = nullptr;
    QCheckBox *m_members = nullptr;
    QComboBox *m_scheduler = nullptr;
    QSpinBox *m_nrRequests = nullptr;
    QSpinBox *m_maxSectors = nullptr;
    QLabel *m_context = nullptr;
    QTableWidget *m_iosched = nullptr;
    QPushButton *m_apply = nullptr;
    QPushButton *m_reset = nullptr;
    QPushButton *m_revert = nullptr;
    QLabel *m_result = nullptr;
};

} // namespace blocktune
