<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>blocktune::HistoryView</name>
    <message numerus="yes">
        <source>%n record(s); select two to compare</source>
        <translation>
            <numerusform>%n record; select two to compare</numerusform>
            <numerusform>%n records; select two to compare</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>blocktune::MainWindow</name>
    <message numerus="yes">
        <source>%n temporary change(s) will be restored</source>
        <translation>
            <numerusform>%n temporary change will be restored</numerusform>
            <numerusform>%n temporary changes will be restored</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n block device(s)</source>
        <translation>
            <numerusform>%n block device</numerusform>
            <numerusform>%n block devices</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>blocktune::ProfilesView</name>
    <message numerus="yes">
        <source>%n profile(s)</source>
        <translation>
            <numerusform>%n profile</numerusform>
            <numerusform>%n profiles</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>blocktune::TuningPanel</name>
    <message numerus="yes">
        <source>Try for %n s</source>
        <translation>
            <numerusform>Try for %n s</numerusform>
            <numerusform>Try for %n s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Apply as a temporary change, restored after %n seconds unless you keep it</source>
        <translation>
            <numerusform>Apply as a temporary change, restored after %n second unless you keep it</numerusform>
            <numerusform>Apply as a temporary change, restored after %n seconds unless you keep it</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Trying: restored in %n s unless kept</source>
        <translation>
            <numerusform>Trying: restored in %n s unless kept</numerusform>
            <numerusform>Trying: restored in %n s unless kept</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restored %n setting(s) to their values from before this session.</source>
        <translation>
            <numerusform>Restored %n setting to its value from before this session.</numerusform>
            <numerusform>Restored %n settings to their values from before this session.</numerusform>
        </translation>
    </message>
</context>
</TS>
