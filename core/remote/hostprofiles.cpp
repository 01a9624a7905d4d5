// A host's profiles for its console window: listed, loaded and saved by the
// host's agent (ops "profiles", "profile", "save_profile"), in the folders
// `blocktune-cli --host HOST profile list` shows, never this machine's.
#include "hostwatcher.h"
#include "remote.h"

#include "common/tr.h"

#include <QJsonArray>

namespace blocktune {

namespace {

class HostProfileLibrary final : public ProfileLibrary
{
public:
    HostProfileLibrary(std::shared_ptr<RemoteLink> link, int watchIntervalMs)
        : m_link(std::move(link)), m_watchIntervalMs(watchIntervalMs)
    {
    }

    QString host() const override { return m_link->target().host; }

    Result<QList<ProfileEntry>> list() override
    {
        auto answer = ask({{QStringLiteral("op"), QStringLiteral("profiles")}});
        if (!answer)
            return answer.error();
        QList<ProfileEntry> out;
        for (const QJsonValue &v : answer->value(u"profiles").toArray()) {
            const QJsonObject o = v.toObject();
            ProfileEntry e;
            e.name = o.value(u"name").toString();
            if (!isValidProfileName(e.name))
                continue; // not one a later load could name
            e.origin = parseProfileOrigin(o.value(u"origin").toString()).value_or(ProfileOrigin::File);
            e.path = there(o.value(u"path").toString());
            e.description = o.value(u"description").toString();
            e.error = o.value(u"error").toString();
            for (const QJsonValue &s : o.value(u"shadows").toArray())
                e.shadows << there(s.toString());
            out << e;
        }
        return out;
    }

    Result<Profile> load(const QString &name) override
    {
        auto answer = ask({{QStringLiteral("op"), QStringLiteral("profile")}, {QStringLiteral("name"), name}});
        if (!answer)
            return answer.error();
        const QString source = there(answer->value(u"source").toString());
        auto profile = parseProfile(answer->value(u"text").toString().toUtf8(), source);
        if (profile)
            profile->source = source;
        return profile;
    }

    Result<QString> save(const Profile &profile, bool overwrite) override
    {
        auto answer = ask({{QStringLiteral("op"), QStringLiteral("save_profile")},
                           {QStringLiteral("text"), QString::fromUtf8(profileToJson(profile))},
                           {QStringLiteral("overwrite"), overwrite}});
        if (!answer)
            return answer.error();
        return there(answer->value(u"path").toString());
    }

    Result<QString> userPath(const QString &name) override
    {
        auto answer = ask({{QStringLiteral("op"), QStringLiteral("profiles")}});
        if (!answer)
            return answer.error();
        return there(answer->value(u"user_dir").toString() + u'/' + name + u".json");
    }

    Result<ProfileFolders> folders() override
    {
        auto answer = ask({{QStringLiteral("op"), QStringLiteral("profiles")}});
        if (!answer)
            return answer.error();
        return ProfileFolders{there(answer->value(u"user_dir").toString()),
                              there(answer->value(u"system_dir").toString())};
    }

    ProfileWatch *watch(QObject *parent) override { return new HostProfileWatch(m_link, m_watchIntervalMs, parent); }

private:
    /// A path on the host as HOST:PATH; a preset ("preset NAME", or the
    /// presets' resource path) is the same everywhere and stays as it is.
    QString there(const QString &path) const
    {
        return path.startsWith(u'/') ? host() + u':' + path : path;
    }

    /// The agent's answer, or its refusal as an error naming the host.
    Result<QJsonObject> ask(const QJsonObject &request)
    {
        auto answer = m_link->call(request);
        if (!answer)
            return answer.error();
        if (!answer->value(u"ok").toBool())
            return makeError(errorCodeFromName(answer->value(u"code").toString()),
                             RemoteText::tr("%1: %2").arg(host(), answer->value(u"error").toString()));
        return answer;
    }

    std::shared_ptr<RemoteLink> m_link;
    int m_watchIntervalMs;
};

} // namespace

std::shared_ptr<ProfileLibrary> makeHostProfileLibrary(std::shared_ptr<RemoteLink> link, int watchIntervalMs)
{
    return std::make_shared<HostProfileLibrary>(std::move(link), watchIntervalMs);
}

} // namespace blocktune
