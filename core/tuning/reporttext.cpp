// A change report as text, one line a write: `set` and `profile apply` print
// it, the console's Settings panel shows it. The words go through
// TuningText::tr: English in the CLI (it installs no translator), the
// user's language in the console.
#include "tuning.h"

#include "common/tr.h"

namespace blocktune {

namespace {

QString targetText(const PlannedWrite &w)
{
    return w.device.isEmpty() ? TuningText::tr("(machine)") : w.device;
}

} // namespace

QStringList changeReportLines(const ChangeReport &report, const ChangeReportStyle &style)
{
    qsizetype wd = 0, wa = 0;
    for (const SettingOutcome &o : report.outcomes) {
        wd = std::max(wd, targetText(o.write).size());
        wa = std::max(wa, o.write.attribute.size());
    }
    QStringList lines;
    for (const SettingOutcome &o : report.outcomes) {
        QString line;
        if (style.aligned)
            line = targetText(o.write).leftJustified(wd + 2) + o.write.attribute.leftJustified(wa + 2);
        else
            line = targetText(o.write) + u' ' + o.write.attribute + u' ';
        line += TuningText::tr("%1 -> %2").arg(o.write.current.isEmpty() ? TuningText::tr("(new)") : o.write.current,
                                               o.write.value);
        if (style.withStatus) {
            line += QStringLiteral("  ") + settingStatusText(o.status);
            if (o.status == SettingStatus::Applied && o.kept != o.write.value)
                line += TuningText::tr(" (the kernel kept %1)").arg(o.kept);
            if (o.status == SettingStatus::Failed && !o.message.isEmpty())
                line += QStringLiteral(": ") + o.message;
        }
        if (style.membersMark && o.write.forMembers)
            line += QStringLiteral("  [--members]");
        lines << line;
    }
    return lines;
}

} // namespace blocktune
