#pragma once
// Core's user-visible messages are translated where they are made, with
// QCoreApplication::translate under one context per concept, so core needs
// nothing beyond Qt Core. lupdate finds them through the structs below (it
// takes the context from the macro's argument). The console installs a
// translator, so its messages come out in the user's language; the CLI and
// blocktune-helper install none and stay English (docs/guide.md, "Languages").
//
// Mark a message:  makeError(InvalidArgument, TuningText::tr("... %1 ...").arg(x))
// Plurals:         ReadTestText::tr("%n run(s)", nullptr, int(n))
// Keep out: JSON keys and values, sysfs names (read_ahead_kb), option names
// the user types (--bs): translators leave those as they are.

#include <QCoreApplication>

namespace blocktune {

struct AdvisorText
{
    Q_DECLARE_TR_FUNCTIONS(blocktune::Advisor)
};
struct CommonText
{
    Q_DECLARE_TR_FUNCTIONS(blocktune::Common)
};
struct DevicesText
{
    Q_DECLARE_TR_FUNCTIONS(blocktune::Devices)
};
struct MonitorText
{
    Q_DECLARE_TR_FUNCTIONS(blocktune::Monitor)
};
struct ReadaheadText
{
    Q_DECLARE_TR_FUNCTIONS(blocktune::Readahead)
};
struct PrivilegeText
{
    Q_DECLARE_TR_FUNCTIONS(blocktune::Privilege)
};
struct ReadTestText
{
    Q_DECLARE_TR_FUNCTIONS(blocktune::ReadTest)
};
struct RemoteText
{
    Q_DECLARE_TR_FUNCTIONS(blocktune::Remote)
};
struct SessionText
{
    Q_DECLARE_TR_FUNCTIONS(blocktune::Session)
};
struct TuningText
{
    Q_DECLARE_TR_FUNCTIONS(blocktune::Tuning)
};

} // namespace blocktune
