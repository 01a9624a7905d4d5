<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>blocktune::AdviseView</name>
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
        <source>Trying %1: restored in %n s unless kept</source>
        <translation>
            <numerusform>Trying %1: restored in %n s unless kept</numerusform>
            <numerusform>Trying %1: restored in %n s unless kept</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n s</source>
        <translation>
            <numerusform>%n s</numerusform>
            <numerusform>%n s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 (%n point(s) so far)</source>
        <translation>
            <numerusform>%1: %2 (%n point so far)</numerusform>
            <numerusform>%1: %2 (%n points so far)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Cancelled after %n point(s): no recommendation</source>
        <translation>
            <numerusform>Cancelled after %n point: no recommendation</numerusform>
            <numerusform>Cancelled after %n points: no recommendation</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Memory: %1 × %n readahead window(s) × %2 device(s) = %3</source>
        <translation>
            <numerusform>Memory: %1 × %n readahead window × %2 device(s) = %3</numerusform>
            <numerusform>Memory: %1 × %n readahead windows × %2 device(s) = %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Advise reads with the workload above at a series of readahead values, each from a cold cache, draws the curve here as it goes, and recommends the smallest readahead that reaches the plateau. It takes about %n s (the budget) and puts the readahead back when it ends; nothing changes until you apply or try the answer.</source>
        <translation>
            <numerusform>Advise reads with the workload above at a series of readahead values, each from a cold cache, draws the curve here as it goes, and recommends the smallest readahead that reaches the plateau. It takes about %n second (the budget) and puts the readahead back when it ends; nothing changes until you apply or try the answer.</numerusform>
            <numerusform>Advise reads with the workload above at a series of readahead values, each from a cold cache, draws the curve here as it goes, and recommends the smallest readahead that reaches the plateau. It takes about %n seconds (the budget) and puts the readahead back when it ends; nothing changes until you apply or try the answer.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>About %n runs a point would tell them apart (a budget of about %1 s).</source>
        <translation>
            <numerusform>About %n run a point would tell them apart (a budget of about %1 s).</numerusform>
            <numerusform>About %n runs a point would tell them apart (a budget of about %1 s).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>About %n runs a point would tell them apart.</source>
        <translation>
            <numerusform>About %n run a point would tell them apart.</numerusform>
            <numerusform>About %n runs a point would tell them apart.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Try the advice, %1, for %n s?</source>
        <translation>
            <numerusform>Try the advice, %1, for %n s?</numerusform>
            <numerusform>Try the advice, %1, for %n s?</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>blocktune::Advisor</name>
    <message numerus="yes">
        <source>the curve has %n point(s); a knee needs at least 2</source>
        <translation>
            <numerusform>the curve has %n point; a knee needs at least 2</numerusform>
            <numerusform>the curve has %n points; a knee needs at least 2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>blocktune::ChangePreviewDialog</name>
    <message numerus="yes">
        <source>Scope: only the devices listed, for %n s; then the values from before come back unless you keep it. The values from before are journaled, so a crash does not leave the trial behind.</source>
        <translation>
            <numerusform>Scope: only the devices listed, for %n s; then the values from before come back unless you keep it. The values from before are journaled, so a crash does not leave the trial behind.</numerusform>
            <numerusform>Scope: only the devices listed, for %n s; then the values from before come back unless you keep it. The values from before are journaled, so a crash does not leave the trial behind.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>blocktune::DiagnoseView</name>
    <message numerus="yes">
        <source>%n finding(s) for %1</source>
        <translation>
            <numerusform>%n finding for %1</numerusform>
            <numerusform>%n findings for %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Diagnose checks the device&apos;s settings against its stack (readahead against md&apos;s and dm&apos;s floor, the scheduler, request sizes, the members of an array) and names what holds streaming reads back, with the fix for each finding. The static checks read nothing and take under a second; unless &quot;Static checks only&quot; is ticked, it then reads for about %n s (the stream at its readahead and at a larger one, raw O_DIRECT reads, two streams side by side, each three times in turn, so a finding is stated only when it is larger than the noise) and puts every setting back.</source>
        <translation>
            <numerusform>Diagnose checks the device&apos;s settings against its stack (readahead against md&apos;s and dm&apos;s floor, the scheduler, request sizes, the members of an array) and names what holds streaming reads back, with the fix for each finding. The static checks read nothing and take under a second; unless &quot;Static checks only&quot; is ticked, it then reads for about %n second (the stream at its readahead and at a larger one, raw O_DIRECT reads, two streams side by side, each three times in turn, so a finding is stated only when it is larger than the noise) and puts every setting back.</numerusform>
            <numerusform>Diagnose checks the device&apos;s settings against its stack (readahead against md&apos;s and dm&apos;s floor, the scheduler, request sizes, the members of an array) and names what holds streaming reads back, with the fix for each finding. The static checks read nothing and take under a second; unless &quot;Static checks only&quot; is ticked, it then reads for about %n seconds (the stream at its readahead and at a larger one, raw O_DIRECT reads, two streams side by side, each three times in turn, so a finding is stated only when it is larger than the noise) and puts every setting back.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Watching the workload on %1: %n s left (blocktune reads nothing; start or keep the workload running)</source>
        <translation>
            <numerusform>Watching the workload on %1: %n second left (blocktune reads nothing; start or keep the workload running)</numerusform>
            <numerusform>Watching the workload on %1: %n seconds left (blocktune reads nothing; start or keep the workload running)</numerusform>
        </translation>
    </message>
</context>
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
    <message numerus="yes">
        <source>%n temporary change(s) held there</source>
        <translation>
            <numerusform>%n temporary change held there</numerusform>
            <numerusform>%n temporary changes held there</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>When the last connection to %1 ended (%2), the agent there restored %n temporary change(s)</source>
        <translation>
            <numerusform>When the last connection to %1 ended (%2), the agent there restored %n temporary change</numerusform>
            <numerusform>When the last connection to %1 ended (%2), the agent there restored %n temporary changes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n could not be restored (blocktune-cli --host %1 restore)</source>
        <translation>
            <numerusform>; %n could not be restored (blocktune-cli --host %1 restore)</numerusform>
            <numerusform>; %n could not be restored (blocktune-cli --host %1 restore)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>connection to %1 lost; %n temporary change(s) restored there</source>
        <translation>
            <numerusform>connection to %1 lost; %n temporary change restored there</numerusform>
            <numerusform>connection to %1 lost; %n temporary changes restored there</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> — following %1&apos;s hotplug (asked every %n s)</source>
        <translation>
            <numerusform> — following %1&apos;s hotplug (asked every %n s)</numerusform>
            <numerusform> — following %1&apos;s hotplug (asked every %n s)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The device list shown is from before: scanning failed (%1); trying again in %n s</source>
        <translation>
            <numerusform>The device list shown is from before: scanning failed (%1); trying again in %n s</numerusform>
            <numerusform>The device list shown is from before: scanning failed (%1); trying again in %n s</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>blocktune::MonitorView</name>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>and %n more</numerusform>
            <numerusform>and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>blocktune::ProfileWorker</name>
    <message numerus="yes">
        <source>Saved %n rule(s) as %1</source>
        <translation>
            <numerusform>Saved %n rule as %1</numerusform>
            <numerusform>Saved %n rules as %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Reverted %1: %n value(s) restored</source>
        <translation>
            <numerusform>Reverted %1: %n value restored</numerusform>
            <numerusform>Reverted %1: %n values restored</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 would change %n setting(s)</source>
        <translation>
            <numerusform>%1 would change %n setting</numerusform>
            <numerusform>%1 would change %n settings</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Applied %1: %n write(s); Revert brings the values before back</source>
        <translation>
            <numerusform>Applied %1: %n write; Revert brings the values before back</numerusform>
            <numerusform>Applied %1: %n writes; Revert brings the values before back</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No drift: %n setting(s) as %1 says</source>
        <translation>
            <numerusform>No drift: %n setting as %1 says</numerusform>
            <numerusform>No drift: %n settings as %1 says</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n drift(s) from %1</source>
        <translation>
            <numerusform>%n drift from %1</numerusform>
            <numerusform>%n drifts from %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 would keep %n rule(s) in %2</source>
        <translation>
            <numerusform>%1 would keep %n rule in %2</numerusform>
            <numerusform>%1 would keep %n rules in %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 would change %n setting(s) on the devices ticked</source>
        <translation>
            <numerusform>%1 would change %n setting on the devices ticked</numerusform>
            <numerusform>%1 would change %n settings on the devices ticked</numerusform>
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
    <name>blocktune::Remote</name>
    <message numerus="yes">
        <source>%1&apos;s profile folders, asked every %n s</source>
        <translation>
            <numerusform>%1&apos;s profile folders, asked every %n s</numerusform>
            <numerusform>%1&apos;s profile folders, asked every %n s</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>blocktune::Session</name>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 and %n more</numerusform>
            <numerusform>%1 and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Trying %n change(s), restored unless kept: %1</source>
        <translation>
            <numerusform>Trying %n change, restored unless kept: %1</numerusform>
            <numerusform>Trying %n changes, restored unless kept: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Applied profile %1, %n change(s): %2</source>
        <translation>
            <numerusform>Applied profile %1, %n change: %2</numerusform>
            <numerusform>Applied profile %1, %n changes: %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Applied %n change(s): %1</source>
        <translation>
            <numerusform>Applied %n change: %1</numerusform>
            <numerusform>Applied %n changes: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Reverted the session, %n setting(s) restored: %1</source>
        <translation>
            <numerusform>Reverted the session, %n setting restored: %1</numerusform>
            <numerusform>Reverted the session, %n settings restored: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Reverted %1, %n value(s) restored: %2</source>
        <translation>
            <numerusform>Reverted %1, %n value restored: %2</numerusform>
            <numerusform>Reverted %1, %n values restored: %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restored what an ended session left, %n setting(s): %1</source>
        <translation>
            <numerusform>Restored what an ended session left, %n setting: %1</numerusform>
            <numerusform>Restored what an ended session left, %n settings: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restored %n tried setting(s): %1</source>
        <translation>
            <numerusform>Restored %n tried setting: %1</numerusform>
            <numerusform>Restored %n tried settings: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Kept %n tried setting(s); Revert session still takes them back</source>
        <translation>
            <numerusform>Kept %n tried setting; Revert session still takes them back</numerusform>
            <numerusform>Kept %n tried settings; Revert session still takes them back</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Measured on %1 with %n temporary change(s); they are still held</source>
        <translation>
            <numerusform>Measured on %1 with %n temporary change; they are still held</numerusform>
            <numerusform>Measured on %1 with %n temporary changes; they are still held</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Measured on %1 with %n temporary change(s), all restored</source>
        <translation>
            <numerusform>Measured on %1 with %n temporary change, all restored</numerusform>
            <numerusform>Measured on %1 with %n temporary changes, all restored</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Measured on %1 with %n temporary change(s); not everything came back: %2</source>
        <translation>
            <numerusform>Measured on %1 with %n temporary change; not everything came back: %2</numerusform>
            <numerusform>Measured on %1 with %n temporary changes; not everything came back: %2</numerusform>
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
    <message numerus="yes">
        <source>Try these changes for %n s?</source>
        <translation>
            <numerusform>Try these changes for %n s?</numerusform>
            <numerusform>Try these changes for %n s?</numerusform>
        </translation>
    </message>
</context>
</TS>
