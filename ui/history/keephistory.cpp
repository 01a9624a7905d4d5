#include "keephistory.h"

#include "history/history.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThreadPool>

namespace blocktune {

void keepInHistory(QObject *owner, const HistoryRecord &record, std::function<void(const KeptRecord &)> done)
{
    QPointer<QObject> guard(owner);
    QThreadPool::globalInstance()->start([guard, record, done = std::move(done)] {
        HistoryNotice notice;
        const auto id = HistoryStore().add(record, &notice);
        KeptRecord kept;
        kept.id = id ? *id : 0;
        if (!notice.text.isEmpty())
            kept.said << notice.text;
        if (!id)
            kept.said << id.error().message;
        QMetaObject::invokeMethod(QCoreApplication::instance(), [guard, kept, done] {
            if (guard)
                done(kept);
        }, Qt::QueuedConnection);
    });
}

} // namespace blocktune
