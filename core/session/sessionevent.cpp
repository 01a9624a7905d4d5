// What a session did, in words: the one description every view's status
// line shows (ConsoleSession::happened), made where the write happened.
#include "session.h"

#include "common/tr.h"

namespace blocktune {

namespace {

/// At most this many settings named in the sentence; the rest are counted.
constexpr int kNamedInText = 2;

void addDevice(QStringList &devices, const QString &device)
{
    if (!device.isEmpty() && !devices.contains(device))
        devices << device;
}

QString where(const QString &device)
{
    return device.isEmpty() ? SessionText::tr("(machine)") : device;
}

/// "loop5 read_ahead_kb: 2560 → 768", or the outcome when it was not written.
QString changeLine(const SettingOutcome &o)
{
    const QString from = o.write.current.isEmpty() ? SessionText::tr("(new)") : o.write.current;
    switch (o.status) {
    case SettingStatus::Applied:
        return SessionText::tr("%1 %2: %3 → %4").arg(where(o.write.device), o.write.attribute, from,
                                                     o.kept.isEmpty() ? o.write.value : o.kept);
    default:
        return SessionText::tr("%1 %2: %3 → %4 %5").arg(where(o.write.device), o.write.attribute, from, o.write.value,
                                                        settingStatusText(o.status));
    }
}

QString restoreLine(const RestoreItem &item)
{
    if (item.status == RestoreStatus::Restored)
        return SessionText::tr("%1 %2: %3 → %4")
            .arg(where(item.entry.device), item.entry.attribute, item.found.isEmpty() ? SessionText::tr("?") : item.found,
                 item.kept.isEmpty() ? item.entry.original : item.kept);
    return SessionText::tr("%1 %2: %3").arg(where(item.entry.device), item.entry.attribute, restoreStatusText(item.status));
}

/// "a; b" or "a; b and 3 more".
QString named(const QStringList &details)
{
    QString text = details.mid(0, kNamedInText).join(QStringLiteral("; "));
    if (details.size() > kNamedInText)
        text = SessionText::tr("%1 and %n more", nullptr, int(details.size() - kNamedInText)).arg(text);
    return text;
}

} // namespace

SessionEvent changeEvent(const ChangeReport &report, SessionEvent::Kind kind, const QString &profile)
{
    SessionEvent e;
    e.kind = kind;
    e.ok = report.ok();
    for (const SettingOutcome &o : report.outcomes) {
        e.details << changeLine(o);
        addDevice(e.devices, o.write.device);
    }
    if (!e.ok) {
        const QString why = report.error ? report.error->message : SessionText::tr("refused");
        e.text = profile.isEmpty() ? SessionText::tr("Nothing was changed: %1").arg(why)
                                   : SessionText::tr("Profile %1 was not applied: %2").arg(profile, why);
        return e;
    }
    const int n = int(report.outcomes.size());
    switch (kind) {
    case SessionEvent::Kind::Tried:
        e.text = SessionText::tr("Trying %n change(s), restored unless kept: %1", nullptr, n).arg(named(e.details));
        break;
    case SessionEvent::Kind::ProfileApplied:
        e.text = n == 0 ? SessionText::tr("Profile %1: nothing to change").arg(profile)
                        : SessionText::tr("Applied profile %1, %n change(s): %2", nullptr, n).arg(profile, named(e.details));
        break;
    default:
        e.text = SessionText::tr("Applied %n change(s): %1", nullptr, n).arg(named(e.details));
        break;
    }
    return e;
}

SessionEvent restoreEvent(const RestoreReport &report, SessionEvent::Kind kind, const QStringList &profiles)
{
    SessionEvent e;
    e.kind = kind;
    e.ok = report.ok();
    int restored = 0;
    for (const RestoreItem &item : report.items) {
        e.details << restoreLine(item);
        addDevice(e.devices, item.entry.device);
        restored += item.status == RestoreStatus::Restored;
    }
    const QString what = named(e.details);
    switch (kind) {
    case SessionEvent::Kind::Reverted:
        e.text = report.items.isEmpty() ? SessionText::tr("Reverted the session: nothing had been changed")
                                        : SessionText::tr("Reverted the session, %n setting(s) restored: %1", nullptr, restored).arg(what);
        break;
    case SessionEvent::Kind::ProfileReverted:
        e.text = SessionText::tr("Reverted %1, %n value(s) restored: %2", nullptr, restored)
                     .arg(profiles.join(QStringLiteral(", ")), what);
        break;
    case SessionEvent::Kind::JournalRestored:
        e.text = SessionText::tr("Restored what an ended session left, %n setting(s): %1", nullptr, restored).arg(what);
        break;
    default:
        e.text = SessionText::tr("Restored %n tried setting(s): %1", nullptr, restored).arg(what);
        break;
    }
    if (!e.ok && !report.messages.isEmpty())
        e.text += u' ' + SessionText::tr("(%1)").arg(report.messages.join(QStringLiteral("; ")));
    return e;
}

SessionEvent keptEvent(int count)
{
    SessionEvent e;
    e.kind = SessionEvent::Kind::Kept;
    e.text = SessionText::tr("Kept %n tried setting(s); Revert session still takes them back", nullptr, count);
    return e;
}

QList<SessionEvent> foldJobEvents(const QList<SessionEvent> &events)
{
    // A sweep, an advice or a measured diagnosis sets readahead dozens of
    // times and restores it each time: told as one event, what a person
    // needs to know is that it measured, and whether everything came back.
    QList<SessionEvent> others;
    SessionEvent measured;
    measured.kind = SessionEvent::Kind::Measured;
    int tried = 0;
    bool ended = false;  // the last temporary change was restored
    bool allBack = true; // and that restore brought everything back
    for (const SessionEvent &e : events) {
        if (e.kind == SessionEvent::Kind::Tried) {
            tried += int(e.details.size());
            ended = false;
        } else if (e.kind == SessionEvent::Kind::Restored) {
            ended = true;
            allBack = e.ok;
            measured.details = e.details; // the last restore says what is back
        } else {
            others << e;
            continue;
        }
        for (const QString &dev : e.devices)
            addDevice(measured.devices, dev);
    }
    if (tried == 0)
        return others;
    measured.ok = ended && allBack;
    const QString devices = measured.devices.join(QStringLiteral(", "));
    if (!ended)
        measured.text = SessionText::tr("Measured on %1 with %n temporary change(s); they are still held", nullptr, tried).arg(devices);
    else if (measured.ok)
        measured.text = SessionText::tr("Measured on %1 with %n temporary change(s), all restored", nullptr, tried).arg(devices);
    else
        measured.text = SessionText::tr("Measured on %1 with %n temporary change(s); not everything came back: %2",
                                        nullptr, tried).arg(devices, named(measured.details));
    others.prepend(measured);
    return others;
}

} // namespace blocktune
