// blocktune-helper: the privileged writer. The tuning issue gives it its
// JSON-lines protocol; until then it refuses every request.
#include <QCoreApplication>
#include <QTextStream>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTextStream err(stderr);
    err << "blocktune-helper: no operations are available in this build" << Qt::endl;
    return 1;
}
