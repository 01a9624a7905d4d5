// The AppStream screenshots stay true to the console: every picture the
// metainfo names is one the screenshot tour makes (screenshot_tour
// --appstream), is in resources/screenshots/, and has the width and height
// the metainfo states; the tour's AppStream shots are among the shots it
// makes (--list), and none of them is left out of the metainfo.
#include "testsupport.h"

#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QMap>
#include <QTest>
#include <QUrl>
#include <QXmlStreamReader>

using namespace blocktune::test;

namespace {

struct Image
{
    QString name; ///< "settings" for .../screenshots/settings.png
    QSize size;   ///< the width and height attributes
};

QList<Image> metainfoImages(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = f.errorString();
        return {};
    }
    QList<Image> images;
    QXmlStreamReader xml(&f);
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement() || xml.name() != u"image")
            continue;
        const QSize size(xml.attributes().value(QStringLiteral("width")).toInt(), xml.attributes().value(QStringLiteral("height")).toInt());
        const QString file = QFileInfo(QUrl(xml.readElementText().trimmed()).path()).fileName();
        images << Image{file.endsWith(u".png"_qs) ? file.chopped(4) : file, size};
    }
    if (xml.hasError())
        *error = xml.errorString();
    return images;
}

QStringList tourLines(const QString &option)
{
    const ProcessResult r = run(QStringLiteral(BLOCKTUNE_TOUR), {option}, 10000);
    if (r.exitCode != 0)
        return {};
    return QString::fromUtf8(r.out).split(u'\n', Qt::SkipEmptyParts);
}

} // namespace

class TestMetainfo : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void screenshotsAreTheToursPictures()
    {
        const QStringList shots = tourLines(u"--list"_qs);
        QVERIFY2(shots.contains(u"01-arrays-settings"_qs), qPrintable(shots.join(u' ')));
        QMap<QString, QString> appstream; // NAME -> SHOT
        for (const QString &line : tourLines(u"--appstream"_qs)) {
            const QStringList f = line.split(u' ');
            QCOMPARE(f.size(), 2);
            QVERIFY2(shots.contains(f.at(1)), qPrintable(f.at(1) + u" is not a shot the tour makes"_qs));
            appstream.insert(f.at(0), f.at(1));
        }
        QVERIFY(!appstream.isEmpty());

        QString error;
        const QList<Image> images =
            metainfoImages(QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/org.blocktune.Blocktune.metainfo.xml"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!images.isEmpty());
        QStringList named;
        for (const Image &image : images) {
            named << image.name;
            QVERIFY2(appstream.contains(image.name),
                     qPrintable(image.name + u".png: the tour makes no such AppStream screenshot (screenshot_tour --appstream: "_qs
                                + QStringList(appstream.keys()).join(u", "_qs) + u")"_qs));
            const QString png = QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/screenshots/") + image.name + u".png"_qs;
            QVERIFY2(QFileInfo::exists(png), qPrintable(png + u" missing: run scripts/screenshots.sh as root"_qs));
            QImageReader reader(png);
            QVERIFY2(reader.size() == image.size,
                     qPrintable(QStringLiteral("%1 is %2x%3, the metainfo says %4x%5")
                                    .arg(png)
                                    .arg(reader.size().width())
                                    .arg(reader.size().height())
                                    .arg(image.size.width())
                                    .arg(image.size.height())));
        }
        for (auto it = appstream.cbegin(); it != appstream.cend(); ++it)
            QVERIFY2(named.contains(it.key()), qPrintable(it.key() + u".png is shot but the metainfo does not list it"_qs));
    }
};

QTEST_GUILESS_MAIN(TestMetainfo)
#include "tst_metainfo.moc"
