#pragma once
// Ansible run by a test: the collection from the source tree, and every
// folder Ansible writes (its home, local and remote temporaries, ssh control
// sockets) inside the test's own folder, never the real HOME.
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace blocktune::test {

inline QProcessEnvironment ansibleEnvironment(const QTemporaryDir &work)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const auto folder = [&](const char *name) {
        const QString path = work.filePath(QString::fromLatin1(name));
        QDir().mkpath(path);
        return path;
    };
    env.insert(QStringLiteral("HOME"), folder("home"));
    env.insert(QStringLiteral("ANSIBLE_HOME"), folder("ansible-home"));
    env.insert(QStringLiteral("ANSIBLE_LOCAL_TEMP"), folder("local-tmp"));
    env.insert(QStringLiteral("ANSIBLE_REMOTE_TEMP"), folder("remote-tmp"));
    env.insert(QStringLiteral("ANSIBLE_SSH_CONTROL_PATH_DIR"), folder("cp"));
    env.insert(QStringLiteral("ANSIBLE_PERSISTENT_CONTROL_PATH_DIR"), folder("pcp"));
    env.insert(QStringLiteral("ANSIBLE_GALAXY_CACHE_DIR"), folder("galaxy-cache"));
    env.insert(QStringLiteral("ANSIBLE_COLLECTIONS_PATH"), QStringLiteral(BLOCKTUNE_SOURCE_DIR "/contrib/ansible"));
    env.insert(QStringLiteral("ANSIBLE_COLLECTIONS_SCAN_SYS_PATH"), QStringLiteral("False"));
    env.insert(QStringLiteral("ANSIBLE_RETRY_FILES_ENABLED"), QStringLiteral("False"));
    env.insert(QStringLiteral("ANSIBLE_NOCOLOR"), QStringLiteral("1"));
    env.remove(QStringLiteral("ANSIBLE_LOG_PATH"));
    // An empty configuration of the test's own: no /etc/ansible/ansible.cfg, no ~/.ansible.cfg.
    QFile cfg(work.filePath(QStringLiteral("ansible.cfg")));
    if (cfg.open(QIODevice::WriteOnly))
        cfg.write("[defaults]\n");
    cfg.close();
    env.insert(QStringLiteral("ANSIBLE_CONFIG"), cfg.fileName());
    env.insert(QStringLiteral("ANSIBLE_PYTHON_INTERPRETER"), QStringLiteral("/usr/bin/python3"));
    env.insert(QStringLiteral("PYTHONDONTWRITEBYTECODE"), QStringLiteral("1"));
    return env;
}

inline ProcessResult runWith(const QProcessEnvironment &env, const QString &program, const QStringList &args,
                             int timeoutMs = 180000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    ProcessResult r;
    if (!p.waitForStarted(10000)) {
        r.err = "failed to start " + program.toLocal8Bit();
        return r;
    }
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace blocktune::test
