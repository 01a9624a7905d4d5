<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>blocktune::AdviseView</name>
    <message>
        <source>Select a device</source>
        <translation>Gerät auswählen</translation>
    </message>
    <message>
        <source>Sequential: one stream</source>
        <translation>Sequenziell: ein Datenstrom</translation>
    </message>
    <message>
        <source>Concurrent: N streams</source>
        <translation>Parallel: N Datenströme</translation>
    </message>
    <message>
        <source>Server: N threads, one file</source>
        <translation>Server: N Threads, eine Datei</translation>
    </message>
    <message>
        <source>Mixed: K streams + R random readers</source>
        <translation>Gemischt: K Datenströme + R Zufallsleser</translation>
    </message>
    <message>
        <source>N = </source>
        <translation>N = </translation>
    </message>
    <message>
        <source>R = </source>
        <translation>R = </translation>
    </message>
    <message>
        <source>Size of each read the streams issue (K/M are binary)</source>
        <translation>Größe jedes Lesevorgangs der Datenströme (K/M binär)</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>The whole run, raw measurement included, keeps within this time (±10%)</source>
        <translation>Der ganze Lauf samt Rohmessung bleibt in dieser Zeit (±10 %)</translation>
    </message>
    <message>
        <source>Advise</source>
        <translation>Empfehlen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>%p% of the budget</source>
        <translation>%p % des Zeitbudgets</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>Last</translation>
    </message>
    <message>
        <source>budget</source>
        <translation>Zeitbudget</translation>
    </message>
    <message>
        <source>Block size</source>
        <translation>Blockgröße</translation>
    </message>
    <message>
        <source>read_ahead_kb</source>
        <translation>read_ahead_kb</translation>
    </message>
    <message>
        <source>MB/s</source>
        <translation>MB/s</translation>
    </message>
    <message>
        <source>average request KiB</source>
        <translation>mittlere Anfrage KiB</translation>
    </message>
    <message>
        <source>avg request KiB</source>
        <translation>mittl. Anfrage KiB</translation>
    </message>
    <message>
        <source>knee: smallest within 5% of the best</source>
        <translation>Knick: kleinster Wert innerhalb 5 % des besten</translation>
    </message>
    <message>
        <source>recommended</source>
        <translation>empfohlen</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <source>Set the recommended read_ahead_kb for good (Revert session still undoes it)</source>
        <translation>Das empfohlene read_ahead_kb dauerhaft setzen (Sitzung zurücksetzen macht es weiterhin rückgängig)</translation>
    </message>
    <message numerus="yes">
        <source>Try for %n s</source>
        <translation>
            <numerusform>%n s lang probieren</numerusform>
            <numerusform>%n s lang probieren</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Apply as a temporary change, restored after %n seconds unless you keep it</source>
        <translation>
            <numerusform>Als vorübergehende Änderung anwenden, nach %n Sekunde wiederhergestellt, sofern Sie sie nicht behalten</numerusform>
            <numerusform>Als vorübergehende Änderung anwenden, nach %n Sekunden wiederhergestellt, sofern Sie sie nicht behalten</numerusform>
        </translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>Behalten</translation>
    </message>
    <message>
        <source>Restore now</source>
        <translation>Jetzt wiederherstellen</translation>
    </message>
    <message>
        <source>Save as profile…</source>
        <translation>Als Profil speichern…</translation>
    </message>
    <message numerus="yes">
        <source>Trying %1: restored in %n s unless kept</source>
        <translation>
            <numerusform>Probe mit %1: in %n s wiederhergestellt, sofern nicht behalten</numerusform>
            <numerusform>Probe mit %1: in %n s wiederhergestellt, sofern nicht behalten</numerusform>
        </translation>
    </message>
    <message>
        <source>Saved profile %1 as %2</source>
        <translation>Profil %1 als %2 gespeichert</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>abgelehnt</translation>
    </message>
    <message>
        <source>read_ahead_kb of %1 is now %2</source>
        <translation>read_ahead_kb von %1 ist jetzt %2</translation>
    </message>
    <message>
        <source>Trial over: the previous read_ahead_kb is back</source>
        <translation>Probe beendet: das vorige read_ahead_kb ist zurück</translation>
    </message>
    <message>
        <source>A recorded tree has nothing to read: Advise measures only the live machine</source>
        <translation>Ein aufgezeichneter Baum hat nichts zu lesen: Empfehlen misst nur auf der laufenden Maschine</translation>
    </message>
    <message>
        <source>Advise readahead for %1</source>
        <translation>Readahead-Empfehlung für %1</translation>
    </message>
    <message>
        <source>block size</source>
        <translation>Blockgröße</translation>
    </message>
    <message>
        <source>block size &apos;%1&apos; is not a multiple of 512 bytes such as 4K, 64K or 1M</source>
        <translation>Blockgröße „%1“ ist kein Vielfaches von 512 Byte wie 4K, 64K oder 1M</translation>
    </message>
    <message>
        <source>Measuring raw reads, then the readahead curve (%1 at most)…</source>
        <translation>Messe Rohlesen, dann die Readahead-Kurve (höchstens %1)…</translation>
    </message>
    <message numerus="yes">
        <source>%n s</source>
        <translation>
            <numerusform>%n s</numerusform>
            <numerusform>%n s</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelling: the original readahead comes back…</source>
        <translation>Breche ab: das ursprüngliche Readahead kommt zurück…</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 (%n point(s) so far)</source>
        <translation>
            <numerusform>%1: %2 (bisher %n Punkt)</numerusform>
            <numerusform>%1: %2 (bisher %n Punkte)</numerusform>
        </translation>
    </message>
    <message>
        <source>raw (O_DIRECT) %1</source>
        <translation>roh (O_DIRECT) %1</translation>
    </message>
    <message>
        <source>md floor %1</source>
        <translation>md-Untergrenze %1</translation>
    </message>
    <message>
        <source>knee %1</source>
        <translation>Knick %1</translation>
    </message>
    <message numerus="yes">
        <source>Cancelled after %n point(s): no recommendation</source>
        <translation>
            <numerusform>Nach %n Punkt abgebrochen: keine Empfehlung</numerusform>
            <numerusform>Nach %n Punkten abgebrochen: keine Empfehlung</numerusform>
        </translation>
    </message>
    <message>
        <source>Raw peak: not measured</source>
        <translation>Rohspitze: nicht gemessen</translation>
    </message>
    <message numerus="yes">
        <source>Memory: %1 × %n readahead window(s) × %2 device(s) = %3</source>
        <translation>
            <numerusform>Speicher: %1 × %n Readahead-Fenster × %2 Gerät(e) = %3</numerusform>
            <numerusform>Speicher: %1 × %n Readahead-Fenster × %2 Gerät(e) = %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Took %1 s of a %2 s budget.</source>
        <translation>Dauerte %1 s von %2 s Zeitbudget.</translation>
    </message>
    <message>
        <source>read_ahead_kb is back at %1.</source>
        <translation>read_ahead_kb ist wieder %1.</translation>
    </message>
    <message>
        <source>read_ahead_kb NOT restored: %1</source>
        <translation>read_ahead_kb NICHT wiederhergestellt: %1</translation>
    </message>
    <message>
        <source>Writing…</source>
        <translation>Schreibe…</translation>
    </message>
    <message>
        <source>Writing… (the first change asks for authorization)</source>
        <translation>Schreibe… (die erste Änderung fragt nach der Berechtigung)</translation>
    </message>
    <message>
        <source>Kept. Revert session still takes it back.</source>
        <translation>Behalten. Sitzung zurücksetzen nimmt es weiterhin zurück.</translation>
    </message>
    <message>
        <source>Save as profile</source>
        <translation>Als Profil speichern</translation>
    </message>
    <message>
        <source>Profile name (letters, digits, _ . -):</source>
        <translation>Profilname (Buchstaben, Ziffern, _ . -):</translation>
    </message>
    <message>
        <source>Readahead curve plot</source>
        <translation>Readahead-Kurve (Diagramm)</translation>
    </message>
    <message numerus="yes">
        <source>Advise reads with the workload above at a series of readahead values, each from a cold cache, draws the curve here as it goes, and recommends the smallest readahead that reaches the plateau. It takes about %n s (the budget) and puts the readahead back when it ends; nothing changes until you apply or try the answer.</source>
        <translation>
            <numerusform>Die Empfehlung liest mit der Last oben bei einer Reihe von Readahead-Werten, jeder mit kaltem Cache, zeichnet die Kurve hier während der Messung und empfiehlt den kleinsten Readahead, der das Plateau erreicht. Sie dauert etwa %n Sekunde (das Budget) und stellt den Readahead am Ende zurück; nichts ändert sich, bis Sie die Antwort anwenden oder ausprobieren.</numerusform>
            <numerusform>Die Empfehlung liest mit der Last oben bei einer Reihe von Readahead-Werten, jeder mit kaltem Cache, zeichnet die Kurve hier während der Messung und empfiehlt den kleinsten Readahead, der das Plateau erreicht. Sie dauert etwa %n Sekunden (das Budget) und stellt den Readahead am Ende zurück; nichts ändert sich, bis Sie die Antwort anwenden oder ausprobieren.</numerusform>
        </translation>
    </message>
    <message>
        <source>Select a device in the tree.</source>
        <translation>Wählen Sie im Baum ein Gerät.</translation>
    </message>
    <message>
        <source>Advise for %1: </source>
        <translation>Empfehlung für %1: </translation>
    </message>
    <message>
        <source>A measurement is running: cancel it first</source>
        <translation>Eine Messung läuft: zuerst abbrechen</translation>
    </message>
    <message>
        <source>Advice from %1, computed from its recorded curve: nothing was read</source>
        <translation>Rat aus %1, aus der aufgezeichneten Kurve berechnet: nichts wurde gelesen</translation>
    </message>
    <message>
        <source> · kept in the history (#%1)</source>
        <translation> · im Verlauf gespeichert (#%1)</translation>
    </message>
    <message>
        <source>No steady answer for %1: nothing is recommended</source>
        <translation>Keine stabile Antwort für %1: nichts wird empfohlen</translation>
    </message>
    <message>
        <source>Recommended for %1: %2 (the md/dm floor)</source>
        <translation>Empfohlen für %1: %2 (die md/dm-Untergrenze)</translation>
    </message>
    <message>
        <source>Recommended for %1: %2</source>
        <translation>Empfohlen für %1: %2</translation>
    </message>
    <message>
        <source>The machine read at two speeds while Advise measured (about %1 and %2 at %3), so the curve mixes the two and its knee is neither&apos;s.</source>
        <translation>Die Maschine las während der Messung mit zwei Geschwindigkeiten (etwa %1 und %2 bei %3), daher mischt die Kurve beide, und ihr Knie ist keines von beiden.</translation>
    </message>
    <message>
        <source>A longer budget would mix them again: advise again when the machine reads at one speed (on a virtual machine, the host&apos;s load does this).</source>
        <translation>Ein längeres Budget würde sie wieder mischen: Beraten Sie erneut, wenn die Maschine mit einer Geschwindigkeit liest (auf einer virtuellen Maschine bewirkt das die Last des Hosts).</translation>
    </message>
    <message>
        <source>The run-to-run noise (± %1 %) is wider than the tolerance (%2 %), so a readahead within the tolerance cannot be told from one outside it.</source>
        <translation>Das Rauschen von Lauf zu Lauf (± %1 %) ist breiter als die Toleranz (%2 %), daher lässt sich ein Readahead innerhalb der Toleranz nicht von einem außerhalb unterscheiden.</translation>
    </message>
    <message numerus="yes">
        <source>About %n runs a point would tell them apart (a budget of about %1 s).</source>
        <translation>
            <numerusform>Etwa %n Lauf je Punkt würde sie unterscheiden (ein Budget von etwa %1 s).</numerusform>
            <numerusform>Etwa %n Läufe je Punkt würden sie unterscheiden (ein Budget von etwa %1 s).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>About %n runs a point would tell them apart.</source>
        <translation>
            <numerusform>Etwa %n Lauf je Punkt würde sie unterscheiden.</numerusform>
            <numerusform>Etwa %n Läufe je Punkt würden sie unterscheiden.</numerusform>
        </translation>
    </message>
    <message>
        <source>The curve alone would pick %1; that is no answer, so Apply, Try and Save stay off.</source>
        <translation>Die Kurve allein würde %1 wählen; das ist keine Antwort, daher bleiben Anwenden, Probieren und Speichern aus.</translation>
    </message>
    <message>
        <source>The curve&apos;s knee is %1, below the array&apos;s floor of %2 (2 × stripe), which the kernel sets again on re-assembly or a reshape.</source>
        <translation>Das Knie der Kurve liegt bei %1, unter der Untergrenze des Arrays von %2 (2 × Stripe), die der Kernel beim erneuten Zusammensetzen oder einem Reshape wieder setzt.</translation>
    </message>
    <message>
        <source>It is the smallest readahead within %1 % of the plateau (%2, the median of the best three points).</source>
        <translation>Es ist der kleinste Readahead innerhalb von %1 % des Plateaus (%2, der Median der besten drei Punkte).</translation>
    </message>
    <message>
        <source>From %1 to %2 the curve gives %3 to %4: the same within the tolerance and the noise.</source>
        <translation>Von %1 bis %2 liefert die Kurve %3 bis %4: gleich innerhalb der Toleranz und des Rauschens.</translation>
    </message>
    <message>
        <source>One step up (%1) gains %2 % for %3 more memory.</source>
        <translation>Eine Stufe höher (%1) bringt %2 % für %3 mehr Speicher.</translation>
    </message>
    <message>
        <source>Each point was measured once, so the run-to-run noise is unknown: the band is the tolerance alone.</source>
        <translation>Jeder Punkt wurde einmal gemessen, daher ist das Rauschen von Lauf zu Lauf unbekannt: Das Band ist allein die Toleranz.</translation>
    </message>
    <message>
        <source>Buffered reads reach %1 % of what the device delivers raw (%2 on the plateau, %3 raw).</source>
        <translation>Gepufferte Lesevorgänge erreichen %1 % dessen, was das Gerät direkt liefert (%2 auf dem Plateau, %3 direkt).</translation>
    </message>
    <message>
        <source>The raw ceiling could not be measured.</source>
        <translation>Die direkte Obergrenze konnte nicht gemessen werden.</translation>
    </message>
    <message>
        <source>The recorded curve holds no raw (O_DIRECT) figure to compare with.</source>
        <translation>Die aufgezeichnete Kurve enthält keinen direkten (O_DIRECT) Wert zum Vergleich.</translation>
    </message>
    <message>
        <source>Buffered reads passed the raw figure (1 MiB O_DIRECT reads, %1 in flight): the device serves more than that keeps in flight, so the raw figure is a floor, not a ceiling.</source>
        <translation>Gepufferte Lesevorgänge übertrafen den direkten Wert (1-MiB-Lesevorgänge mit O_DIRECT, %1 gleichzeitig): Das Gerät schafft mehr, als so gleichzeitig anfällt, daher ist der direkte Wert eine Untergrenze, keine Obergrenze.</translation>
    </message>
    <message>
        <source>Throughput was still rising at the largest value tried (%1, the cap a quarter of the device sets).</source>
        <translation>Der Durchsatz stieg beim größten versuchten Wert noch an (%1, die Grenze, die ein Viertel des Geräts setzt).</translation>
    </message>
    <message>
        <source>No readahead came close, and throughput was still rising at the largest value tried (%1, the cap a quarter of the device sets).</source>
        <translation>Kein Readahead kam nahe heran, und der Durchsatz stieg beim größten versuchten Wert noch an (%1, die Grenze, die ein Viertel des Geräts setzt).</translation>
    </message>
    <message>
        <source>No readahead came close: requests stop at max_sectors_kb %1 (average %2 at the best point) while the raw reads used 1 MiB requests.</source>
        <translation>Kein Readahead kam nahe heran: Anfragen enden bei max_sectors_kb %1 (im Mittel %2 am besten Punkt), während die direkten Lesevorgänge 1-MiB-Anfragen nutzten.</translation>
    </message>
    <message>
        <source>No readahead came close, though requests reached %1: the page-cache copy or the CPU is the likelier limit, not readahead.</source>
        <translation>Kein Readahead kam nahe heran, obwohl die Anfragen %1 erreichten: Wahrscheinlicher begrenzt die Kopie aus dem Page-Cache oder die CPU, nicht der Readahead.</translation>
    </message>
    <message>
        <source>Raw peak (O_DIRECT, 1 MiB × %1 in flight): %2 · buffered reads reach %3 %</source>
        <translation>Direkte Spitze (O_DIRECT, 1 MiB × %1 gleichzeitig): %2 · gepufferte Lesevorgänge erreichen %3 %</translation>
    </message>
    <message numerus="yes">
        <source>Try the advice, %1, for %n s?</source>
        <translation>
            <numerusform>Die Empfehlung, %1, %n s lang probieren?</numerusform>
            <numerusform>Die Empfehlung, %1, %n s lang probieren?</numerusform>
        </translation>
    </message>
    <message>
        <source>Apply the advice, %1?</source>
        <translation>Die Empfehlung, %1, anwenden?</translation>
    </message>
    <message>
        <source>Nothing was changed.</source>
        <translation>Nichts wurde geändert.</translation>
    </message>
    <message>
        <source>No steady answer: %1, so nothing is recommended to apply, try or save</source>
        <translation>Keine stabile Antwort: %1, daher wird nichts zum Anwenden, Probieren oder Speichern empfohlen</translation>
    </message>
    <message>
        <source>the run-to-run noise is wider than the tolerance</source>
        <translation>das Rauschen von Lauf zu Lauf ist breiter als die Toleranz</translation>
    </message>
    <message>
        <source>the machine read at two speeds while Advise measured</source>
        <translation>die Maschine las während der Messung mit zwei Geschwindigkeiten</translation>
    </message>
    <message>
        <source>This advice is for %1: select %1 in the tree to apply it</source>
        <translation>Diese Empfehlung gilt für %1: Wählen Sie %1 im Baum, um sie anzuwenden</translation>
    </message>
    <message>
        <source>No steady answer: nothing is recommended</source>
        <translation>Keine stabile Antwort: nichts wird empfohlen</translation>
    </message>
    <message>
        <source>Recommended: %1</source>
        <translation>Empfohlen: %1</translation>
    </message>
</context>
<context>
    <name>blocktune::Advisor</name>
    <message>
        <source>workload &apos;%1&apos; is not one of seq, concurrent:N, server:N, mixed:K+R (N and K from 1 to 64, R from 0 to 64)</source>
        <translation>Arbeitslast „%1“ ist keine von seq, concurrent:N, server:N, mixed:K+R (N und K von 1 bis 64, R von 0 bis 64)</translation>
    </message>
    <message>
        <source>%1 is on a recorded tree (--sysroot): there is nothing to read, so nothing can be measured (diagnose --static checks a recorded tree)</source>
        <translation>%1 liegt in einem aufgezeichneten Baum (--sysroot): dort gibt es nichts zu lesen, also lässt sich nichts messen (diagnose --static prüft einen aufgezeichneten Baum)</translation>
    </message>
    <message>
        <source>reading %1 failed</source>
        <translation>Lesen von %1 ist fehlgeschlagen</translation>
    </message>
    <message>
        <source>measuring %1 was cancelled</source>
        <translation>Messen von %1 wurde abgebrochen</translation>
    </message>
    <message>
        <source>setting read_ahead_kb %1 on %2 failed</source>
        <translation>read_ahead_kb %1 auf %2 setzen ist fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1 is too small for two streams</source>
        <translation>%1 ist zu klein für zwei Datenströme</translation>
    </message>
    <message>
        <source>--budget %1 ms is too short for the %2 readahead points of %3 (each measured %4 times or more, %5 runs of %6 ms at least: at least %7 s)</source>
        <translation>--budget %1 ms ist zu kurz für die %2 Readahead-Punkte von %3 (jeder %4-mal oder öfter gemessen, %5 Läufe zu mindestens %6 ms: mindestens %7 s)</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1 has no &quot;%2&quot; (each point needs &quot;read_ahead_kb&quot; and &quot;mb_per_s&quot;)</source>
        <translation>%1 hat kein „%2“ (jeder Punkt braucht „read_ahead_kb“ und „mb_per_s“)</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not a number</source>
        <translation>%1: „%2“ ist keine Zahl</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is %3; it must be 0 or more</source>
        <translation>%1: „%2“ ist %3; erlaubt sind 0 oder mehr</translation>
    </message>
    <message>
        <source>point %1</source>
        <translation>Punkt %1</translation>
    </message>
    <message>
        <source>%1 is not an object ({&quot;read_ahead_kb&quot;: N, &quot;mb_per_s&quot;: X})</source>
        <translation>%1 ist kein Objekt ({&quot;read_ahead_kb&quot;: N, &quot;mb_per_s&quot;: X})</translation>
    </message>
    <message>
        <source>%1: read_ahead_kb %2 is not a whole number from 1 to 4194304 (4 GiB)</source>
        <translation>%1: read_ahead_kb %2 ist keine ganze Zahl von 1 bis 4194304 (4 GiB)</translation>
    </message>
    <message>
        <source>%1: mb_per_s %2 is more than any device reads (10000000 at most)</source>
        <translation>%1: mb_per_s %2 ist mehr, als ein Gerät liest (höchstens 10000000)</translation>
    </message>
    <message>
        <source>%1: &quot;runs&quot; holds something that is not an MB/s of 0 or more</source>
        <translation>%1: „runs“ enthält etwas, das keine MB/s von 0 oder mehr ist</translation>
    </message>
    <message>
        <source>no curve: expected {&quot;curve&quot;: [{&quot;read_ahead_kb&quot;: N, &quot;mb_per_s&quot;: X}, ...]} or the output of sweep --json or advise --json</source>
        <translation>keine Kurve: erwartet wird {&quot;curve&quot;: [{&quot;read_ahead_kb&quot;: N, &quot;mb_per_s&quot;: X}, ...]} oder die Ausgabe von sweep --json oder advise --json</translation>
    </message>
    <message>
        <source>read_ahead_kb %1 is given twice (points are one per readahead; put repeated runs in &quot;runs&quot;)</source>
        <translation>read_ahead_kb %1 ist zweimal angegeben (ein Punkt je Readahead; wiederholte Läufe gehören in „runs“)</translation>
    </message>
    <message numerus="yes">
        <source>the curve has %n point(s); a knee needs at least 2</source>
        <translation>
            <numerusform>die Kurve hat %n Punkt; ein Knie braucht mindestens 2</numerusform>
            <numerusform>die Kurve hat %n Punkte; ein Knie braucht mindestens 2</numerusform>
        </translation>
    </message>
    <message>
        <source>not JSON (%1 at byte %2)</source>
        <translation>kein JSON (%1 bei Byte %2)</translation>
    </message>
    <message>
        <source>not a JSON object: expected {&quot;curve&quot;: [...]}</source>
        <translation>kein JSON-Objekt: erwartet wird {&quot;curve&quot;: [...]}</translation>
    </message>
    <message>
        <source>%1&apos;s read_ahead_kb %2 is below the array&apos;s floor of %3 KiB (2 x stripe), which re-assembly or a reshape sets again, so this value will not last</source>
        <translation>Der read_ahead_kb-Wert %2 von %1 liegt unter der Untergrenze des Arrays von %3 KiB (2 × Stripe), die ein erneutes Zusammensetzen oder ein Reshape wieder setzt; dieser Wert hält also nicht</translation>
    </message>
    <message>
        <source>%1 is a partition: its readahead is %2&apos;s, shared with every partition of that disk, so a change here changes them all</source>
        <translation>%1 ist eine Partition: Ihr Readahead ist der von %2 und gilt für alle Partitionen dieser Platte; eine Änderung hier ändert ihn für alle</translation>
    </message>
    <message>
        <source>%1 is an LVM volume (%2): activation sets its readahead from the volume&apos;s metadata (lvchange -r), so a value set here lasts only until the next activation</source>
        <translation>%1 ist ein LVM-Volume (%2): Beim Aktivieren wird sein Readahead aus den Metadaten des Volumes gesetzt (lvchange -r); ein hier gesetzter Wert hält nur bis zur nächsten Aktivierung</translation>
    </message>
    <message>
        <source>%1 is not stated: %2 by %3%, past its threshold of %4%, but the runs&apos; noise (+-%5% combined, %6 runs each) is as large, so the measurement cannot separate them; diagnose again when the machine is quieter</source>
        <translation>%1 wird nicht festgestellt: %2, um %3 % und damit über der Schwelle von %4 %, doch das Rauschen der Durchläufe (±%5 % zusammen, je %6 Durchläufe) ist ebenso groß, die Messung kann beides also nicht trennen; diagnostizieren Sie erneut, wenn die Maschine ruhiger ist</translation>
    </message>
    <message>
        <source>at %1 KiB the stream was faster than at %2 KiB</source>
        <translation>mit %1 KiB war der Datenstrom schneller als mit %2 KiB</translation>
    </message>
    <message>
        <source>readahead is the blocking factor on %1: at %2 KiB the stream&apos;s requests average %3 KiB and it reads %4; at %5 KiB requests grow to %6 KiB and it reads %7 (medians of %8 runs each, noise +-%9%)</source>
        <translation>Der Readahead bremst %1: Mit %2 KiB sind die Anfragen des Datenstroms im Mittel %3 KiB groß und er liest %4; mit %5 KiB wachsen sie auf %6 KiB und er liest %7 (Mediane aus je %8 Durchläufen, Rauschen ±%9 %)</translation>
    </message>
    <message>
        <source>buffered reads were slower than raw O_DIRECT reads</source>
        <translation>gepufferte Lesevorgänge waren langsamer als direkte mit O_DIRECT</translation>
    </message>
    <message>
        <source>buffered reads of %1 reach %2% of what the device delivers (%3 of %4 raw)</source>
        <translation>Gepufferte Lesevorgänge auf %1 erreichen %2 % dessen, was das Gerät liefert (%3 von %4 direkt)</translation>
    </message>
    <message>
        <source>; readahead %1 KiB brings them to %2%</source>
        <translation>; mit %1 KiB Readahead erreichen sie %2 %</translation>
    </message>
    <message>
        <source>; readahead %1 KiB brings them to %2%, so readahead is the cause and a value larger still is needed (blocktune-cli advise %3 finds it)</source>
        <translation>; mit %1 KiB Readahead erreichen sie %2 %, der Readahead ist also die Ursache und ein noch größerer Wert nötig (blocktune-cli advise %3 findet ihn)</translation>
    </message>
    <message>
        <source> and a larger readahead does not close the gap: the page-cache copy, the CPU or request size (max_sectors_kb %1) is the likelier limit</source>
        <translation>, und ein größerer Readahead schließt die Lücke nicht: Eher begrenzen das Kopieren aus dem Page-Cache, die CPU oder die Anfragegröße (max_sectors_kb %1)</translation>
    </message>
    <message>
        <source>the members of %1 share reads unevenly: %2 served %3% of the bytes where an even share is %4% (Jain&apos;s index %5)</source>
        <translation>Die Mitglieder von %1 teilen sich die Lesevorgänge ungleich: %2 lieferte %3 % der Bytes, bei gleicher Verteilung wären es %4 % (Jain-Index %5)</translation>
    </message>
    <message>
        <source>the stream was slower beside a second one than alone</source>
        <translation>der Datenstrom war neben einem zweiten langsamer als allein</translation>
    </message>
    <message>
        <source>the two streams&apos; rates differed</source>
        <translation>die Raten der beiden Datenströme unterschieden sich</translation>
    </message>
    <message>
        <source>with a second stream running, the measured stream on %1 drops to %2% of its rate alone (%3 -&gt; %4, the other stream %5; Jain %6, scheduler %7; medians of %8 runs)</source>
        <translation>Läuft ein zweiter Datenstrom, fällt der gemessene auf %1 auf %2 % seiner Rate allein (%3 → %4, der andere Datenstrom %5; Jain %6, Scheduler %7; Mediane aus %8 Durchläufen)</translation>
    </message>
    <message>
        <source>the device read more than %1&apos;s readers consumed</source>
        <translation>das Gerät las mehr, als die Leser der Last %1 verbrauchten</translation>
    </message>
    <message>
        <source>%1 sequential and %2 random readers</source>
        <translation>den %1 sequenziellen und %2 zufälligen Lesern</translation>
    </message>
    <message>
        <source>reader</source>
        <translation>dem Leser</translation>
    </message>
    <message>
        <source>%1 readers</source>
        <translation>den %1 Lesern</translation>
    </message>
    <message>
        <source>readahead %1 KiB on %2 is wasted on the %3 workload: the device read %4 x the bytes its %5 consumed (median of %6 runs, +-%7%), pages fetched that no reader used</source>
        <translation>Readahead %1 KiB auf %2 ist bei der Last %3 verschwendet: Das Gerät las das %4-Fache der von %5 verbrauchten Bytes (Median aus %6 Durchläufen, ±%7 %), also Seiten, die kein Leser brauchte</translation>
    </message>
    <message>
        <source>; at %1 KiB it read %2 x (measured), the readers %3 against %4</source>
        <translation>; mit %1 KiB las es das %2-Fache (gemessen), die Leser %3 statt %4</translation>
    </message>
    <message>
        <source>; about %1 KiB (the readahead divided by the ratio, a power of two; not measured) should stop it</source>
        <translation>; etwa %1 KiB (der Readahead geteilt durch das Verhältnis, als Zweierpotenz; nicht gemessen) sollten das beenden</translation>
    </message>
    <message>
        <source>reads of %1 wait longer in the queue than on the device: p99 %2 queued against %3 on the device (log2 buckets, scheduler %4, nr_requests %5), so the scheduler or nr_requests holds requests back</source>
        <translation>Lesevorgänge auf %1 warten länger in der Warteschlange als auf dem Gerät: p99 %2 in der Warteschlange gegen %3 auf dem Gerät (log2-Klassen, Scheduler %4, nr_requests %5); der Scheduler oder nr_requests hält Anfragen also zurück</translation>
    </message>
    <message>
        <source>%1 is the slow member of %2: its reads took %3 on the device (p99) where the other members&apos; median is %4 (%5x); the array waits for it</source>
        <translation>%1 ist das langsame Mitglied von %2: Seine Lesevorgänge brauchten auf dem Gerät %3 (p99), der Median der anderen Mitglieder ist %4 (%5-fach); das Array wartet darauf</translation>
    </message>
    <message>
        <source>readahead caps the streams on %1: %2 of %3 async windows (%4%) reached read_ahead_kb %5, %6% of the %7 pages read ahead were used, and used pages waited %8 ms (p50) in the page cache: the readers take each window as it arrives, so a larger readahead serves them larger requests (descriptors keep the value they were opened with: reopen them)</source>
        <translation>Der Readahead begrenzt die Datenströme auf %1: %2 von %3 asynchronen Fenstern (%4 %) erreichten read_ahead_kb %5, %6 % der %7 vorausgelesenen Seiten wurden genutzt, und genutzte Seiten warteten %8 ms (p50) im Page-Cache: Die Leser nehmen jedes Fenster, sobald es ankommt, daher bedient ein größerer Readahead sie mit größeren Anfragen (Deskriptoren behalten den Wert, mit dem sie geöffnet wurden: neu öffnen)</translation>
    </message>
    <message>
        <source>readahead is wasted on %1: %2% of the %3 pages read ahead left the page cache unused (%4 still cached unused); its streams used about %5 KiB each (used pages per sync window), far less than read_ahead_kb %6</source>
        <translation>Der Readahead ist auf %1 verschwendet: %2 % der %3 vorausgelesenen Seiten verließen den Page-Cache ungenutzt (%4 noch ungenutzt im Cache); seine Datenströme nutzten je etwa %5 KiB (genutzte Seiten pro synchronem Fenster), weit weniger als read_ahead_kb %6</translation>
    </message>
    <message>
        <source>: %1 KiB serves them and reads less for nobody</source>
        <translation>: %1 KiB bedienen sie und lesen weniger für niemanden</translation>
    </message>
    <message>
        <source>: the reads are too short for readahead to help</source>
        <translation>: Die Lesevorgänge sind zu kurz, als dass Readahead helfen könnte</translation>
    </message>
    <message>
        <source>streams on %1 are read by several tasks through separate descriptors: %2 of %3 sync windows (%4%) restarted a stream another task&apos;s descriptor read nearby just before, so each descriptor&apos;s readahead starts over instead of growing; read each stream through one descriptor, or group the server&apos;s I/O threads (one I/O context), as the SCST thread found</source>
        <translation>Datenströme auf %1 werden von mehreren Tasks über getrennte Deskriptoren gelesen: %2 von %3 synchronen Fenstern (%4 %) starteten einen Datenstrom neu, den der Deskriptor eines anderen Tasks kurz zuvor in der Nähe gelesen hatte, daher beginnt der Readahead jedes Deskriptors von vorn, statt zu wachsen; jeden Datenstrom über einen Deskriptor lesen oder die I/O-Threads des Servers gruppieren (ein I/O-Kontext), wie der SCST-Thread herausfand</translation>
    </message>
    <message>
        <source>reads of %1 are random: %2 sync windows of %3 KiB (p50; p90 %4 KiB) and %5 async windows: the kernel reads what each read asks and no more, whatever read_ahead_kb is, so readahead does nothing here; keep it small (a large value serves only streams, and wastes on short ones)</source>
        <translation>Lesevorgänge auf %1 sind zufällig: %2 synchrone Fenster von %3 KiB (p50; p90 %4 KiB) und %5 asynchrone Fenster: Der Kernel liest, was jeder Lesevorgang verlangt, und nicht mehr, was auch immer read_ahead_kb ist, daher bewirkt Readahead hier nichts; klein halten (ein großer Wert dient nur Datenströmen und verschwendet bei kurzen)</translation>
    </message>
    <message>
        <source>%1 has no device number: the kernel&apos;s readahead cannot be counted for it</source>
        <translation>%1 hat keine Gerätenummer: Der Readahead des Kernels lässt sich dafür nicht zählen</translation>
    </message>
</context>
<context>
    <name>blocktune::ChangePreviewDialog</name>
    <message>
        <source>this machine</source>
        <translation>dieser Rechner</translation>
    </message>
    <message>
        <source>Devices it changes (tick the ones you mean):</source>
        <translation>Geräte, die sich ändern (haken Sie die gemeinten an):</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>Einstellung</translation>
    </message>
    <message>
        <source>Current → new</source>
        <translation>Aktuell → neu</translation>
    </message>
    <message>
        <source>What will be written</source>
        <translation>Was geschrieben wird</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>(new)</source>
        <translation>(neu)</translation>
    </message>
    <message>
        <source>Warnings:</source>
        <translation>Warnungen:</translation>
    </message>
    <message>
        <source>Nothing to write: every chosen device already has these values.</source>
        <translation>Nichts zu schreiben: Jedes gewählte Gerät hat diese Werte schon.</translation>
    </message>
    <message>
        <source>Planning for the devices ticked…</source>
        <translation>Plane für die angehakten Geräte …</translation>
    </message>
    <message>
        <source>Scope: only the devices listed. It lasts until it is changed again or the machine restarts; Revert session (Settings) brings the values from before back.</source>
        <translation>Umfang: nur die aufgeführten Geräte. Es gilt, bis es wieder geändert wird oder die Maschine neu startet; „Sitzung zurücknehmen“ (Einstellungen) holt die vorherigen Werte zurück.</translation>
    </message>
    <message numerus="yes">
        <source>Scope: only the devices listed, for %n s; then the values from before come back unless you keep it. The values from before are journaled, so a crash does not leave the trial behind.</source>
        <translation>
            <numerusform>Umfang: nur die aufgeführten Geräte, für %n s; dann kommen die vorherigen Werte zurück, außer Sie behalten es. Die vorherigen Werte stehen im Journal, daher bleibt der Versuch auch nach einem Absturz nicht zurück.</numerusform>
            <numerusform>Umfang: nur die aufgeführten Geräte, für %n s; dann kommen die vorherigen Werte zurück, außer Sie behalten es. Die vorherigen Werte stehen im Journal, daher bleibt der Versuch auch nach einem Absturz nicht zurück.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>blocktune::Common</name>
    <message>
        <source>kernel lockdown (confidentiality) forbids BPF programs that read kernel memory; boot with lockdown=integrity or none to use them</source>
        <translation>der Kernel-Lockdown (confidentiality) verbietet BPF-Programme, die Kernelspeicher lesen; zum Verwenden mit lockdown=integrity oder none booten</translation>
    </message>
    <message>
        <source>loading the BPF program needs root (or CAP_BPF and CAP_PERFMON): run as root</source>
        <translation>das BPF-Programm zu laden braucht root (oder CAP_BPF und CAP_PERFMON): als root ausführen</translation>
    </message>
    <message>
        <source>the BPF program failed at libbpf&apos;s %1 step: %2%3</source>
        <translation>das BPF-Programm scheiterte an libbpfs Schritt %1: %2%3</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>%1 lässt sich nicht öffnen: %2</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 lässt sich nicht lesen: %2</translation>
    </message>
    <message>
        <source>%1 does not hold a number: &apos;%2&apos;</source>
        <translation>%1 enthält keine Zahl: „%2“</translation>
    </message>
    <message>
        <source>%1 is not a list of choices: &apos;%2&apos;</source>
        <translation>%1 ist keine Auswahlliste: „%2“</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a block device name (a kernel name such as sda, sda1, nvme0n1, md0, dm-0 or loop0)</source>
        <translation>„%1“ ist kein Blockgerätename (ein Kernel-Name wie sda, sda1, nvme0n1, md0, dm-0 oder loop0)</translation>
    </message>
    <message>
        <source>no block device named &apos;%1&apos;</source>
        <translation>kein Blockgerät namens „%1“</translation>
    </message>
    <message>
        <source>refusing to write to %1: the value must be one line of at most 4096 bytes</source>
        <translation>in %1 wird nicht geschrieben: der Wert muss eine Zeile von höchstens 4096 Bytes sein</translation>
    </message>
    <message>
        <source>%1 does not exist</source>
        <translation>%1 existiert nicht</translation>
    </message>
    <message>
        <source>cannot open %1 for writing: %2</source>
        <translation>%1 lässt sich nicht zum Schreiben öffnen: %2</translation>
    </message>
    <message>
        <source>writing &apos;%1&apos; to %2 failed: %3</source>
        <translation>„%1“ nach %2 schreiben ist fehlgeschlagen: %3</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not a size (use a number of bytes, or with K, M, G, T as binary multiples: 64K, 256M, 1G)</source>
        <translation>%1: „%2“ ist keine Größe (eine Anzahl Bytes angeben, oder mit K, M, G, T als binären Vielfachen: 64K, 256M, 1G)</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not a duration (use 100ms, 10s, 2m or 1h)</source>
        <translation>%1: „%2“ ist keine Dauer (z. B. 100ms, 10s, 2m oder 1h)</translation>
    </message>
    <message>
        <source>%1: no sys/ directory there (expected a tree made by scripts/mk-sysroot.py or a copy of /sys and /proc)</source>
        <translation>%1: dort gibt es kein Verzeichnis sys/ (erwartet wird ein mit scripts/mk-sysroot.py erstellter Baum oder eine Kopie von /sys und /proc)</translation>
    </message>
    <message>
        <source>not a Linux sysfs tree: neither %1 nor %2 exists</source>
        <translation>kein Linux-sysfs-Baum: weder %1 noch %2 existiert</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is too large (at most 16E - 1 bytes: 18446744073709551615, 16383P)</source>
        <translation>%1: „%2“ ist zu groß (höchstens 16E - 1 Bytes: 18446744073709551615, 16383P)</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is too long (at most 277777777h)</source>
        <translation>%1: „%2“ ist zu lang (höchstens 277777777h)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; leads out of its folder</source>
        <translation>„%1“ führt aus seinem Ordner hinaus</translation>
    </message>
    <message>
        <source>%1 is a symbolic link, which is not followed here</source>
        <translation>%1 ist ein symbolischer Link, dem hier nicht gefolgt wird</translation>
    </message>
    <message>
        <source>%1 is not an absolute path</source>
        <translation>%1 ist kein absoluter Pfad</translation>
    </message>
    <message>
        <source>%1 lies in %2, which users other than root can change: use a folder whose every parent only root can write</source>
        <translation>%1 liegt in %2, das andere Benutzer als root ändern können: nehmen Sie einen Ordner, dessen übergeordnete Ordner nur root schreiben kann</translation>
    </message>
    <message>
        <source>%1 is a symbolic link: name the folder it leads to</source>
        <translation>%1 ist ein symbolischer Link: geben Sie den Ordner an, auf den er zeigt</translation>
    </message>
    <message>
        <source>%1 is a symbolic link in a folder that users other than root can write: not followed</source>
        <translation>%1 ist ein symbolischer Link in einem Ordner, den andere Benutzer als root schreiben können: ihm wird nicht gefolgt</translation>
    </message>
    <message>
        <source>cannot use %1 %2: %3</source>
        <translation>%1 %2 kann nicht benutzt werden: %3</translation>
    </message>
    <message>
        <source>%1 %2 is not a private directory: it must be owned by %3 and not be writable by group or others (it is owned by %4, mode %5)</source>
        <translation>%1 %2 ist kein privates Verzeichnis: es muss %3 gehören und darf für Gruppe und andere nicht schreibbar sein (es gehört %4, Modus %5)</translation>
    </message>
    <message>
        <source> or </source>
        <translation> oder </translation>
    </message>
    <message>
        <source>%1 is a symbolic link: refusing to write through it or over it (remove it, and find out who made it)</source>
        <translation>%1 ist ein symbolischer Link: es wird weder durch ihn noch über ihn geschrieben (entfernen Sie ihn und finden Sie heraus, wer ihn angelegt hat)</translation>
    </message>
    <message>
        <source>%1 is not a regular file: refusing to replace it</source>
        <translation>%1 ist keine reguläre Datei: sie wird nicht ersetzt</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>cannot write %1: %2; the previous file is unchanged</source>
        <translation>%1 kann nicht geschrieben werden: %2; die bisherige Datei ist unverändert</translation>
    </message>
    <message>
        <source>%1 was written, but its folder could not be synced: %2</source>
        <translation>%1 wurde geschrieben, aber sein Ordner konnte nicht synchronisiert werden: %2</translation>
    </message>
    <message>
        <source>refusing to write %1: %2</source>
        <translation>%1 wird nicht geschrieben: %2</translation>
    </message>
    <message>
        <source>refusing to write %1: not a regular file</source>
        <translation>%1 wird nicht geschrieben: keine reguläre Datei</translation>
    </message>
    <message>
        <source>refusing %1: its folder is %2, not below %3</source>
        <translation>%1 abgelehnt: sein Ordner ist %2, nicht unterhalb von %3</translation>
    </message>
    <message>
        <source>&apos;%1&apos; does not lead to a device directory under sysfs</source>
        <translation>„%1“ führt zu keinem Geräteverzeichnis in sysfs</translation>
    </message>
    <message>
        <source>%1 is no longer the folder it was (now %2)</source>
        <translation>%1 ist nicht mehr der Ordner, der er war (jetzt %2)</translation>
    </message>
</context>
<context>
    <name>blocktune::ConnectDialog</name>
    <message>
        <source>Connect to host</source>
        <translation>Mit Host verbinden</translation>
    </message>
    <message>
        <source>user@server or an ~/.ssh/config alias</source>
        <translation>benutzer@server oder ein Alias aus ~/.ssh/config</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>&amp;Host:</source>
        <translation>&amp;Host:</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>&amp;Verbinden</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>Verbinde mit %1…</translation>
    </message>
    <message>
        <source>blocktune runs &lt;tt&gt;ssh HOST blocktune-cli agent&lt;/tt&gt;: ssh checks the host key and authenticates as it always does, and blocktune must be installed there. Changes need root there, or the sudoers line of docs/cli.md (Remote hosts).</source>
        <translation>blocktune startet &lt;tt&gt;ssh HOST blocktune-cli agent&lt;/tt&gt;: ssh prüft den Host-Schlüssel und meldet an wie immer, und blocktune muss dort installiert sein. Änderungen brauchen dort root oder die sudoers-Zeile aus docs/cli.md (Remote hosts).</translation>
    </message>
</context>
<context>
    <name>blocktune::Console</name>
    <message>
        <source>DIR</source>
        <translation>VERZ</translation>
    </message>
    <message>
        <source>Select DEVICE (a kernel name such as loop0) at start.</source>
        <translation>GERÄT (ein Kernel-Name wie loop0) beim Start auswählen.</translation>
    </message>
    <message>
        <source>DEVICE</source>
        <translation>GERÄT</translation>
    </message>
    <message>
        <source>TAB</source>
        <translation>TAB</translation>
    </message>
    <message>
        <source>Linux block-device tuning console</source>
        <translation>Tuning-Konsole für Linux-Blockgeräte</translation>
    </message>
    <message>
        <source>Make a scratch 1 GiB direct-I/O loop device over a file, select it, and detach it when the console ends (root).</source>
        <translation>Ein Wegwerf-Loop-Gerät von 1 GiB mit Direct I/O über einer Datei anlegen, auswählen und beim Beenden der Konsole wieder lösen (root).</translation>
    </message>
    <message>
        <source>--demo makes a device on this machine; it does not go with --sysroot</source>
        <translation>--demo legt ein Gerät auf diesem System an; es passt nicht zu --sysroot</translation>
    </message>
    <message>
        <source>preparing a 1 GiB demo device...</source>
        <translation>ein Demo-Gerät von 1 GiB wird vorbereitet …</translation>
    </message>
    <message>
        <source>demo device %1 (1 GiB, direct I/O), detached when the console ends</source>
        <translation>Demo-Gerät %1 (1 GiB, Direct I/O), wird beim Beenden der Konsole gelöst</translation>
    </message>
    <message>
        <source>Open on TAB: settings, test, monitor, details, history, profiles, advise or diagnose.</source>
        <translation>Mit Reiter TAB öffnen: settings, test, monitor, details, history, profiles, advise oder diagnose.</translation>
    </message>
    <message>
        <source>--tab %1: unknown tab (use settings, test, monitor, details, history, profiles, advise or diagnose)</source>
        <translation>--tab %1: unbekannter Reiter (settings, test, monitor, details, history, profiles, advise oder diagnose angeben)</translation>
    </message>
    <message>
        <source>Read DIR/sys and DIR/proc (a recorded tree, or a snapshot FILE.tar.gz that blocktune-cli record wrote) instead of the live machine.</source>
        <translation>VERZ/sys und VERZ/proc (einen aufgezeichneten Baum oder einen Schnappschuss DATEI.tar.gz von blocktune-cli record) statt des laufenden Systems lesen.</translation>
    </message>
    <message>
        <source>Work on HOST (anything ssh takes: user@server, an ~/.ssh/config alias) through ssh HOST blocktune-cli agent.</source>
        <translation>Auf HOST arbeiten (alles, was ssh annimmt: benutzer@server, ein Alias aus ~/.ssh/config) über ssh HOST blocktune-cli agent.</translation>
    </message>
    <message>
        <source>HOST</source>
        <translation>HOST</translation>
    </message>
    <message>
        <source>With --host: passed to ssh as -F FILE.</source>
        <translation>Mit --host: an ssh als -F DATEI übergeben.</translation>
    </message>
    <message>
        <source>FILE</source>
        <translation>DATEI</translation>
    </message>
    <message>
        <source>With --host: passed to ssh as -o OPT (repeatable).</source>
        <translation>Mit --host: an ssh als -o OPT übergeben (wiederholbar).</translation>
    </message>
    <message>
        <source>OPT</source>
        <translation>OPT</translation>
    </message>
    <message>
        <source>With --host: the agent command on HOST (default: blocktune-cli agent).</source>
        <translation>Mit --host: der Agent-Befehl auf HOST (Vorgabe: blocktune-cli agent).</translation>
    </message>
    <message>
        <source>CMD</source>
        <translation>BEFEHL</translation>
    </message>
    <message>
        <source>--ssh-config, --ssh-option and --remote-command go with --host HOST</source>
        <translation>--ssh-config, --ssh-option und --remote-command gehören zu --host HOST</translation>
    </message>
    <message>
        <source>--host and %1 exclude each other</source>
        <translation>--host und %1 schließen einander aus</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>Verbinde mit %1…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>no display to open the console on (DISPLAY and WAYLAND_DISPLAY are unset); blocktune-cli works on a terminal</source>
        <translation>keine Anzeige, auf der sich die Konsole öffnen ließe (DISPLAY und WAYLAND_DISPLAY sind nicht gesetzt); blocktune-cli arbeitet im Terminal</translation>
    </message>
</context>
<context>
    <name>blocktune::DetailsView</name>
    <message>
        <source>not reported (0)</source>
        <translation>nicht gemeldet (0)</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message>
        <source>disk</source>
        <translation>Festplatte</translation>
    </message>
    <message>
        <source>partition %1 of %2</source>
        <translation>Partition %1 von %2</translation>
    </message>
    <message>
        <source>partition of %1</source>
        <translation>Partition von %1</translation>
    </message>
    <message>
        <source>md array</source>
        <translation>md-Array</translation>
    </message>
    <message>
        <source>device-mapper volume</source>
        <translation>Device-Mapper-Volume</translation>
    </message>
    <message>
        <source>loop device</source>
        <translation>Loop-Gerät</translation>
    </message>
    <message>
        <source>optical drive</source>
        <translation>optisches Laufwerk</translation>
    </message>
    <message>
        <source>other block device</source>
        <translation>anderes Blockgerät</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Copy as &amp;JSON</source>
        <translation>Als &amp;JSON kopieren</translation>
    </message>
    <message>
        <source>Copy this device as blocktune-cli list --json describes it</source>
        <translation>Dieses Gerät so kopieren, wie blocktune-cli list --json es beschreibt</translation>
    </message>
    <message>
        <source>%1:</source>
        <translation>%1:</translation>
    </message>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation>%1 (%2 Bytes)</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Device number</source>
        <translation>Gerätenummer</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Serial</source>
        <translation>Seriennummer</translation>
    </message>
    <message>
        <source>WWN</source>
        <translation>WWN</translation>
    </message>
    <message>
        <source>Transport</source>
        <translation>Anschluss</translation>
    </message>
    <message>
        <source>Rotational</source>
        <translation>Rotierend</translation>
    </message>
    <message>
        <source>yes (a spinning disk)</source>
        <translation>ja (eine drehende Festplatte)</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>Read-only</source>
        <translation>Nur lesbar</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>Removable</source>
        <translation>Wechselmedium</translation>
    </message>
    <message>
        <source>Stacking</source>
        <translation>Aufbau</translation>
    </message>
    <message>
        <source>Whole disk</source>
        <translation>Ganze Festplatte</translation>
    </message>
    <message>
        <source>Built on</source>
        <translation>Aufgebaut auf</translation>
    </message>
    <message>
        <source>Used by</source>
        <translation>Benutzt von</translation>
    </message>
    <message>
        <source>Physical disks underneath</source>
        <translation>Physische Festplatten darunter</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <source>Queue (of its disk %1: a partition has none of its own)</source>
        <translation>Warteschlange (ihrer Festplatte %1: eine Partition hat keine eigene)</translation>
    </message>
    <message>
        <source>%1 (%2 sectors of 512 bytes, as blockdev --getra counts)</source>
        <translation>%1 (%2 Sektoren zu 512 Bytes, wie blockdev --getra zählt)</translation>
    </message>
    <message>
        <source>%1 (available: %2)</source>
        <translation>%1 (verfügbar: %2)</translation>
    </message>
    <message>
        <source>built in, always on (no switch on this kernel)</source>
        <translation>eingebaut, immer an (dieser Kernel hat keinen Schalter)</translation>
    </message>
    <message>
        <source>%1 (switch: %2)</source>
        <translation>%1 (Schalter: %2)</translation>
    </message>
    <message>
        <source>on</source>
        <translation>an</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>Readahead</source>
        <translation>Readahead</translation>
    </message>
    <message>
        <source>I/O scheduler</source>
        <translation>I/O-Scheduler</translation>
    </message>
    <message>
        <source>Requests queued (nr_requests)</source>
        <translation>Anforderungen in der Warteschlange (nr_requests)</translation>
    </message>
    <message>
        <source>Largest request (max_sectors_kb)</source>
        <translation>Größte Anforderung (max_sectors_kb)</translation>
    </message>
    <message>
        <source>Hardware limit (max_hw_sectors_kb)</source>
        <translation>Grenze der Hardware (max_hw_sectors_kb)</translation>
    </message>
    <message>
        <source>Optimal I/O size</source>
        <translation>Optimale I/O-Größe</translation>
    </message>
    <message>
        <source>Minimum I/O size</source>
        <translation>Minimale I/O-Größe</translation>
    </message>
    <message>
        <source>Logical block size</source>
        <translation>Logische Blockgröße</translation>
    </message>
    <message>
        <source>Context readahead</source>
        <translation>Kontext-Readahead</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>Inhalt</translation>
    </message>
    <message>
        <source>Filesystem or signature</source>
        <translation>Dateisystem oder Signatur</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <source>UUID</source>
        <translation>UUID</translation>
    </message>
    <message>
        <source>%1 (slot %2, %3)</source>
        <translation>%1 (Platz %2, %3)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>no slot</source>
        <translation>kein Platz</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>Level</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>Layout</translation>
    </message>
    <message>
        <source>Member disks</source>
        <translation>Mitgliedsplatten</translation>
    </message>
    <message>
        <source>Chunk</source>
        <translation>Chunk</translation>
    </message>
    <message>
        <source>Stripe (data per row)</source>
        <translation>Stripe (Daten je Zeile)</translation>
    </message>
    <message>
        <source>Readahead floor</source>
        <translation>Readahead-Untergrenze</translation>
    </message>
    <message>
        <source>%1 (two stripes: the kernel raises a smaller readahead to it)</source>
        <translation>%1 (zwei Stripes: der Kernel hebt ein kleineres Readahead darauf an)</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Missing members</source>
        <translation>Fehlende Mitglieder</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>Mitglieder</translation>
    </message>
    <message>
        <source>Device-mapper volume</source>
        <translation>Device-Mapper-Volume</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Loop device</source>
        <translation>Loop-Gerät</translation>
    </message>
    <message>
        <source>Backing file</source>
        <translation>Datei dahinter</translation>
    </message>
    <message>
        <source>Direct I/O</source>
        <translation>Direct I/O</translation>
    </message>
    <message>
        <source>Select a device to see its details.</source>
        <translation>Ein Gerät auswählen, um seine Details zu sehen.</translation>
    </message>
    <message>
        <source>%1 is gone</source>
        <translation>%1 ist nicht mehr vorhanden</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
</context>
<context>
    <name>blocktune::DevicePane</name>
    <message>
        <source>Arrays and volumes</source>
        <translation>Arrays und Volumes</translation>
    </message>
    <message>
        <source>By disk (like lsblk)</source>
        <translation>Nach Festplatte (wie lsblk)</translation>
    </message>
    <message>
        <source>Tree arrangement</source>
        <translation>Anordnung der Liste</translation>
    </message>
    <message>
        <source>Arrays and volumes: what you tune at the top, members under their array.
By disk: disks at the top, what is built on them underneath.</source>
        <translation>Arrays und Volumes: was Sie einstellen, oben; Mitglieder unter ihrem Array.
Nach Festplatte: Festplatten oben, was auf ihnen aufbaut, darunter.</translation>
    </message>
    <message>
        <source>Hide &amp;empty</source>
        <translation>&amp;Leere ausblenden</translation>
    </message>
    <message>
        <source>Hide devices of size 0 (detached loop devices, card readers without a card)</source>
        <translation>Geräte der Größe 0 ausblenden (getrennte Loop-Geräte, Kartenleser ohne Karte)</translation>
    </message>
    <message>
        <source>Hide loop/&amp;zram/ram</source>
        <translation>Loop/&amp;zram/ram ausblenden</translation>
    </message>
    <message>
        <source>Name, model, serial or WWN</source>
        <translation>Name, Modell, Seriennummer oder WWN</translation>
    </message>
    <message>
        <source>Search devices</source>
        <translation>Geräte suchen</translation>
    </message>
    <message>
        <source>&amp;Search:</source>
        <translation>&amp;Suche:</translation>
    </message>
</context>
<context>
    <name>blocktune::DeviceTree</name>
    <message>
        <source>, readahead floor %1</source>
        <translation>, Readahead-Untergrenze %1</translation>
    </message>
    <message>
        <source>, degraded</source>
        <translation>, degradiert</translation>
    </message>
    <message>
        <source> (direct I/O)</source>
        <translation> (Direct I/O)</translation>
    </message>
    <message>
        <source>HDD</source>
        <translation>HDD</translation>
    </message>
    <message>
        <source>SSD</source>
        <translation>SSD</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Readahead KiB</source>
        <translation>Readahead KiB</translation>
    </message>
    <message>
        <source>Scheduler</source>
        <translation>Scheduler</translation>
    </message>
    <message>
        <source>Media</source>
        <translation>Medium</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>Einzelheiten</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>detached</source>
        <translation>getrennt</translation>
    </message>
    <message>
        <source>empty (no medium)</source>
        <translation>leer (kein Medium)</translation>
    </message>
    <message>
        <source>, on %1</source>
        <translation>, auf %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Serial</source>
        <translation>Seriennummer</translation>
    </message>
    <message>
        <source>WWN</source>
        <translation>WWN</translation>
    </message>
    <message>
        <source>Transport</source>
        <translation>Anschluss</translation>
    </message>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation>%1 (%2 Bytes)</translation>
    </message>
    <message>
        <source>Readahead and scheduler are those of %1 (a partition has no queue of its own)</source>
        <translation>Readahead und Scheduler sind die von %1 (eine Partition hat keine eigene Warteschlange)</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>Mitglieder</translation>
    </message>
    <message>
        <source>Chunk</source>
        <translation>Chunk</translation>
    </message>
    <message>
        <source>Stripe</source>
        <translation>Stripe</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>dm name</source>
        <translation>dm-Name</translation>
    </message>
    <message>
        <source>dm uuid</source>
        <translation>dm-UUID</translation>
    </message>
    <message>
        <source>Backing file</source>
        <translation>Datei dahinter</translation>
    </message>
    <message>
        <source>Built on</source>
        <translation>Aufgebaut auf</translation>
    </message>
    <message>
        <source>Used by</source>
        <translation>Benutzt von</translation>
    </message>
    <message>
        <source>Filesystem</source>
        <translation>Dateisystem</translation>
    </message>
    <message>
        <source>Block devices</source>
        <translation>Blockgeräte</translation>
    </message>
    <message>
        <source>Apply profile…</source>
        <translation>Profil anwenden…</translation>
    </message>
    <message>
        <source>Open the Profiles page with this device&apos;s settings in the preview</source>
        <translation>Die Profilseite mit den Einstellungen dieses Geräts in der Vorschau öffnen</translation>
    </message>
    <message>
        <source>%1 is gone: it was removed from the system</source>
        <translation>%1 ist fort: es wurde aus dem System entfernt</translation>
    </message>
    <message>
        <source>%1 is gone: the loop device was detached</source>
        <translation>%1 ist fort: das Loop-Gerät wurde gelöst</translation>
    </message>
    <message>
        <source>%1 is gone: its medium was removed</source>
        <translation>%1 ist fort: sein Medium wurde entnommen</translation>
    </message>
    <message>
        <source>%1 is gone: the name now belongs to another device</source>
        <translation>%1 ist fort: der Name gehört jetzt einem anderen Gerät</translation>
    </message>
</context>
<context>
    <name>blocktune::Devices</name>
    <message>
        <source>libudev cannot read a recorded tree (%1); walk sysfs instead</source>
        <translation>libudev kann keinen aufgezeichneten Baum lesen (%1); stattdessen sysfs durchlaufen</translation>
    </message>
    <message>
        <source>libudev could not be initialised</source>
        <translation>libudev ließ sich nicht initialisieren</translation>
    </message>
    <message>
        <source>cannot open the %1 uevent socket (netlink)</source>
        <translation>der %1-uevent-Socket (netlink) lässt sich nicht öffnen</translation>
    </message>
    <message>
        <source>cannot receive %1 uevents</source>
        <translation>%1-uevents lassen sich nicht empfangen</translation>
    </message>
    <message>
        <source>cannot write the demo device&apos;s file: %1</source>
        <translation>die Datei des Demo-Geräts lässt sich nicht schreiben: %1</translation>
    </message>
    <message>
        <source>cannot sync the demo device&apos;s file: %1</source>
        <translation>die Datei des Demo-Geräts lässt sich nicht synchronisieren: %1</translation>
    </message>
    <message>
        <source>a demo device needs at least 1 MiB</source>
        <translation>ein Demo-Gerät braucht mindestens 1 MiB</translation>
    </message>
    <message>
        <source>--demo attaches a loop device, which needs root: run the console as root for a demo device, or name a device of yours with --device</source>
        <translation>--demo bindet ein Loop-Gerät ein, was root erfordert: die Konsole für ein Demo-Gerät als root starten oder mit --device ein eigenes Gerät nennen</translation>
    </message>
    <message>
        <source>cannot create a file in %1 for the demo device: %2</source>
        <translation>in %1 lässt sich keine Datei für das Demo-Gerät anlegen: %2</translation>
    </message>
    <message>
        <source>cannot open /dev/loop-control: %1</source>
        <translation>/dev/loop-control lässt sich nicht öffnen: %1</translation>
    </message>
    <message>
        <source>no free loop device: %1</source>
        <translation>kein freies Loop-Gerät: %1</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>%1 lässt sich nicht öffnen: %2</translation>
    </message>
    <message>
        <source>cannot attach %1 to %2: %3</source>
        <translation>%1 lässt sich nicht an %2 binden: %3</translation>
    </message>
    <message>
        <source>every free loop device was taken by another process; try again</source>
        <translation>jedes freie Loop-Gerät wurde von einem anderen Prozess belegt; noch einmal versuchen</translation>
    </message>
    <message>
        <source>%1: what it is built on (slaves/) leads back to %1; its leaf disks are incomplete</source>
        <translation>%1: das, worauf es aufbaut (slaves/), führt zurück zu %1; seine Blattplatten sind unvollständig</translation>
    </message>
    <message>
        <source>%1: %2 cannot be read: %3 (shown as unknown)</source>
        <translation>%1: %2 kann nicht gelesen werden: %3 (als unbekannt angezeigt)</translation>
    </message>
    <message>
        <source>%1: %2 is missing (shown as unknown)</source>
        <translation>%1: %2 fehlt (als unbekannt angezeigt)</translation>
    </message>
    <message>
        <source>%1: %2 holds more than %3 bytes, longer than any sysfs attribute (shown as unknown)</source>
        <translation>%1: %2 enthält mehr als %3 Bytes, länger als jedes sysfs-Attribut (als unbekannt angezeigt)</translation>
    </message>
    <message>
        <source>%1: %2 is empty, not a number (shown as unknown)</source>
        <translation>%1: %2 ist leer, keine Zahl (als unbekannt angezeigt)</translation>
    </message>
    <message>
        <source>%1: %2 holds &apos;%3&apos;, not a number (shown as unknown)</source>
        <translation>%1: %2 enthält „%3“, keine Zahl (als unbekannt angezeigt)</translation>
    </message>
    <message>
        <source>%1: %2 holds &apos;%3&apos;, not a list of schedulers with the active one in brackets (shown as unknown)</source>
        <translation>%1: %2 enthält „%3“, keine Liste von Schedulern mit dem aktiven in eckigen Klammern (als unbekannt angezeigt)</translation>
    </message>
    <message>
        <source>%1: %2 holds &apos;%3&apos;, not MAJOR:MINOR (shown as unknown)</source>
        <translation>%1: %2 enthält „%3“, kein MAJOR:MINOR (als unbekannt angezeigt)</translation>
    </message>
    <message>
        <source>%1: its directory %2 cannot be opened: %3 (left out)</source>
        <translation>%1: sein Verzeichnis %2 kann nicht geöffnet werden: %3 (ausgelassen)</translation>
    </message>
</context>
<context>
    <name>blocktune::DiagnoseView</name>
    <message>
        <source>problem</source>
        <translation>Problem</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>Select a device</source>
        <translation>Gerät auswählen</translation>
    </message>
    <message>
        <source>Static checks only (no reads)</source>
        <translation>Nur statische Prüfungen (kein Lesen)</translation>
    </message>
    <message>
        <source>Diagnose</source>
        <translation>Diagnose</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>A recorded tree has nothing to read: only the static checks run here</source>
        <translation>Ein aufgezeichneter Baum hat nichts zu lesen: hier laufen nur die statischen Prüfungen</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>Beleg</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation>Abhilfe: %1</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <source>Set %1 on %2</source>
        <translation>%1 auf %2 setzen</translation>
    </message>
    <message>
        <source>No findings for %1</source>
        <translation>Keine Befunde für %1</translation>
    </message>
    <message numerus="yes">
        <source>%n finding(s) for %1</source>
        <translation>
            <numerusform>%n Befund für %1</numerusform>
            <numerusform>%n Befunde für %1</numerusform>
        </translation>
    </message>
    <message>
        <source> (static checks and measured reads)</source>
        <translation> (statische Prüfungen und gemessenes Lesen)</translation>
    </message>
    <message>
        <source> (static checks)</source>
        <translation> (statische Prüfungen)</translation>
    </message>
    <message>
        <source>read_ahead_kb NOT restored: %1</source>
        <translation>read_ahead_kb NICHT wiederhergestellt: %1</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>abgelehnt</translation>
    </message>
    <message>
        <source>Applied the fix for %1; checking again</source>
        <translation>Abhilfe für %1 angewendet; prüfe erneut</translation>
    </message>
    <message>
        <source>Diagnose %1</source>
        <translation>Diagnose von %1</translation>
    </message>
    <message>
        <source>Checking %1, then a few seconds of reads…</source>
        <translation>Prüfe %1, dann einige Sekunden Lesen…</translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation>Prüfe %1…</translation>
    </message>
    <message>
        <source>Diagnose checks the device&apos;s settings against its stack (readahead against md&apos;s and dm&apos;s floor, the scheduler, request sizes, the members of an array) and names what holds streaming reads back, with the fix for each finding. The checks read nothing and take under a second.</source>
        <translation>Die Diagnose prüft die Einstellungen des Geräts gegen seinen Stapel (Readahead gegen die Untergrenze von md und dm, den Scheduler, die Anfragegrößen, die Mitglieder eines Verbunds) und nennt, was sequentielles Lesen bremst, mit der Abhilfe zu jedem Befund. Die Prüfungen lesen nichts und dauern unter einer Sekunde.</translation>
    </message>
    <message>
        <source>Select a device in the tree.</source>
        <translation>Wählen Sie im Baum ein Gerät.</translation>
    </message>
    <message>
        <source>Diagnose %1: </source>
        <translation>Diagnose von %1: </translation>
    </message>
    <message numerus="yes">
        <source>Diagnose checks the device&apos;s settings against its stack (readahead against md&apos;s and dm&apos;s floor, the scheduler, request sizes, the members of an array) and names what holds streaming reads back, with the fix for each finding. The static checks read nothing and take under a second; unless &quot;Static checks only&quot; is ticked, it then reads for about %n s (the stream at its readahead and at a larger one, raw O_DIRECT reads, two streams side by side, each three times in turn, so a finding is stated only when it is larger than the noise) and puts every setting back.</source>
        <translation>
            <numerusform>Die Diagnose prüft die Einstellungen des Geräts gegen seinen Stapel (Readahead gegen die Untergrenze von md und dm, den Scheduler, die Anfragegrößen, die Mitglieder eines Verbunds) und nennt, was sequentielles Lesen bremst, mit der Abhilfe zu jedem Befund. Die statischen Prüfungen lesen nichts und dauern unter einer Sekunde; ist „Nur statische Prüfungen“ nicht angekreuzt, liest sie danach etwa %n Sekunde (den Datenstrom beim eingestellten und bei einem größeren Readahead, rohe O_DIRECT-Lesevorgänge, zwei Datenströme nebeneinander, jedes dreimal im Wechsel, sodass ein Befund nur genannt wird, wenn er größer als das Rauschen ist) und stellt jede Einstellung zurück.</numerusform>
            <numerusform>Die Diagnose prüft die Einstellungen des Geräts gegen seinen Stapel (Readahead gegen die Untergrenze von md und dm, den Scheduler, die Anfragegrößen, die Mitglieder eines Verbunds) und nennt, was sequentielles Lesen bremst, mit der Abhilfe zu jedem Befund. Die statischen Prüfungen lesen nichts und dauern unter einer Sekunde; ist „Nur statische Prüfungen“ nicht angekreuzt, liest sie danach etwa %n Sekunden (den Datenstrom beim eingestellten und bei einem größeren Readahead, rohe O_DIRECT-Lesevorgänge, zwei Datenströme nebeneinander, jedes dreimal im Wechsel, sodass ein Befund nur genannt wird, wenn er größer als das Rauschen ist) und stellt jede Einstellung zurück.</numerusform>
        </translation>
    </message>
    <message>
        <source>Readahead</source>
        <translation>Vorauslesen (Readahead)</translation>
    </message>
    <message>
        <source>The array&apos;s floor (2 × stripe)</source>
        <translation>Untergrenze des Arrays (2 × Stripe)</translation>
    </message>
    <message>
        <source>Stripe</source>
        <translation>Stripe</translation>
    </message>
    <message>
        <source>Whose readahead it is</source>
        <translation>Wessen Readahead es ist</translation>
    </message>
    <message>
        <source>LVM volume</source>
        <translation>LVM-Volume</translation>
    </message>
    <message>
        <source>Finding not stated</source>
        <translation>Befund nicht festgestellt</translation>
    </message>
    <message>
        <source>Effect measured</source>
        <translation>Gemessene Wirkung</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>Schwelle</translation>
    </message>
    <message>
        <source>Noise of the comparison</source>
        <translation>Rauschen des Vergleichs</translation>
    </message>
    <message>
        <source>Runs of each reading</source>
        <translation>Läufe je Messung</translation>
    </message>
    <message>
        <source>Average request</source>
        <translation>Mittlere Anfrage</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>Durchsatz</translation>
    </message>
    <message>
        <source>Spread of its runs</source>
        <translation>Streuung seiner Läufe</translation>
    </message>
    <message>
        <source>Interrupts per MB</source>
        <translation>Interrupts je MB</translation>
    </message>
    <message>
        <source>Larger readahead tried</source>
        <translation>Größerer Readahead versucht</translation>
    </message>
    <message>
        <source>Average request there</source>
        <translation>Mittlere Anfrage dort</translation>
    </message>
    <message>
        <source>Throughput there</source>
        <translation>Durchsatz dort</translation>
    </message>
    <message>
        <source>Spread of its runs there</source>
        <translation>Streuung seiner Läufe dort</translation>
    </message>
    <message>
        <source>Interrupts per MB there</source>
        <translation>Interrupts je MB dort</translation>
    </message>
    <message>
        <source>Share of raw reached there</source>
        <translation>Erreichter Anteil vom direkten Wert dort</translation>
    </message>
    <message>
        <source>Gain</source>
        <translation>Gewinn</translation>
    </message>
    <message>
        <source>Buffered reads</source>
        <translation>Gepufferte Lesevorgänge</translation>
    </message>
    <message>
        <source>Spread of the buffered runs</source>
        <translation>Streuung der gepufferten Läufe</translation>
    </message>
    <message>
        <source>Raw reads (O_DIRECT)</source>
        <translation>Direkte Lesevorgänge (O_DIRECT)</translation>
    </message>
    <message>
        <source>Spread of the raw runs</source>
        <translation>Streuung der direkten Läufe</translation>
    </message>
    <message>
        <source>Share of raw reached</source>
        <translation>Erreichter Anteil vom direkten Wert</translation>
    </message>
    <message>
        <source>Members&apos; shares of the bytes</source>
        <translation>Anteile der Mitglieder an den Bytes</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index (1 = even)</source>
        <translation>Jains Fairness-Index (1 = gleichmäßig)</translation>
    </message>
    <message>
        <source>The stream alone</source>
        <translation>Der Strom allein</translation>
    </message>
    <message>
        <source>Spread of its runs alone</source>
        <translation>Streuung seiner Läufe allein</translation>
    </message>
    <message>
        <source>The stream beside a second</source>
        <translation>Der Strom neben einem zweiten</translation>
    </message>
    <message>
        <source>Spread of its runs beside it</source>
        <translation>Streuung seiner Läufe daneben</translation>
    </message>
    <message>
        <source>The second stream</source>
        <translation>Der zweite Strom</translation>
    </message>
    <message>
        <source>Spread of the second&apos;s runs</source>
        <translation>Streuung der Läufe des zweiten</translation>
    </message>
    <message>
        <source>Share of its rate alone</source>
        <translation>Anteil seiner Rate allein</translation>
    </message>
    <message>
        <source>Scheduler</source>
        <translation>Scheduler</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>Arbeitslast</translation>
    </message>
    <message>
        <source>Sequential streams</source>
        <translation>Sequenzielle Ströme</translation>
    </message>
    <message>
        <source>Random readers</source>
        <translation>Zufällige Leser</translation>
    </message>
    <message>
        <source>Device read per byte used</source>
        <translation>Vom Gerät gelesen je genutztem Byte</translation>
    </message>
    <message>
        <source>Spread of that ratio</source>
        <translation>Streuung dieses Verhältnisses</translation>
    </message>
    <message>
        <source>Waste threshold</source>
        <translation>Schwelle für Verschwendung</translation>
    </message>
    <message>
        <source>Readahead that stops the waste</source>
        <translation>Readahead, der die Verschwendung beendet</translation>
    </message>
    <message>
        <source>Measured there</source>
        <translation>Dort gemessen</translation>
    </message>
    <message>
        <source>Device read per byte used there</source>
        <translation>Vom Gerät gelesen je genutztem Byte dort</translation>
    </message>
    <message>
        <source>Device read per byte used, by readahead</source>
        <translation>Vom Gerät gelesen je genutztem Byte, nach Readahead</translation>
    </message>
    <message>
        <source>Time queued, p99</source>
        <translation>Zeit in der Warteschlange, p99</translation>
    </message>
    <message>
        <source>Time on the device, p99</source>
        <translation>Zeit auf dem Gerät, p99</translation>
    </message>
    <message>
        <source>Time queued, p50</source>
        <translation>Zeit in der Warteschlange, p50</translation>
    </message>
    <message>
        <source>Time on the device, p50</source>
        <translation>Zeit auf dem Gerät, p50</translation>
    </message>
    <message>
        <source>Requests counted</source>
        <translation>Gezählte Anfragen</translation>
    </message>
    <message>
        <source>Queue depth (nr_requests)</source>
        <translation>Warteschlangentiefe (nr_requests)</translation>
    </message>
    <message>
        <source>Slow member</source>
        <translation>Langsames Mitglied</translation>
    </message>
    <message>
        <source>Times the others&apos; median</source>
        <translation>Vielfaches des Medians der anderen</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>Mitglieder</translation>
    </message>
    <message>
        <source>Share of the bytes</source>
        <translation>Anteil an den Bytes</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>± %1 %</source>
        <translation>± %1 %</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 ×</source>
        <translation>%1 ×</translation>
    </message>
    <message>
        <source>%1 per MB</source>
        <translation>%1 je MB</translation>
    </message>
    <message>
        <source>Apply the fix for %1 (%2)?</source>
        <translation>Die Korrektur für %1 (%2) anwenden?</translation>
    </message>
    <message>
        <source>Nothing was changed.</source>
        <translation>Nichts wurde geändert.</translation>
    </message>
    <message>
        <source>Applying the fix for %1…</source>
        <translation>Wende die Korrektur für %1 an …</translation>
    </message>
    <message>
        <source>Planning %1…</source>
        <translation>Plane %1 …</translation>
    </message>
    <message>
        <source>Readahead windows</source>
        <translation>Readahead-Fenster</translation>
    </message>
    <message>
        <source>Sync windows (a miss)</source>
        <translation>Sync-Fenster (ein Fehlzugriff)</translation>
    </message>
    <message>
        <source>Async windows (a stream)</source>
        <translation>Async-Fenster (ein Datenstrom)</translation>
    </message>
    <message>
        <source>Async windows at the cap</source>
        <translation>Async-Fenster an der Obergrenze</translation>
    </message>
    <message>
        <source>Share at the cap</source>
        <translation>Anteil an der Obergrenze</translation>
    </message>
    <message>
        <source>Pages read ahead</source>
        <translation>Vorausgelesene Seiten</translation>
    </message>
    <message>
        <source>Pages used</source>
        <translation>Genutzte Seiten</translation>
    </message>
    <message>
        <source>Pages evicted unused</source>
        <translation>Ungenutzt verdrängte Seiten</translation>
    </message>
    <message>
        <source>Pages still cached, unused</source>
        <translation>Seiten noch im Cache, ungenutzt</translation>
    </message>
    <message>
        <source>Share used</source>
        <translation>Genutzter Anteil</translation>
    </message>
    <message>
        <source>Share wasted</source>
        <translation>Verschwendeter Anteil</translation>
    </message>
    <message>
        <source>Wait of used pages, p50</source>
        <translation>Wartezeit genutzter Seiten, p50</translation>
    </message>
    <message>
        <source>Used per stream</source>
        <translation>Genutzt je Datenstrom</translation>
    </message>
    <message>
        <source>Window size, p50</source>
        <translation>Fenstergröße, p50</translation>
    </message>
    <message>
        <source>Sync window size, p50</source>
        <translation>Größe der Sync-Fenster, p50</translation>
    </message>
    <message>
        <source>Sync window size, p90</source>
        <translation>Größe der Sync-Fenster, p90</translation>
    </message>
    <message>
        <source>Interleaved restarts</source>
        <translation>Verschränkte Neustarts</translation>
    </message>
    <message>
        <source>Share of the sync windows</source>
        <translation>Anteil an den Sync-Fenstern</translation>
    </message>
    <message>
        <source>Threshold at the cap</source>
        <translation>Schwelle an der Obergrenze</translation>
    </message>
    <message>
        <source>Threshold used</source>
        <translation>Schwelle genutzt</translation>
    </message>
    <message>
        <source>Threshold wait</source>
        <translation>Schwelle Wartezeit</translation>
    </message>
    <message>
        <source>Threshold wasted</source>
        <translation>Schwelle verschwendet</translation>
    </message>
    <message>
        <source>Threshold restarts</source>
        <translation>Schwelle Neustarts</translation>
    </message>
    <message>
        <source>Threshold window size</source>
        <translation>Schwelle Fenstergröße</translation>
    </message>
    <message>
        <source>Threshold async</source>
        <translation>Schwelle async</translation>
    </message>
    <message>
        <source>this machine&apos;s readahead cannot be watched</source>
        <translation>der Readahead dieser Maschine kann nicht beobachtet werden</translation>
    </message>
    <message>
        <source>Watching is not possible here: %1</source>
        <translation>Beobachten ist hier nicht möglich: %1</translation>
    </message>
    <message>
        <source>Watch the running workload for</source>
        <translation>Die laufende Last beobachten für</translation>
    </message>
    <message>
        <source>Counts what the kernel&apos;s readahead does for the reads that run now, instead of measuring: Diagnose reads nothing itself</source>
        <translation>Zählt, was der Readahead des Kernels für die jetzt laufenden Lesevorgänge tut, statt zu messen: die Diagnose liest selbst nichts</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Seconds to watch</source>
        <translation>Sekunden der Beobachtung</translation>
    </message>
    <message>
        <source>How to read this</source>
        <translation>Wie man das liest</translation>
    </message>
    <message>
        <source>Or tick &quot;Watch the running workload&quot;: Diagnose then loads the kernel&apos;s readahead probe (a second or two), counts for the time chosen what readahead does for the reads that run now, and states the findings from that workload (readahead capped, wasted, streams interleaved, random reads) with the readahead to set. It makes no read of its own then.</source>
        <translation>Oder kreuzen Sie „Die laufende Last beobachten“ an: Die Diagnose lädt dann die Readahead-Sonde des Kernels (ein, zwei Sekunden), zählt für die gewählte Zeit, was der Readahead für die jetzt laufenden Lesevorgänge tut, und nennt die Befunde aus dieser Last (Readahead begrenzt, verschwendet, verschränkte Datenströme, zufällige Lesevorgänge) mit dem einzustellenden Readahead. Sie liest dann selbst nichts.</translation>
    </message>
    <message>
        <source>Watching the running workload is not possible here: %1.</source>
        <translation>Die laufende Last zu beobachten ist hier nicht möglich: %1.</translation>
    </message>
    <message>
        <source>on %1</source>
        <translation>auf %1</translation>
    </message>
    <message>
        <source>Stopped watching %1 after %2 s: no findings stated; nothing was read or changed.</source>
        <translation>Beobachtung von %1 nach %2 s beendet: keine Befunde genannt; nichts wurde gelesen oder geändert.</translation>
    </message>
    <message>
        <source> (static checks and the running workload, watched; no reads of ours)</source>
        <translation> (statische Prüfungen und die laufende Last, beobachtet; keine eigenen Lesevorgänge)</translation>
    </message>
    <message>
        <source>Loading the readahead probe to watch %1 (a second or two)…</source>
        <translation>Lade die Readahead-Sonde, um %1 zu beobachten (ein, zwei Sekunden)…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Beende…</translation>
    </message>
    <message numerus="yes">
        <source>Watching the workload on %1: %n s left (blocktune reads nothing; start or keep the workload running)</source>
        <translation>
            <numerusform>Beobachte die Last auf %1: noch %n s (blocktune liest nichts; starten Sie die Last oder lassen Sie sie laufen)</numerusform>
            <numerusform>Beobachte die Last auf %1: noch %n s (blocktune liest nichts; starten Sie die Last oder lassen Sie sie laufen)</numerusform>
        </translation>
    </message>
    <message>
        <source>Watched %1 for %2 s: the kernel read nothing ahead for it (no buffered reads of it ran). Diagnose read nothing itself.</source>
        <translation>%1 für %2 s beobachtet: der Kernel hat dafür nichts vorausgelesen (es liefen keine gepufferten Lesevorgänge darauf). Die Diagnose hat selbst nichts gelesen.</translation>
    </message>
    <message>
        <source>Watched %1 for %2 s (Diagnose read nothing itself). Readahead windows: %3 sync (a miss starts one), %4 async (a stream recognised), %5 mmap, %6 forced; window size %7 (p50), %8 windows at the cap; read_ahead_kb %9.</source>
        <translation>%1 für %2 s beobachtet (die Diagnose hat selbst nichts gelesen). Readahead-Fenster: %3 sync (ein Fehlzugriff beginnt eines), %4 async (ein Datenstrom erkannt), %5 mmap, %6 erzwungen; Fenstergröße %7 (p50), %8 Fenster an der Obergrenze; read_ahead_kb %9.</translation>
    </message>
    <message>
        <source>Pages read ahead: %1; used %2, evicted unused %3, still cached unused %4; used pages waited %5 (p50).</source>
        <translation>Vorausgelesene Seiten: %1; genutzt %2, ungenutzt verdrängt %3, noch ungenutzt im Cache %4; genutzte Seiten warteten %5 (p50).</translation>
    </message>
    <message>
        <source>Pages are not counted on this kernel: %1</source>
        <translation>Seiten werden auf diesem Kernel nicht gezählt: %1</translation>
    </message>
    <message>
        <source>%1 sync windows restarted a stream another task read nearby.</source>
        <translation>%1 Sync-Fenster starteten einen Datenstrom neu, den eine andere Task in der Nähe las.</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Measure&lt;/b&gt; (the default) reads the device itself for a few seconds: the stream at its readahead and at a larger one, raw reads, two streams side by side. Every setting it changes is put back.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Watch the running workload&lt;/b&gt; reads nothing: it counts, for the time chosen, what the kernel&apos;s readahead does for the reads that run now (the kernel&apos;s readahead tracepoints). Start the workload first, or keep it running: an idle device gives no findings.&lt;/p&gt;&lt;p&gt;A &lt;b&gt;sync window&lt;/b&gt; starts when a read misses the page cache; an &lt;b&gt;async window&lt;/b&gt; when a reader reaches the marker of the last one, so the kernel has recognised a stream. A window &lt;b&gt;at the cap&lt;/b&gt; is as large as read_ahead_kb allows. Pages read ahead are &lt;b&gt;used&lt;/b&gt; when someone read them, &lt;b&gt;evicted unused&lt;/b&gt; when they left the cache unread (wasted reads), and the &lt;b&gt;wait&lt;/b&gt; is how long used pages lay in the cache before they were read.&lt;/p&gt;&lt;p&gt;The findings: &lt;b&gt;readahead_capped&lt;/b&gt; (most async windows at the cap, nearly all used, read soon: a larger readahead serves larger requests), &lt;b&gt;readahead_wasted&lt;/b&gt; (most pages read ahead evicted unused: the smaller value named reads less for nobody), &lt;b&gt;streams_interleaved&lt;/b&gt; (several tasks read one stream through separate descriptors and keep restarting its window), &lt;b&gt;random_reads&lt;/b&gt; (only small sync windows: readahead does nothing here). A finding is stated only with enough events to tell (at least %1 windows and %2 pages read ahead).&lt;/p&gt;&lt;p&gt;Each card shows its evidence and, where a value helps, the read_ahead_kb to set; &lt;b&gt;Apply&lt;/b&gt; shows the change first and writes only what the preview showed. Programs keep the readahead of the descriptors they opened before: reopen them to see the new value.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Messen&lt;/b&gt; (die Voreinstellung) liest das Gerät selbst einige Sekunden lang: den Datenstrom beim eingestellten und bei einem größeren Readahead, rohe Lesevorgänge, zwei Datenströme nebeneinander. Jede Einstellung, die es ändert, wird zurückgestellt.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Die laufende Last beobachten&lt;/b&gt; liest nichts: es zählt für die gewählte Zeit, was der Readahead des Kernels für die jetzt laufenden Lesevorgänge tut (die Readahead-Tracepoints des Kernels). Starten Sie die Last vorher oder lassen Sie sie laufen: ein untätiges Gerät ergibt keine Befunde.&lt;/p&gt;&lt;p&gt;Ein &lt;b&gt;Sync-Fenster&lt;/b&gt; beginnt, wenn ein Lesevorgang den Seitencache verfehlt; ein &lt;b&gt;Async-Fenster&lt;/b&gt;, wenn ein Leser die Markierung des letzten erreicht, der Kernel also einen Datenstrom erkannt hat. Ein Fenster &lt;b&gt;an der Obergrenze&lt;/b&gt; ist so groß, wie read_ahead_kb erlaubt. Vorausgelesene Seiten sind &lt;b&gt;genutzt&lt;/b&gt;, wenn jemand sie gelesen hat, &lt;b&gt;ungenutzt verdrängt&lt;/b&gt;, wenn sie den Cache ungelesen verließen (verschwendete Lesevorgänge), und die &lt;b&gt;Wartezeit&lt;/b&gt; ist, wie lange genutzte Seiten im Cache lagen, bevor sie gelesen wurden.&lt;/p&gt;&lt;p&gt;Die Befunde: &lt;b&gt;readahead_capped&lt;/b&gt; (die meisten Async-Fenster an der Obergrenze, fast alle genutzt, bald gelesen: ein größerer Readahead bedient größere Anfragen), &lt;b&gt;readahead_wasted&lt;/b&gt; (die meisten vorausgelesenen Seiten ungenutzt verdrängt: der genannte kleinere Wert liest weniger für niemanden), &lt;b&gt;streams_interleaved&lt;/b&gt; (mehrere Tasks lesen einen Datenstrom über getrennte Deskriptoren und starten sein Fenster immer wieder neu), &lt;b&gt;random_reads&lt;/b&gt; (nur kleine Sync-Fenster: Readahead bewirkt hier nichts). Ein Befund wird nur mit genug Ereignissen genannt (mindestens %1 Fenster und %2 vorausgelesene Seiten).&lt;/p&gt;&lt;p&gt;Jede Karte zeigt ihre Belege und, wo ein Wert hilft, das einzustellende read_ahead_kb; &lt;b&gt;Anwenden&lt;/b&gt; zeigt die Änderung zuerst und schreibt nur, was die Vorschau zeigte. Programme behalten den Readahead der Deskriptoren, die sie vorher geöffnet haben: öffnen Sie sie neu, um den neuen Wert zu sehen.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>blocktune::HistoryView</name>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Test</translation>
    </message>
    <message>
        <source>MB/s</source>
        <translation>MB/s</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>What ran</source>
        <translation>Was lief</translation>
    </message>
    <message>
        <source>Setting / result</source>
        <translation>Einstellung / Ergebnis</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Neu laden</translation>
    </message>
    <message>
        <source>Compare the two selected</source>
        <translation>Die zwei ausgewählten vergleichen</translation>
    </message>
    <message>
        <source>sweep (%1)</source>
        <translation>Reihe (%1)</translation>
    </message>
    <message>
        <source> (incomplete)</source>
        <translation> (unvollständig)</translation>
    </message>
    <message>
        <source>No tests kept yet: a finished read test or sweep appears here (%1)</source>
        <translation>Noch keine Tests gespeichert: ein beendeter Lesetest oder eine Reihe erscheint hier (%1)</translation>
    </message>
    <message numerus="yes">
        <source>%n record(s); select two to compare</source>
        <translation>
            <numerusform>%n Eintrag; zwei auswählen zum Vergleichen</numerusform>
            <numerusform>%n Einträge; zwei auswählen zum Vergleichen</numerusform>
        </translation>
    </message>
    <message>
        <source>A: #%1 %2</source>
        <translation>A: #%1 %2</translation>
    </message>
    <message>
        <source>B: #%1 %2</source>
        <translation>B: #%1 %2</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>differs</source>
        <translation>unterschiedlich</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>Ergebnisse</translation>
    </message>
    <message>
        <source>#%1 and #%2 side by side; changes read from A to B</source>
        <translation>#%1 und #%2 nebeneinander; Änderungen von A nach B</translation>
    </message>
    <message>
        <source>Advise from this sweep</source>
        <translation>Rat aus diesem Sweep</translation>
    </message>
    <message>
        <source>The advice the selected sweep&apos;s curve gives, as Advise computes it, without reading the device again</source>
        <translation>Der Rat, den die Kurve des gewählten Sweeps ergibt, so berechnet wie in „Beraten“, ohne das Gerät erneut zu lesen</translation>
    </message>
    <message>
        <source>advice (%1)</source>
        <translation>Rat (%1)</translation>
    </message>
</context>
<context>
    <name>blocktune::LatencyHeatmap</name>
    <message>
        <source>%1 us</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Latency heatmap</source>
        <translation>Latenz-Heatmap</translation>
    </message>
    <message>
        <source>Latency histograms are off.</source>
        <translation>Die Latenz-Histogramme sind aus.</translation>
    </message>
    <message>
        <source>Select a device to see its latency.</source>
        <translation>Wählen Sie ein Gerät, um seine Latenz zu sehen.</translation>
    </message>
    <message>
        <source>No latency heatmap: %1</source>
        <translation>Keine Latenz-Heatmap: %1</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>Anfragen</translation>
    </message>
    <message>
        <source>queue time</source>
        <translation>Wartezeit</translation>
    </message>
    <message>
        <source>device time</source>
        <translation>Gerätezeit</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>Latency per member: requests by latency bucket over time</source>
        <translation>Latenz je Mitglied: Anfragen je Latenzstufe über die Zeit</translation>
    </message>
    <message>
        <source>Latency of %1: requests by latency bucket over time</source>
        <translation>Latenz von %1: Anfragen je Latenzstufe über die Zeit</translation>
    </message>
    <message>
        <source>device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>seconds %1 to %2 in each device&apos;s block</source>
        <translation>Sekunden %1 bis %2 im Block jedes Geräts</translation>
    </message>
</context>
<context>
    <name>blocktune::MainWindow</name>
    <message>
        <source>blocktune</source>
        <translation>blocktune</translation>
    </message>
    <message>
        <source>blocktune — %1</source>
        <translation>blocktune — %1</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Read test</source>
        <translation>Lesetest</translation>
    </message>
    <message>
        <source>Monitor</source>
        <translation>Monitor</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message numerus="yes">
        <source>%n block device(s)</source>
        <translation>
            <numerusform>%n Blockgerät</numerusform>
            <numerusform>%n Blockgeräte</numerusform>
        </translation>
    </message>
    <message>
        <source> — following hotplug (%1 events)</source>
        <translation> — verfolgt Hotplug (%1-Ereignisse)</translation>
    </message>
    <message>
        <source>%1 %2 = %3</source>
        <translation>%1 %2 = %3</translation>
    </message>
    <message>
        <source>(machine)</source>
        <translation>(System)</translation>
    </message>
    <message>
        <source>Restore settings?</source>
        <translation>Einstellungen wiederherstellen?</translation>
    </message>
    <message>
        <source>A blocktune session ended without restoring what it changed (crash or kill). Restore these original values?

%1</source>
        <translation>Eine blocktune-Sitzung wurde beendet, ohne ihre Änderungen zurückzunehmen (Absturz oder kill). Diese ursprünglichen Werte wiederherstellen?

%1</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2: %3</translation>
    </message>
    <message numerus="yes">
        <source>%n temporary change(s) will be restored</source>
        <translation>
            <numerusform>%n vorübergehende Änderung wird wiederhergestellt</numerusform>
            <numerusform>%n vorübergehende Änderungen werden wiederhergestellt</numerusform>
        </translation>
    </message>
    <message>
        <source>writing…</source>
        <translation>schreibt …</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Device list</source>
        <translation>&amp;Geräteliste</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>How to read these &amp;plots</source>
        <translation>Wie man diese &amp;Diagramme liest</translation>
    </message>
    <message>
        <source>&amp;About blocktune</source>
        <translation>Ü&amp;ber blocktune</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>Letzter Fehler</translation>
    </message>
    <message>
        <source>last error: %1</source>
        <translation>letzter Fehler: %1</translation>
    </message>
    <message>
        <source>About blocktune</source>
        <translation>Über blocktune</translation>
    </message>
    <message>
        <source>&lt;h3&gt;blocktune %1&lt;/h3&gt;&lt;p&gt;A Linux block-device tuning console: see how devices stack, change readahead and the I/O scheduler safely, measure streaming reads honestly, watch the counters live.&lt;/p&gt;&lt;p&gt;Kernel %2&lt;br&gt;Qt %3 (built with %4)&lt;/p&gt;</source>
        <translation>&lt;h3&gt;blocktune %1&lt;/h3&gt;&lt;p&gt;Eine Konsole zum Einstellen von Linux-Blockgeräten: sehen, wie Geräte aufeinander aufbauen, Readahead und I/O-Scheduler sicher ändern, Streaming-Lesen ehrlich messen, die Zähler live beobachten.&lt;/p&gt;&lt;p&gt;Kernel %2&lt;br&gt;Qt %3 (gebaut mit %4)&lt;/p&gt;</translation>
    </message>
    <message>
        <source>How to read these plots</source>
        <translation>Wie man diese Diagramme liest</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Profiles</source>
        <translation>Profile</translation>
    </message>
    <message>
        <source>Advise</source>
        <translation>Empfehlen</translation>
    </message>
    <message>
        <source>Diagnose</source>
        <translation>Diagnose</translation>
    </message>
    <message>
        <source>&amp;Open snapshot…</source>
        <translation>&amp;Schnappschuss öffnen…</translation>
    </message>
    <message>
        <source>Open snapshot</source>
        <translation>Schnappschuss öffnen</translation>
    </message>
    <message>
        <source>blocktune snapshots (*.tar.gz *.tgz)</source>
        <translation>blocktune-Schnappschüsse (*.tar.gz *.tgz)</translation>
    </message>
    <message>
        <source>cannot make a folder to unpack %1 into: %2</source>
        <translation>kein Ordner zum Entpacken von %1: %2</translation>
    </message>
    <message>
        <source>%1 is a snapshot of a machine (blocktune-cli record): the console only shows it, nothing is applied or measured there</source>
        <translation>%1 ist der Schnappschuss einer Maschine (blocktune-cli record): die Konsole zeigt ihn nur, dort wird nichts angewendet oder gemessen</translation>
    </message>
    <message>
        <source>blocktune — snapshot %1</source>
        <translation>blocktune — Schnappschuss %1</translation>
    </message>
    <message>
        <source>&amp;Connect to host…</source>
        <translation>Mit &amp;Host verbinden…</translation>
    </message>
    <message>
        <source>%1: read-only</source>
        <translation>%1: nur lesen</translation>
    </message>
    <message numerus="yes">
        <source>%n temporary change(s) held there</source>
        <translation>
            <numerusform>%n vorübergehende Änderung dort gehalten</numerusform>
            <numerusform>%n vorübergehende Änderungen dort gehalten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>When the last connection to %1 ended (%2), the agent there restored %n temporary change(s)</source>
        <translation>
            <numerusform>Als die letzte Verbindung zu %1 endete (%2), hat der Agent dort %n vorübergehende Änderung wiederhergestellt</numerusform>
            <numerusform>Als die letzte Verbindung zu %1 endete (%2), hat der Agent dort %n vorübergehende Änderungen wiederhergestellt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n could not be restored (blocktune-cli --host %1 restore)</source>
        <translation>
            <numerusform>; %n ließ sich nicht wiederherstellen (blocktune-cli --host %1 restore)</numerusform>
            <numerusform>; %n ließen sich nicht wiederherstellen (blocktune-cli --host %1 restore)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>connection to %1 lost; %n temporary change(s) restored there</source>
        <translation>
            <numerusform>Verbindung zu %1 verloren; %n vorübergehende Änderung dort wiederhergestellt</numerusform>
            <numerusform>Verbindung zu %1 verloren; %n vorübergehende Änderungen dort wiederhergestellt</numerusform>
        </translation>
    </message>
    <message>
        <source>connection to %1 lost; no temporary change was held there</source>
        <translation>Verbindung zu %1 verloren; dort wurde keine vorübergehende Änderung gehalten</translation>
    </message>
    <message>
        <source>%1: disconnected</source>
        <translation>%1: getrennt</translation>
    </message>
    <message>
        <source>Connection lost</source>
        <translation>Verbindung verloren</translation>
    </message>
    <message>
        <source>&amp;Reconnect</source>
        <translation>&amp;Neu verbinden</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>Verbinde mit %1…</translation>
    </message>
    <message>
        <source>Reconnect</source>
        <translation>Neu verbinden</translation>
    </message>
    <message>
        <source>The read tests and sweeps kept on %1</source>
        <translation>Die auf %1 gespeicherten Lesetests und Messreihen</translation>
    </message>
    <message numerus="yes">
        <source> — following %1&apos;s hotplug (asked every %n s)</source>
        <translation>
            <numerusform> — folgt dem Hotplug von %1 (alle %n s gefragt)</numerusform>
            <numerusform> — folgt dem Hotplug von %1 (alle %n s gefragt)</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Throughput&lt;/b&gt; is what the device delivered (decimal MB/s, as dd prints). A sequential stream far below what the disk does alone usually waits on readahead: each request is only as large as the readahead window.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Interrupts/s&lt;/b&gt; fall as requests grow: the same MB/s in fewer, larger requests. Interrupts inversely proportional to readahead mean the window decides the request size.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Request size&lt;/b&gt; (rareq-sz, KiB) is the average read request the device saw. Buffered streaming requests as large as readahead: raise it and watch MB/s.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Queue depth&lt;/b&gt; (aqu-sz) is the average number of requests in flight; one stream at depth ~1 cannot keep several disks busy.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Member balance&lt;/b&gt; shows each md member&apos;s share of the bytes read and Jain&apos;s fairness index (1 = perfectly even). Uneven shares point at layout or stripe-size problems.&lt;/p&gt;&lt;p&gt;&lt;b&gt;The latency heatmap&lt;/b&gt; (Latency) counts requests by how long they waited: queue time above (held by the scheduler or nr_requests), device time below. Brighter cells higher up mean slower requests; in an array, the member whose column sits higher is the slow one.&lt;/p&gt;&lt;p&gt;&lt;b&gt;The Advise curve&lt;/b&gt; is the median of at least three cold runs at each readahead, measured in passes over the grid. The &lt;b&gt;plateau&lt;/b&gt; is the median of the best three points; the &lt;b&gt;knee&lt;/b&gt; is the smallest readahead within the tolerance (5%) of it, or within the run-to-run noise when that is wider: the points in that band are the same within noise, and more readahead there buys nothing measurable. Each step up costs readahead × the workload&apos;s streams in memory.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Durchsatz&lt;/b&gt; ist, was das Gerät geliefert hat (dezimale MB/s, wie dd sie ausgibt). Ein sequenzieller Datenstrom weit unter dem, was die Festplatte allein schafft, wartet meist auf Readahead: jede Anforderung ist nur so groß wie das Readahead-Fenster.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Interrupts/s&lt;/b&gt; sinken, wenn die Anforderungen wachsen: dieselben MB/s in weniger, größeren Anforderungen. Interrupts umgekehrt proportional zum Readahead heißen, dass das Fenster die Anforderungsgröße bestimmt.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Anforderungsgröße&lt;/b&gt; (rareq-sz, KiB) ist die mittlere Leseanforderung, die das Gerät gesehen hat. Gepuffertes Streaming fordert so viel an, wie Readahead erlaubt: Readahead erhöhen und die MB/s beobachten.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Warteschlangentiefe&lt;/b&gt; (aqu-sz) ist die mittlere Zahl der Anforderungen in Bearbeitung; ein Datenstrom bei Tiefe ~1 kann nicht mehrere Festplatten auslasten.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Lastverteilung&lt;/b&gt; zeigt den Anteil jedes md-Mitglieds an den gelesenen Bytes und Jains Fairness-Index (1 = völlig gleichmäßig). Ungleiche Anteile deuten auf Probleme mit Layout oder Stripe-Größe.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Die Latenz-Heatmap&lt;/b&gt; (Latenz) zählt Anfragen danach, wie lange sie gewartet haben: oben die Wartezeit in der Warteschlange (vom Scheduler oder nr_requests gehalten), unten die Gerätezeit. Hellere Zellen weiter oben bedeuten langsamere Anfragen; in einem Array ist das Mitglied, dessen Spalte höher liegt, das langsame.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Die Advise-Kurve&lt;/b&gt; ist der Median von mindestens drei kalten Läufen je Readahead, gemessen in Durchgängen über das Raster. Das &lt;b&gt;Plateau&lt;/b&gt; ist der Median der besten drei Punkte; das &lt;b&gt;Knie&lt;/b&gt; ist der kleinste Readahead innerhalb der Toleranz (5 %) davon, oder innerhalb des Rauschens von Lauf zu Lauf, wenn das breiter ist: Die Punkte in diesem Band sind im Rauschen gleich, und mehr Readahead bringt dort nichts Messbares. Jeder Schritt nach oben kostet Readahead × die Streams der Last an Speicher.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Rescan devices and profiles</source>
        <translation>Geräte und Profile neu &amp;einlesen</translation>
    </message>
    <message>
        <source>%1 is a recorded tree, a recording of a machine: read-only, the console only shows it (nothing is applied or measured there)</source>
        <translation>%1 ist ein aufgezeichneter Baum, die Aufzeichnung einer Maschine: nur lesbar, die Konsole zeigt ihn nur (dort wird nichts angewendet oder gemessen)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>&amp;Farbschema</translation>
    </message>
    <message>
        <source>Follow the &amp;desktop</source>
        <translation>Dem Desktop &amp;folgen</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>&amp;Hell</translation>
    </message>
    <message>
        <source>Dar&amp;k</source>
        <translation>&amp;Dunkel</translation>
    </message>
    <message>
        <source>a recording: read-only</source>
        <translation>eine Aufzeichnung: nur lesbar</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>nur lesbar</translation>
    </message>
    <message>
        <source>writes directly</source>
        <translation>schreibt direkt</translation>
    </message>
    <message>
        <source>writes through %1</source>
        <translation>schreibt über %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>a recording: writes change its files, not a machine</source>
        <translation>eine Aufzeichnung: Schreiben ändert ihre Dateien, keine Maschine</translation>
    </message>
    <message>
        <source>writes directly as root</source>
        <translation>schreibt direkt als root</translation>
    </message>
    <message>
        <source>writes through blocktune-helper via pkexec (polkit)</source>
        <translation>schreibt über blocktune-helper mit pkexec (polkit)</translation>
    </message>
    <message>
        <source>writes through blocktune-helper via sudo</source>
        <translation>schreibt über blocktune-helper mit sudo</translation>
    </message>
    <message>
        <source>writes through blocktune-helper</source>
        <translation>schreibt über blocktune-helper</translation>
    </message>
    <message>
        <source>writes through blocktune-helper via pkexec (polkit asks at the first change)</source>
        <translation>schreibt über blocktune-helper mit pkexec (polkit fragt bei der ersten Änderung)</translation>
    </message>
    <message numerus="yes">
        <source>The device list shown is from before: scanning failed (%1); trying again in %n s</source>
        <translation>
            <numerusform>Die angezeigte Geräteliste ist die vorherige: das Einlesen schlug fehl (%1); neuer Versuch in %n s</numerusform>
            <numerusform>Die angezeigte Geräteliste ist die vorherige: das Einlesen schlug fehl (%1); neuer Versuch in %n s</numerusform>
        </translation>
    </message>
    <message>
        <source>no reason given</source>
        <translation>ohne Angabe eines Grundes</translation>
    </message>
    <message>
        <source> — hotplug no longer followed (%1): F5 rescans</source>
        <translation> — Hotplug wird nicht mehr verfolgt (%1): F5 liest neu ein</translation>
    </message>
</context>
<context>
    <name>blocktune::Monitor</name>
    <message>
        <source>monitor interval %1 ms is out of range (10 ms to 1 h)</source>
        <translation>Monitor-Intervall %1 ms liegt außerhalb des Bereichs (10 ms bis 1 h)</translation>
    </message>
    <message>
        <source>the clock did not advance between two readings (%1 ns)</source>
        <translation>die Uhr ist zwischen zwei Messungen nicht weitergelaufen (%1 ns)</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>%1 lässt sich nicht öffnen: %2</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 lässt sich nicht lesen: %2</translation>
    </message>
    <message>
        <source>cannot read %1</source>
        <translation>%1 lässt sich nicht lesen</translation>
    </message>
    <message>
        <source>a group needs a name</source>
        <translation>eine Gruppe braucht einen Namen</translation>
    </message>
    <message>
        <source>no block device named &apos;%1&apos;</source>
        <translation>kein Blockgerät namens „%1“</translation>
    </message>
    <message>
        <source>a group needs at least two devices</source>
        <translation>eine Gruppe braucht mindestens zwei Geräte</translation>
    </message>
    <message>
        <source>latency histograms unavailable: </source>
        <translation>Latenz-Histogramme nicht verfügbar: </translation>
    </message>
    <message>
        <source>BLOCKTUNE_BPF_REFUSE=1 is set, so the BPF program was not loaded (unset it to load it)</source>
        <translation>BLOCKTUNE_BPF_REFUSE=1 ist gesetzt, daher wurde das BPF-Programm nicht geladen (zum Laden die Variable entfernen)</translation>
    </message>
    <message>
        <source>blocktune was built without BPF support (install clang, bpftool and libbpf-dev, then configure with -DBLOCKTUNE_BPF=ON)</source>
        <translation>blocktune wurde ohne BPF-Unterstützung gebaut (clang, bpftool und libbpf-dev installieren, dann mit -DBLOCKTUNE_BPF=ON konfigurieren)</translation>
    </message>
    <message>
        <source>the kernel has no BTF type information (/sys/kernel/btf/vmlinux is missing): it needs CONFIG_DEBUG_INFO_BTF=y</source>
        <translation>der Kernel hat keine BTF-Typinformation (/sys/kernel/btf/vmlinux fehlt): er braucht CONFIG_DEBUG_INFO_BTF=y</translation>
    </message>
    <message>
        <source>reading the BPF latency map failed: %1</source>
        <translation>das Lesen der BPF-Latenztabelle ist gescheitert: %1</translation>
    </message>
    <message>
        <source>latency histograms are off</source>
        <translation>Latenz-Histogramme sind aus</translation>
    </message>
    <message>
        <source>latency histograms unavailable: they measure the live machine, not a recorded tree (--sysroot)</source>
        <translation>Latenz-Histogramme nicht verfügbar: sie messen die laufende Maschine, keinen aufgezeichneten Baum (--sysroot)</translation>
    </message>
    <message>
        <source>attaching the BPF program to block_rq_insert failed: %1</source>
        <translation>das BPF-Programm ließ sich nicht an block_rq_insert anhängen: %1</translation>
    </message>
    <message>
        <source>readahead figures are off</source>
        <translation>Readahead-Zahlen sind aus</translation>
    </message>
    <message>
        <source>no readahead source was given to this monitor</source>
        <translation>diesem Monitor wurde keine Readahead-Quelle gegeben</translation>
    </message>
    <message>
        <source>loading the readahead probe (a BPF program; this takes a second or two)…</source>
        <translation>die Readahead-Sonde wird geladen (ein BPF-Programm; das dauert ein, zwei Sekunden)…</translation>
    </message>
    <message>
        <source>the readahead source did not open</source>
        <translation>die Readahead-Quelle ließ sich nicht öffnen</translation>
    </message>
</context>
<context>
    <name>blocktune::MonitorView</name>
    <message>
        <source>MB/s
(write dashed)</source>
        <translation>MB/s
(Schreiben gestrichelt)</translation>
    </message>
    <message>
        <source>read request
KiB</source>
        <translation>Leseanforderung
KiB</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>t %1 s</source>
        <translation>t %1 s</translation>
    </message>
    <message>
        <source>all interrupts/s</source>
        <translation>alle Interrupts/s</translation>
    </message>
    <message>
        <source>%1 interrupts/s</source>
        <translation>%1 Interrupts/s</translation>
    </message>
    <message>
        <source>%1 read MB/s</source>
        <translation>%1 Lesen MB/s</translation>
    </message>
    <message>
        <source>%1 write MB/s</source>
        <translation>%1 Schreiben MB/s</translation>
    </message>
    <message>
        <source>%1 irq/s (shared lines)</source>
        <translation>%1 IRQ/s (geteilte Leitungen)</translation>
    </message>
    <message>
        <source>%1 irq/s</source>
        <translation>%1 IRQ/s</translation>
    </message>
    <message>
        <source>%1 read request KiB</source>
        <translation>%1 Leseanforderung KiB</translation>
    </message>
    <message>
        <source>%1 aqu-sz</source>
        <translation>%1 aqu-sz</translation>
    </message>
    <message>
        <source>%1 in flight</source>
        <translation>%1 in Bearbeitung</translation>
    </message>
    <message>
        <source>%1 Jain %2</source>
        <translation>%1 Jain %2</translation>
    </message>
    <message>
        <source>missing: %1</source>
        <translation>fehlt: %1</translation>
    </message>
    <message>
        <source>Select a device to watch it live.</source>
        <translation>Ein Gerät auswählen, um es live zu beobachten.</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>group &apos;%1&apos; refused: %2</source>
        <translation>Gruppe „%1“ abgelehnt: %2</translation>
    </message>
    <message>
        <source>queue depth
(thin: in flight, 1 s mean)</source>
        <translation>Warteschlangentiefe
(dünn: laufend, 1-s-Mittel)</translation>
    </message>
    <message>
        <source>share of bytes read %
(even: dashed)</source>
        <translation>Anteil gelesener Bytes %
(gleichmäßig: gestrichelt)</translation>
    </message>
    <message>
        <source>read share %</source>
        <translation>Leseanteil %</translation>
    </message>
    <message>
        <source>%1: no reads in the last %2 s</source>
        <translation>%1: keine Lesezugriffe in den letzten %2 s</translation>
    </message>
    <message>
        <source>%1 read balance over the last %2 s: Jain&apos;s index %3 (1 = even, %4 = one member does all)</source>
        <translation>%1 Leseverteilung der letzten %2 s: Jain-Index %3 (1 = gleichmäßig, %4 = ein Mitglied macht alles)</translation>
    </message>
    <message>
        <source>Latest figures</source>
        <translation>Neueste Werte</translation>
    </message>
    <message>
        <source>Time span the plots show (one hour is kept); the mouse wheel over the plots zooms</source>
        <translation>Zeitspanne der Diagramme (eine Stunde wird aufbewahrt); das Mausrad über den Diagrammen zoomt</translation>
    </message>
    <message>
        <source>Time span</source>
        <translation>Zeitspanne</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>&amp;Pause</translation>
    </message>
    <message>
        <source>Freeze the plots; sampling goes on and shows when you resume</source>
        <translation>Diagramme anhalten; die Messung läuft weiter und erscheint beim Fortsetzen</translation>
    </message>
    <message>
        <source>E&amp;xport PNG…</source>
        <translation>Als PNG e&amp;xportieren…</translation>
    </message>
    <message>
        <source>Save the plots as they are on screen</source>
        <translation>Die Diagramme speichern, wie sie auf dem Bildschirm sind</translation>
    </message>
    <message>
        <source>Live plots</source>
        <translation>Live-Diagramme</translation>
    </message>
    <message>
        <source>Export the plots</source>
        <translation>Diagramme exportieren</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>cannot write %1 (check the folder exists and is writable)</source>
        <translation>%1 kann nicht geschrieben werden (prüfen Sie, ob der Ordner existiert und beschreibbar ist)</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <source>interrupts/s
(thick: all)</source>
        <translation>Interrupts/s
(dick: alle)</translation>
    </message>
    <message>
        <source>&amp;Latency</source>
        <translation>&amp;Latenz</translation>
    </message>
    <message>
        <source>A heatmap of each request&apos;s queue and device time, from the block layer (a BPF program; without root through blocktune-helper, which asks for a password). Members of an array side by side.</source>
        <translation>Eine Heatmap der Warte- und Gerätezeit jeder Anfrage, aus der Blockschicht (ein BPF-Programm; ohne root über blocktune-helper, der nach einem Passwort fragt). Die Mitglieder eines Arrays nebeneinander.</translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>und %n weiteres</numerusform>
            <numerusform>und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>This is a recording: its counters are frozen at the moment it was recorded, so nothing moves here. (A snapshot made by blocktune-cli record holds two readings a second apart and shows that interval.)</source>
        <translation>Dies ist eine Aufzeichnung: ihre Zähler stehen still, wie sie bei der Aufnahme waren, hier bewegt sich also nichts. (Ein Schnappschuss von blocktune-cli record enthält zwei Ablesungen im Abstand einer Sekunde und zeigt diesen Abschnitt.)</translation>
    </message>
    <message>
        <source>Counters frozen (a recording): nothing to plot</source>
        <translation>Zähler stehen still (eine Aufzeichnung): nichts zu zeichnen</translation>
    </message>
    <message>
        <source>This is a recording: its counters are frozen. Shown: the one interval it holds, %1 s between its two readings (proc/diskstats and proc/diskstats.2).</source>
        <translation>Dies ist eine Aufzeichnung: ihre Zähler stehen still. Gezeigt: der eine Abschnitt, den sie enthält, %1 s zwischen ihren zwei Ablesungen (proc/diskstats und proc/diskstats.2).</translation>
    </message>
    <message>
        <source>A recording has no block layer to trace</source>
        <translation>Eine Aufzeichnung hat keine Blockschicht, die sich verfolgen ließe</translation>
    </message>
    <message>
        <source>This is a recording: its counters are frozen.</source>
        <translation>Dies ist eine Aufzeichnung: ihre Zähler stehen still.</translation>
    </message>
    <message>
        <source>Rea&amp;dahead</source>
        <translation>Rea&amp;dahead</translation>
    </message>
    <message>
        <source>What the kernel&apos;s readahead does for the workload that runs now, per device: windows by kind, their size against the cap, pages used and wasted (a BPF program on its readahead tracepoints, loaded while this is on).</source>
        <translation>Was das Readahead des Kernels für die laufende Last tut, je Gerät: Fenster nach Art, ihre Größe gegen die Obergrenze, genutzte und verschwendete Seiten (ein BPF-Programm an seinen Readahead-Tracepoints, geladen, solange dies an ist).</translation>
    </message>
    <message>
        <source>Readahead cannot be watched here: %1</source>
        <translation>Readahead lässt sich hier nicht beobachten: %1</translation>
    </message>
    <message>
        <source>Loading the readahead probe (a BPF program; this takes a second or two)…</source>
        <translation>Die Readahead-Sonde wird geladen (ein BPF-Programm; das dauert ein, zwei Sekunden)…</translation>
    </message>
</context>
<context>
    <name>blocktune::PlotTableSwitch</name>
    <message>
        <source>series %1</source>
        <translation>Reihe %1</translation>
    </message>
    <message>
        <source>plot</source>
        <translation>Diagramm</translation>
    </message>
    <message>
        <source>Show as &amp;table</source>
        <translation>Als &amp;Tabelle</translation>
    </message>
    <message>
        <source>Show %1 as a table</source>
        <translation>%1 als Tabelle zeigen</translation>
    </message>
    <message>
        <source>The plot&apos;s numbers as a table: x and y per line</source>
        <translation>Die Zahlen des Diagramms als Tabelle: x und y je Linie</translation>
    </message>
    <message>
        <source>%1 as a table</source>
        <translation>%1 als Tabelle</translation>
    </message>
    <message>
        <source>map %1</source>
        <translation>Karte %1</translation>
    </message>
    <message>
        <source>x</source>
        <translation>x</translation>
    </message>
    <message>
        <source>y</source>
        <translation>y</translation>
    </message>
    <message>
        <source>count</source>
        <translation>Anzahl</translation>
    </message>
</context>
<context>
    <name>blocktune::Privilege</name>
    <message>
        <source>pkexec is not installed: install pkexec (polkit) or run as root</source>
        <translation>pkexec ist nicht installiert: pkexec (polkit) installieren oder als root ausführen</translation>
    </message>
    <message>
        <source>cannot run %1: not found or not executable</source>
        <translation>%1 lässt sich nicht ausführen: nicht gefunden oder nicht ausführbar</translation>
    </message>
    <message>
        <source>%1 is missing: install blocktune-helper (cmake --install or the blocktune package)</source>
        <translation>%1 fehlt: blocktune-helper installieren (cmake --install oder das Paket blocktune)</translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation>%1 lässt sich nicht starten: %2</translation>
    </message>
    <message>
        <source>blocktune-helper gave no answer within %1 s</source>
        <translation>blocktune-helper hat innerhalb von %1 s nicht geantwortet</translation>
    </message>
    <message>
        <source>blocktune-helper answered something that is not JSON: %1</source>
        <translation>blocktune-helper hat etwas geantwortet, das kein JSON ist: %1</translation>
    </message>
    <message>
        <source>blocktune-helper answered out of order</source>
        <translation>blocktune-helper hat in falscher Reihenfolge geantwortet</translation>
    </message>
    <message>
        <source>%1 is not a blocktune-helper speaking protocol %2 (%3)</source>
        <translation>%1 ist kein blocktune-helper mit Protokoll %2 (%3)</translation>
    </message>
    <message>
        <source>blocktune-helper is not running</source>
        <translation>blocktune-helper läuft nicht</translation>
    </message>
    <message>
        <source>blocktune-helper died (%1)</source>
        <translation>blocktune-helper ist abgestürzt (%1)</translation>
    </message>
    <message>
        <source>authorization was dismissed (pkexec exit 126); nothing was changed by the helper</source>
        <translation>die Autorisierung wurde abgebrochen (pkexec-Exit 126); das Hilfsprogramm hat nichts geändert</translation>
    </message>
    <message>
        <source>not authorized to change block device settings (pkexec exit 127)%1</source>
        <translation>nicht berechtigt, Einstellungen von Blockgeräten zu ändern (pkexec-Exit 127)%1</translation>
    </message>
    <message>
        <source>blocktune-helper exited with code %1%2</source>
        <translation>blocktune-helper wurde mit Code %1 beendet%2</translation>
    </message>
    <message>
        <source>blocktune-helper refused without a reason</source>
        <translation>blocktune-helper hat ohne Angabe von Gründen abgelehnt</translation>
    </message>
    <message>
        <source>cancelled while waiting for blocktune-helper%1</source>
        <translation>abgebrochen beim Warten auf blocktune-helper%1</translation>
    </message>
    <message>
        <source> (authorization)</source>
        <translation> (Autorisierung)</translation>
    </message>
    <message>
        <source>blocktune-helper ended the stream</source>
        <translation>blocktune-helper hat den Strom beendet</translation>
    </message>
    <message>
        <source>no latency stream was started</source>
        <translation>es wurde kein Latenz-Strom gestartet</translation>
    </message>
    <message>
        <source>latency histograms stopped: %1</source>
        <translation>Latenz-Histogramme angehalten: %1</translation>
    </message>
    <message>
        <source>latency histograms unavailable through blocktune-helper: %1</source>
        <translation>Latenz-Histogramme über blocktune-helper nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>blocktune-helper sent latency figures for %1 that do not parse</source>
        <translation>blocktune-helper hat für %1 Latenzwerte gesendet, die sich nicht lesen lassen</translation>
    </message>
    <message>
        <source>latency histograms unavailable: no block devices found</source>
        <translation>Latenz-Histogramme nicht verfügbar: keine Blockgeräte gefunden</translation>
    </message>
    <message>
        <source>blocktune-helper could not load its BPF program: %1</source>
        <translation>blocktune-helper konnte sein BPF-Programm nicht laden: %1</translation>
    </message>
    <message>
        <source>blocktune-helper could not be started: %1</source>
        <translation>blocktune-helper konnte nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>latency histograms unavailable: %1</source>
        <translation>Latenz-Histogramme nicht verfügbar: %1</translation>
    </message>
</context>
<context>
    <name>blocktune::ProfileWorker</name>
    <message numerus="yes">
        <source>Saved %n rule(s) as %1</source>
        <translation>
            <numerusform>%n Regel als %1 gespeichert</numerusform>
            <numerusform>%n Regeln als %1 gespeichert</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Reverted %1: %n value(s) restored</source>
        <translation>
            <numerusform>%1 zurückgesetzt: %n Wert wiederhergestellt</numerusform>
            <numerusform>%1 zurückgesetzt: %n Werte wiederhergestellt</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing to revert: no profile was applied since the last revert</source>
        <translation>Nichts zurückzusetzen: seit dem letzten Zurücksetzen wurde kein Profil angewendet</translation>
    </message>
    <message numerus="yes">
        <source>%1 would change %n setting(s)</source>
        <translation>
            <numerusform>%1 würde %n Einstellung ändern</numerusform>
            <numerusform>%1 würde %n Einstellungen ändern</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is refused here: nothing would change</source>
        <translation>%1 wird hier abgelehnt: nichts würde sich ändern</translation>
    </message>
    <message>
        <source>Nothing to change: every device already is as %1 says</source>
        <translation>Nichts zu ändern: jedes Gerät ist bereits so, wie %1 es sagt</translation>
    </message>
    <message numerus="yes">
        <source>Applied %1: %n write(s); Revert brings the values before back</source>
        <translation>
            <numerusform>%1 angewendet: %n Schreibvorgang; Zurücksetzen bringt die vorigen Werte zurück</numerusform>
            <numerusform>%1 angewendet: %n Schreibvorgänge; Zurücksetzen bringt die vorigen Werte zurück</numerusform>
        </translation>
    </message>
    <message>
        <source>refused</source>
        <translation>abgelehnt</translation>
    </message>
    <message>
        <source>matches</source>
        <translation>stimmt</translation>
    </message>
    <message>
        <source>drift</source>
        <translation>Abweichung</translation>
    </message>
    <message numerus="yes">
        <source>No drift: %n setting(s) as %1 says</source>
        <translation>
            <numerusform>Keine Abweichung: %n Einstellung wie in %1</numerusform>
            <numerusform>Keine Abweichung: %n Einstellungen wie in %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n drift(s) from %1</source>
        <translation>
            <numerusform>%n Abweichung von %1</numerusform>
            <numerusform>%n Abweichungen von %1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 does not resolve here</source>
        <translation>%1 lässt sich hier nicht auflösen</translation>
    </message>
    <message>
        <source>Exported %1 as %2 to %3</source>
        <translation>%1 als %2 nach %3 exportiert</translation>
    </message>
    <message>
        <source>Installed %1</source>
        <translation>%1 installiert</translation>
    </message>
    <message>
        <source>Tick the devices whose settings %1 keeps</source>
        <translation>Haken Sie die Geräte an, deren Einstellungen %1 behält</translation>
    </message>
    <message numerus="yes">
        <source>%1 would keep %n rule(s) in %2</source>
        <translation>
            <numerusform>%1 würde %n Regel in %2 behalten</numerusform>
            <numerusform>%1 würde %n Regeln in %2 behalten</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing saved: no device was chosen</source>
        <translation>Nichts gespeichert: Kein Gerät wurde gewählt</translation>
    </message>
    <message numerus="yes">
        <source>%1 would change %n setting(s) on the devices ticked</source>
        <translation>
            <numerusform>%1 würde %n Einstellung auf den angehakten Geräten ändern</numerusform>
            <numerusform>%1 würde %n Einstellungen auf den angehakten Geräten ändern</numerusform>
        </translation>
    </message>
    <message>
        <source>The devices changed since the preview: nothing was written; look at the new preview</source>
        <translation>Die Geräte haben sich seit der Vorschau geändert: Nichts wurde geschrieben; sehen Sie sich die neue Vorschau an</translation>
    </message>
</context>
<context>
    <name>blocktune::ProfilesView</name>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>Einstellung</translation>
    </message>
    <message>
        <source>Current</source>
        <translation>Aktuell</translation>
    </message>
    <message>
        <source>New / expected</source>
        <translation>Neu / erwartet</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>Vorschau</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <source>Verify</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Zurücknehmen</translation>
    </message>
    <message>
        <source>Save current…</source>
        <translation>Aktuelle speichern…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportieren…</translation>
    </message>
    <message>
        <source>Install at boot</source>
        <translation>Beim Start installieren</translation>
    </message>
    <message>
        <source>Save current settings</source>
        <translation>Aktuelle Einstellungen speichern</translation>
    </message>
    <message>
        <source>Profile name (letters, digits, _ . -):</source>
        <translation>Profilname (Buchstaben, Ziffern, _ . -):</translation>
    </message>
    <message>
        <source>Keep only what differs from the kernel&apos;s own defaults?</source>
        <translation>Nur behalten, was von den Vorgaben des Kernels abweicht?</translation>
    </message>
    <message>
        <source>Export %1</source>
        <translation>%1 exportieren</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>Arbeite…</translation>
    </message>
    <message numerus="yes">
        <source>%n profile(s)</source>
        <translation>
            <numerusform>%n Profil</numerusform>
            <numerusform>%n Profile</numerusform>
        </translation>
    </message>
    <message>
        <source>udev rules (*.rules)</source>
        <translation>udev-Regeln (*.rules)</translation>
    </message>
    <message>
        <source>tuned profile (tuned.conf)</source>
        <translation>tuned-Profil (tuned.conf)</translation>
    </message>
    <message>
        <source>change</source>
        <translation>ändern</translation>
    </message>
    <message>
        <source>change: %1</source>
        <translation>ändern: %1</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>unverändert</translation>
    </message>
    <message>
        <source>kept: %1</source>
        <translation>beibehalten: %1</translation>
    </message>
    <message>
        <source>skipped: %1</source>
        <translation>übersprungen: %1</translation>
    </message>
    <message>
        <source>Devices no rule matched: %1</source>
        <translation>Geräte ohne passende Regel: %1</translation>
    </message>
    <message>
        <source>Rule that matched nothing: %1</source>
        <translation>Regel ohne Treffer: %1</translation>
    </message>
    <message>
        <source>%1: read_ahead_kb %2 is below the kernel&apos;s floor of %3 KiB (2 x stripe): re-assembly or a reshape raises it again</source>
        <translation>%1: read_ahead_kb %2 liegt unter der Untergrenze des Kernels von %3 KiB (2 × Stripe): erneutes Zusammensetzen oder ein Reshape hebt es wieder an</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>All devices</source>
        <translation>Alle Geräte</translation>
    </message>
    <message>
        <source>Only this device</source>
        <translation>Nur dieses Gerät</translation>
    </message>
    <message>
        <source>Read-only: %1</source>
        <translation>Nur lesen: %1</translation>
    </message>
    <message>
        <source>Device: %1</source>
        <translation>Gerät: %1</translation>
    </message>
    <message>
        <source>selected</source>
        <translation>ausgewählt</translation>
    </message>
    <message>
        <source>holds %1: the system disk</source>
        <translation>enthält %1: die Systemplatte</translation>
    </message>
    <message>
        <source>Saved as %1; no device setting is changed.</source>
        <translation>Gespeichert als %1; keine Geräteeinstellung wird geändert.</translation>
    </message>
    <message>
        <source>Save the current settings as %1?</source>
        <translation>Die aktuellen Einstellungen als %1 speichern?</translation>
    </message>
    <message>
        <source>Apply the preset %1?</source>
        <translation>Die Vorlage %1 anwenden?</translation>
    </message>
    <message>
        <source>Apply the profile %1?</source>
        <translation>Das Profil %1 anwenden?</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Scope: only the devices ticked are saved, each matched by its most stable identity; nothing on the machine changes.</source>
        <translation>Umfang: Nur die angehakten Geräte werden gespeichert, jedes über seine beständigste Kennung; auf der Maschine ändert sich nichts.</translation>
    </message>
    <message>
        <source>Revert (Profiles) brings back what this profile changed.</source>
        <translation>„Zurücknehmen“ (Profile) holt zurück, was dieses Profil geändert hat.</translation>
    </message>
    <message>
        <source>Nothing was changed.</source>
        <translation>Nichts wurde geändert.</translation>
    </message>
    <message>
        <source>%1 is gone from the profile folders</source>
        <translation>%1 ist nicht mehr in den Profilordnern</translation>
    </message>
    <message>
        <source>Whether Apply&apos;s preview ticks the device at first: the device selected in the tree (a preset), or every device but the system disk (a profile of this machine)</source>
        <translation>Ob die Vorschau von „Anwenden“ das Gerät zu Beginn anhakt: das im Baum ausgewählte Gerät (eine Vorlage) oder jedes Gerät außer der Systemplatte (ein Profil dieser Maschine)</translation>
    </message>
    <message>
        <source>All devices; a preset ticks none by itself: select a device in the tree</source>
        <translation>Alle Geräte; eine Vorlage hakt von sich aus keines an: Wählen Sie ein Gerät im Baum</translation>
    </message>
    <message>
        <source>All devices; Apply ticks %1 (selected in the tree), others only when you do</source>
        <translation>Alle Geräte; „Anwenden“ hakt %1 an (im Baum ausgewählt), andere nur, wenn Sie sie anhaken</translation>
    </message>
    <message>
        <source>All devices; Apply ticks each one but the system disk</source>
        <translation>Alle Geräte; „Anwenden“ hakt jedes an außer der Systemplatte</translation>
    </message>
    <message>
        <source>ticked</source>
        <translation>angehakt</translation>
    </message>
    <message>
        <source>not ticked by default</source>
        <translation>anfangs nicht angehakt</translation>
    </message>
    <message>
        <source>not ticked by default; %1</source>
        <translation>anfangs nicht angehakt; %1</translation>
    </message>
    <message>
        <source>preset</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source>user</source>
        <translation>eigenes</translation>
    </message>
    <message>
        <source>system</source>
        <translation>System</translation>
    </message>
    <message>
        <source>file</source>
        <translation>Datei</translation>
    </message>
</context>
<context>
    <name>blocktune::ReadTest</name>
    <message>
        <source>read error on %1 at offset %2: %3</source>
        <translation>Lesefehler auf %1 bei Offset %2: %3</translation>
    </message>
    <message>
        <source>read on %1 at offset %2 returned no data before the end the device reported (it shrank during the test?)</source>
        <translation>Lesen auf %1 bei Offset %2 lieferte vor dem gemeldeten Geräteende keine Daten (ist das Gerät während des Tests geschrumpft?)</translation>
    </message>
    <message>
        <source>cannot open %1: %2%3</source>
        <translation>%1 lässt sich nicht öffnen: %2%3</translation>
    </message>
    <message>
        <source> (reading a block device needs root or the disk group)</source>
        <translation> (Lesen eines Blockgeräts erfordert root oder die Gruppe disk)</translation>
    </message>
    <message>
        <source>%1 is not a block device</source>
        <translation>%1 ist kein Blockgerät</translation>
    </message>
    <message>
        <source>cannot open %1%2: %3</source>
        <translation>%1 lässt sich%2 nicht öffnen: %3</translation>
    </message>
    <message>
        <source> with O_DIRECT</source>
        <translation> mit O_DIRECT</translation>
    </message>
    <message>
        <source>out of memory for a %1 read buffer</source>
        <translation>kein Speicher für einen Lesepuffer von %1</translation>
    </message>
    <message>
        <source>cannot start a reader thread: %1</source>
        <translation>ein Lese-Thread lässt sich nicht starten: %1</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation>%1 (%2 Bytes)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; names no device (use DEV or DEV@OFFSET, e.g. sdb or /dev/sdb@1G)</source>
        <translation>„%1“ nennt kein Gerät (GERÄT oder GERÄT@OFFSET angeben, z. B. sdb oder /dev/sdb@1G)</translation>
    </message>
    <message>
        <source>offset in &apos;%1&apos;</source>
        <translation>Offset in „%1“</translation>
    </message>
    <message>
        <source>--ra &apos;%1&apos;: empty value in the list (use KiB values separated by commas, e.g. 128,512,4096)</source>
        <translation>--ra „%1“: leerer Wert in der Liste (KiB-Werte durch Kommas getrennt angeben, z. B. 128,512,4096)</translation>
    </message>
    <message>
        <source>--ra value &apos;%1&apos;</source>
        <translation>--ra-Wert „%1“</translation>
    </message>
    <message>
        <source>--ra: &apos;%1&apos; is not a readahead size (use KiB numbers such as 128, or 512K, 4M)</source>
        <translation>--ra: „%1“ ist keine Readahead-Größe (KiB-Zahlen wie 128 oder 512K, 4M angeben)</translation>
    </message>
    <message>
        <source>--ra: &apos;%1&apos; is not a whole number of KiB</source>
        <translation>--ra: „%1“ ist keine ganze Zahl von KiB</translation>
    </message>
    <message>
        <source>--ra: %1 KiB is above the kernel&apos;s limit of %2 KiB</source>
        <translation>--ra: %1 KiB liegt über der Grenze des Kernels von %2 KiB</translation>
    </message>
    <message>
        <source>--ra: %1 KiB is listed twice</source>
        <translation>--ra: %1 KiB ist doppelt aufgeführt</translation>
    </message>
    <message>
        <source>--bs must be at least 1 byte (e.g. 4K, 64K, 1M)</source>
        <translation>--bs muss mindestens 1 Byte sein (z. B. 4K, 64K, 1M)</translation>
    </message>
    <message>
        <source>--bs %1 is too large (at most %2)</source>
        <translation>--bs %1 ist zu groß (höchstens %2)</translation>
    </message>
    <message>
        <source>give at most one of --size, --count and --time</source>
        <translation>höchstens eines von --size, --count und --time angeben</translation>
    </message>
    <message>
        <source>--size must be more than 0 bytes</source>
        <translation>--size muss größer als 0 Bytes sein</translation>
    </message>
    <message>
        <source>--count must be at least 1 block</source>
        <translation>--count muss mindestens 1 Block sein</translation>
    </message>
    <message>
        <source>--count %1 blocks of %2 is more than any device holds</source>
        <translation>--count %1 Blöcke zu %2 ist mehr, als ein Gerät fassen kann</translation>
    </message>
    <message>
        <source>--time must be more than 0</source>
        <translation>--time muss größer als 0 sein</translation>
    </message>
    <message>
        <source>--repeat %1 is out of range (1 to %2)</source>
        <translation>--repeat %1 liegt außerhalb des Bereichs (1 bis %2)</translation>
    </message>
    <message>
        <source>--interval %1 ms is out of range (10 ms to 60 s)</source>
        <translation>--interval %1 ms liegt außerhalb des Bereichs (10 ms bis 60 s)</translation>
    </message>
    <message>
        <source>--threads %1 is out of range (1 to %2)</source>
        <translation>--threads %1 liegt außerhalb des Bereichs (1 bis %2)</translation>
    </message>
    <message>
        <source>--seq %1 is out of range (1 to %2)</source>
        <translation>--seq %1 liegt außerhalb des Bereichs (1 bis %2)</translation>
    </message>
    <message>
        <source>--random %1 is out of range (0 to %2)</source>
        <translation>--random %1 liegt außerhalb des Bereichs (0 bis %2)</translation>
    </message>
    <message>
        <source>--random-bs must be between 1 byte and %1</source>
        <translation>--random-bs muss zwischen 1 Byte und %1 liegen</translation>
    </message>
    <message>
        <source>test concurrent needs at least one --measure DEV[@OFFSET]</source>
        <translation>test concurrent braucht mindestens ein --measure GERÄT[@OFFSET]</translation>
    </message>
    <message>
        <source>test %1 needs a device</source>
        <translation>test %1 braucht ein Gerät</translation>
    </message>
    <message>
        <source>test %1 reads one device (got %2)</source>
        <translation>test %1 liest ein Gerät (angegeben: %2)</translation>
    </message>
    <message>
        <source>--background streams belong to test concurrent</source>
        <translation>--background-Datenströme gehören zu test concurrent</translation>
    </message>
    <message>
        <source>at most %1 streams</source>
        <translation>höchstens %1 Datenströme</translation>
    </message>
    <message>
        <source>no block device named &apos;%1&apos; (see blocktune-cli list; give a kernel name such as sdb or a /dev path)</source>
        <translation>kein Blockgerät namens „%1“ (siehe blocktune-cli list; einen Kernel-Namen wie sdb oder einen /dev-Pfad angeben)</translation>
    </message>
    <message>
        <source>%1 is empty (size 0): nothing to read</source>
        <translation>%1 ist leer (Größe 0): nichts zu lesen</translation>
    </message>
    <message>
        <source>%1 %2 is not a multiple of %3&apos;s logical block size (%4 bytes), which --direct requires</source>
        <translation>%1 %2 ist kein Vielfaches der logischen Blockgröße von %3 (%4 Bytes), wie --direct es verlangt</translation>
    </message>
    <message>
        <source>less than one logical block of %1 is left past offset %2</source>
        <translation>hinter Offset %2 bleibt weniger als ein logischer Block von %1</translation>
    </message>
    <message>
        <source>%1 from offset %2 goes past the end of %3 (%4 bytes): at most %5 fits%6</source>
        <translation>%1 ab Offset %2 reicht über das Ende von %3 hinaus (%4 Bytes): höchstens %5 passt%6</translation>
    </message>
    <message>
        <source>the length</source>
        <translation>die Länge</translation>
    </message>
    <message>
        <source>offset %1 is past the end of %2 (%3)</source>
        <translation>Offset %1 liegt hinter dem Ende von %2 (%3)</translation>
    </message>
    <message>
        <source>offset</source>
        <translation>Offset</translation>
    </message>
    <message>
        <source>%1 is too small for %2 sequential streams past offset %3</source>
        <translation>%1 ist zu klein für %2 sequenzielle Datenströme hinter Offset %3</translation>
    </message>
    <message>
        <source> (each of the %1 sequential streams gets 1/%1 of the device past the offset)</source>
        <translation> (jeder der %1 sequenziellen Datenströme bekommt 1/%1 des Geräts hinter dem Offset)</translation>
    </message>
    <message>
        <source>%1 holds less than one --random-bs block past offset %2</source>
        <translation>%1 fasst hinter Offset %2 weniger als einen --random-bs-Block</translation>
    </message>
    <message>
        <source>read_ahead_kb %1, scheduler %2, nr_requests %3, max_sectors_kb %4</source>
        <translation>read_ahead_kb %1, Scheduler %2, nr_requests %3, max_sectors_kb %4</translation>
    </message>
    <message>
        <source> (of %1)</source>
        <translation> (von %1)</translation>
    </message>
    <message>
        <source>, kernel %1</source>
        <translation>, Kernel %1</translation>
    </message>
    <message>
        <source>for %1 s</source>
        <translation>für %1 s</translation>
    </message>
    <message>
        <source>%1 blocks</source>
        <translation>%1 Blöcke</translation>
    </message>
    <message>
        <source>%1 %2 %3 copied, %4 s, %5</source>
        <translation>%1 %2 %3 kopiert, %4 s, %5</translation>
    </message>
    <message>
        <source>%1 random     %2 reads, latency mean %3 ms, p50 %4 ms, p99 %5 ms, max %6 ms</source>
        <translation>%1 zufällig    %2 Lesevorgänge, Latenz Mittel %3 ms, p50 %4 ms, p99 %5 ms, max. %6 ms</translation>
    </message>
    <message>
        <source>  [I/O error]</source>
        <translation>  [E/A-Fehler]</translation>
    </message>
    <message>
        <source>%1: no diskstats line (no device counters)</source>
        <translation>%1: keine diskstats-Zeile (keine Gerätezähler)</translation>
    </message>
    <message>
        <source>%1: %2 read requests, avg %3 KiB, %4 merges; device read %5 bytes for %6 consumed (readahead overshoot %7 bytes)</source>
        <translation>%1: %2 Leseanforderungen, Mittel %3 KiB, %4 Zusammenfassungen; Gerät las %5 Bytes für %6 verbrauchte (Readahead-Überhang %7 Bytes)</translation>
    </message>
    <message>
        <source>  (interrupted)</source>
        <translation>  (unterbrochen)</translation>
    </message>
    <message>
        <source>  (failed)</source>
        <translation>  (fehlgeschlagen)</translation>
    </message>
    <message>
        <source>%1 bytes (%2)</source>
        <extracomment>dd&apos;s amount: &quot;268435456 bytes (268 MB, 256 MiB)&quot;</extracomment>
        <translation>%1 Bytes (%2)</translation>
    </message>
    <message>
        <source>%1: bs %2, %3</source>
        <translation>%1: bs %2, %3</translation>
    </message>
    <message>
        <source> per measured stream</source>
        <translation> je gemessenem Datenstrom</translation>
    </message>
    <message>
        <source> from offset %1</source>
        <translation> ab Offset %1</translation>
    </message>
    <message>
        <source>buffered</source>
        <translation>gepuffert</translation>
    </message>
    <message>
        <source>%1 threads sharing one descriptor</source>
        <translation>%1 Threads mit einem gemeinsamen Deskriptor</translation>
    </message>
    <message>
        <source>%1 threads with a descriptor each</source>
        <translation>%1 Threads mit je einem Deskriptor</translation>
    </message>
    <message>
        <source>%1 sequential + %2 random readers (%3)</source>
        <translation>%1 sequenzielle + %2 zufällige Leser (%3)</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>nicht gelaufen</translation>
    </message>
    <message>
        <source>%1 copied, %2 s, %3</source>
        <translation>%1 kopiert, %2 s, %3</translation>
    </message>
    <message>
        <source>%1 threads: %2 MB/s</source>
        <translation>%1 Threads: %2 MB/s</translation>
    </message>
    <message>
        <source>measured %1 copied, %2 s, %3; aggregate %4, fairness %5</source>
        <translation>gemessen %1 kopiert, %2 s, %3; gesamt %4, Fairness %5</translation>
    </message>
    <message>
        <source>cold start: %1</source>
        <translation>Kaltstart: %1</translation>
    </message>
    <message>
        <source>1 run</source>
        <translation>1 Lauf</translation>
    </message>
    <message>
        <source>%1 runs</source>
        <translation>%1 Läufe</translation>
    </message>
    <message>
        <source>mean %1</source>
        <translation>Mittel %1</translation>
    </message>
    <message>
        <source>, p99 latency %1 ms</source>
        <translation>, p99-Latenz %1 ms</translation>
    </message>
    <message>
        <source>avg req KiB</source>
        <translation>Mittl. Anf. KiB</translation>
    </message>
    <message>
        <source>restored read_ahead_kb %1 on %2</source>
        <translation>read_ahead_kb %1 auf %2 wiederhergestellt</translation>
    </message>
    <message>
        <source>NOT restored read_ahead_kb %1 on %2</source>
        <translation>read_ahead_kb %1 auf %2 NICHT wiederhergestellt</translation>
    </message>
    <message>
        <source>a sweep needs at least one readahead value (--ra)</source>
        <translation>eine Messreihe braucht mindestens einen Readahead-Wert (--ra)</translation>
    </message>
    <message>
        <source>no block device named &apos;%1&apos; (see blocktune-cli list)</source>
        <translation>kein Blockgerät namens „%1“ (siehe blocktune-cli list)</translation>
    </message>
    <message>
        <source>the sweep changes %1&apos;s readahead but the test does not read %1 (or a partition of it)</source>
        <translation>die Messreihe ändert das Readahead von %1, aber der Test liest %1 nicht (auch keine Partition davon)</translation>
    </message>
    <message>
        <source>setting read_ahead_kb %1 on %2 failed</source>
        <translation>read_ahead_kb %1 auf %2 setzen ist fehlgeschlagen</translation>
    </message>
    <message>
        <source>read_ahead_kb of %1 is %2, not the original %3</source>
        <translation>read_ahead_kb von %1 ist %2, nicht der ursprüngliche Wert %3</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>nicht lesbar</translation>
    </message>
    <message>
        <source>%1 is a recorded tree (--sysroot): its %2 describes a disk of the machine it was recorded on, and %3 is no recording of that disk&apos;s data (at best it opens this machine&apos;s %2), so nothing is read: read tests and sweeps measure the live machine only (diagnose --static checks a recorded tree)</source>
        <translation>%1 ist ein aufgezeichneter Baum (--sysroot): sein %2 beschreibt eine Festplatte des Rechners, auf dem er aufgezeichnet wurde, und %3 enthält keine Aufzeichnung ihrer Daten (bestenfalls öffnet es das %2 dieses Rechners), also wird nichts gelesen: Lesetests und Messreihen messen nur den laufenden Rechner (diagnose --static prüft einen aufgezeichneten Baum)</translation>
    </message>
    <message>
        <source>--percentiles takes 1 to %1 values</source>
        <translation>--percentiles nimmt 1 bis %1 Werte</translation>
    </message>
    <message>
        <source>--percentiles: %1 is not a percentile (more than 0, at most 100)</source>
        <translation>--percentiles: %1 ist kein Perzentil (mehr als 0, höchstens 100)</translation>
    </message>
    <message>
        <source>; latency %1</source>
        <translation>; Latenz %1</translation>
    </message>
    <message>
        <source>%1 against %2</source>
        <translation>%1 gegenüber %2</translation>
    </message>
    <message>
        <source>The first run was %1× slower than the others (%2): a cold start outside this test. Each run starts with this device&apos;s cache dropped, so the first is no colder here than the rest; a virtual machine&apos;s host that backs idle memory again on first touch, or a busy host, slows the first read after a pause. The figure is the median.</source>
        <translation>Der erste Lauf war %1× langsamer als die anderen (%2): ein Kaltstart außerhalb dieses Tests. Jeder Lauf beginnt mit geleertem Cache dieses Geräts, daher ist der erste hier nicht kälter als die übrigen; der Host einer virtuellen Maschine, der ungenutzten Speicher erst bei der ersten Berührung wieder bereitstellt, oder ein ausgelasteter Host verlangsamt das erste Lesen nach einer Pause. Der Wert ist der Median.</translation>
    </message>
    <message>
        <source>Run %1 was %2× slower than the others (%3): the machine stalled during it (a busy host? other reads of the device?). The figure is the median.</source>
        <translation>Lauf %1 war %2× langsamer als die anderen (%3): Die Maschine stockte währenddessen (ein ausgelasteter Host? andere Lesezugriffe auf das Gerät?). Der Wert ist der Median.</translation>
    </message>
    <message>
        <source>Run %1 was %2× faster than the others (%3): the machine&apos;s speed changed during the test (a host that was busy before? another cache?). The figure is the median.</source>
        <translation>Lauf %1 war %2× schneller als die anderen (%3): Die Geschwindigkeit der Maschine änderte sich während des Tests (ein Host, der vorher ausgelastet war? ein anderer Cache?). Der Wert ist der Median.</translation>
    </message>
    <message>
        <source>median %1 (%2; min-max %3-%4); mean %5, stdev %6 MB/s (%7)</source>
        <translation>Median %1 (%2; Min–Max %3–%4); Mittel %5, Standardabweichung %6 MB/s (%7)</translation>
    </message>
</context>
<context>
    <name>blocktune::ReadTestResultsModel</name>
    <message>
        <source>random</source>
        <translation>zufällig</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>gemessen</translation>
    </message>
    <message>
        <source>background</source>
        <translation>Hintergrund</translation>
    </message>
    <message>
        <source>%1 (stopped)</source>
        <translation>%1 (gestoppt)</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>Mittel</translation>
    </message>
    <message>
        <source>min</source>
        <translation>Min</translation>
    </message>
    <message>
        <source>max</source>
        <translation>Max</translation>
    </message>
    <message>
        <source>spread</source>
        <translation>Spanne</translation>
    </message>
    <message>
        <source>all runs</source>
        <translation>alle Läufe</translation>
    </message>
    <message>
        <source>fairness over the streams&apos; means</source>
        <translation>Fairness über die Mittel der Ströme</translation>
    </message>
    <message>
        <source>10^6 bytes per second, from the stream&apos;s first read to its last, as dd prints</source>
        <translation>10^6 Byte pro Sekunde, vom ersten bis zum letzten Lesen des Stroms, wie dd es ausgibt</translation>
    </message>
    <message>
        <source>The device&apos;s average read request during the run (/proc/diskstats)</source>
        <translation>Mittlere Leseanforderung des Geräts während des Laufs (/proc/diskstats)</translation>
    </message>
    <message>
        <source>Bytes the device read beyond what the test consumed: readahead not used (negative: pages came from the cache)</source>
        <translation>Bytes, die das Gerät über das vom Test Verbrauchte hinaus las: ungenutztes Readahead (negativ: Seiten kamen aus dem Cache)</translation>
    </message>
    <message>
        <source>Jain&apos;s index over the streams&apos; MB/s: 1 = equal shares, 1/n = one stream got all</source>
        <translation>Jain-Index über die MB/s der Ströme: 1 = gleiche Anteile, 1/n = ein Strom bekam alles</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Stream</source>
        <translation>Strom</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>MB/s</source>
        <translation>MB/s</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>Bytes</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>Anforderung</translation>
    </message>
    <message>
        <source>Overshoot</source>
        <translation>Überschuss</translation>
    </message>
    <message>
        <source>Fairness (Jain)</source>
        <translation>Fairness (Jain)</translation>
    </message>
    <message>
        <source>How long a read waited: half (p50), 99% (p99), 99.9% (p99.9) of the run&apos;s reads took at most this (one pread; buffered, page-cache hits included)</source>
        <translation>Wie lange ein Lesezugriff wartete: die Hälfte (p50), 99 % (p99), 99,9 % (p99.9) der Lesezugriffe des Laufs dauerten höchstens so lange (ein pread; gepuffert einschließlich Treffern im Seitencache)</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>p99.9</source>
        <translation>p99.9</translation>
    </message>
    <message>
        <source>median</source>
        <translation>Median</translation>
    </message>
</context>
<context>
    <name>blocktune::ReadTestView</name>
    <message>
        <source>Select a device</source>
        <translation>Ein Gerät auswählen</translation>
    </message>
    <message>
        <source>Sequential (dd)</source>
        <translation>Sequenziell (dd)</translation>
    </message>
    <message>
        <source>Server: N threads, one stream</source>
        <translation>Server: N Threads, ein Datenstrom</translation>
    </message>
    <message>
        <source>Mixed: sequential + random noise</source>
        <translation>Gemischt: sequenziell + zufälliges Rauschen</translation>
    </message>
    <message>
        <source>Concurrent: with background streams</source>
        <translation>Parallel: mit Hintergrund-Datenströmen</translation>
    </message>
    <message>
        <source>O_DIRECT (bypasses readahead)</source>
        <translation>O_DIRECT (umgeht Readahead)</translation>
    </message>
    <message>
        <source>one shared descriptor</source>
        <translation>ein gemeinsamer Deskriptor</translation>
    </message>
    <message>
        <source>sweep read_ahead_kb:</source>
        <translation>Messreihe über read_ahead_kb:</translation>
    </message>
    <message>
        <source>KiB values, set one after the other as a temporary change and restored at the end</source>
        <translation>KiB-Werte, nacheinander als vorübergehende Änderung gesetzt und am Ende wiederhergestellt</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Test</translation>
    </message>
    <message>
        <source>size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Block size</source>
        <translation>Blockgröße</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>Threads</translation>
    </message>
    <message>
        <source>random readers</source>
        <translation>zufällige Leser</translation>
    </message>
    <message>
        <source>Sequential streams</source>
        <translation>Sequenzielle Datenströme</translation>
    </message>
    <message>
        <source>Background</source>
        <translation>Hintergrund</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>Messreihe</translation>
    </message>
    <message>
        <source>seconds into the run</source>
        <translation>Sekunden seit Laufbeginn</translation>
    </message>
    <message>
        <source>MB/s</source>
        <translation>MB/s</translation>
    </message>
    <message>
        <source>read_ahead_kb</source>
        <translation>read_ahead_kb</translation>
    </message>
    <message>
        <source>average request KiB</source>
        <translation>mittlere Anforderung KiB</translation>
    </message>
    <message>
        <source>avg request KiB</source>
        <translation>mittl. Anforderung KiB</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>Live</translation>
    </message>
    <message>
        <source>Sweep curve</source>
        <translation>Messreihenkurve</translation>
    </message>
    <message>
        <source>done</source>
        <translation>fertig</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>Read test on %1</source>
        <translation>Lesetest auf %1</translation>
    </message>
    <message>
        <source>select a device first</source>
        <translation>zuerst ein Gerät auswählen</translation>
    </message>
    <message>
        <source>block size</source>
        <translation>Blockgröße</translation>
    </message>
    <message>
        <source>sweep read_ahead_kb of %1, test %2</source>
        <translation>Messreihe über read_ahead_kb von %1, Test %2</translation>
    </message>
    <message>
        <source>test %1 %2</source>
        <translation>Test %1 %2</translation>
    </message>
    <message>
        <source>running...</source>
        <translation>läuft …</translation>
    </message>
    <message>
        <source>stopping...</source>
        <translation>wird angehalten …</translation>
    </message>
    <message>
        <source>the device list is not read yet</source>
        <translation>die Geräteliste ist noch nicht gelesen</translation>
    </message>
    <message>
        <source>Also measured</source>
        <translation>Auch gemessen</translation>
    </message>
    <message>
        <source>knee: smallest readahead within 5% of the best</source>
        <translation>Knie: kleinstes Readahead innerhalb 5 % vom besten</translation>
    </message>
    <message>
        <source>Copy as text</source>
        <translation>Als Text kopieren</translation>
    </message>
    <message>
        <source>The report as dd prints it, to paste into a ticket or a mail</source>
        <translation>Der Bericht, wie dd ihn ausgibt, zum Einfügen in ein Ticket oder eine Mail</translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation>CSV exportieren...</translation>
    </message>
    <message>
        <source>Export JSON...</source>
        <translation>JSON exportieren...</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>Ergebnisse</translation>
    </message>
    <message>
        <source>Report</source>
        <translation>Bericht</translation>
    </message>
    <message>
        <source>report copied</source>
        <translation>Bericht kopiert</translation>
    </message>
    <message>
        <source>Export CSV</source>
        <translation>CSV exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export JSON</source>
        <translation>JSON exportieren</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Read tests need the live machine: %1 is a recorded tree (read-only)</source>
        <translation>Lesetests brauchen die laufende Maschine: %1 ist ein aufgezeichneter Baum (nur lesen)</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>Lauf %1</translation>
    </message>
    <message>
        <source>read_ahead_kb %1</source>
        <translation>read_ahead_kb %1</translation>
    </message>
    <message>
        <source>sweep: read_ahead_kb %1 running (point %2 of %3)</source>
        <translation>Reihe: read_ahead_kb %1 läuft (Punkt %2 von %3)</translation>
    </message>
    <message>
        <source>seconds; now read_ahead_kb %1</source>
        <translation>Sekunden; jetzt read_ahead_kb %1</translation>
    </message>
    <message>
        <source>knee %1</source>
        <translation>Knie %1</translation>
    </message>
    <message>
        <source> · kept in the history (#%1)</source>
        <translation> · im Verlauf gespeichert (#%1)</translation>
    </message>
    <message>
        <source>random</source>
        <translation>zufällig</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>gemessen</translation>
    </message>
    <message>
        <source>background</source>
        <translation>Hintergrund</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>kann %1 nicht schreiben: %2</translation>
    </message>
    <message>
        <source>saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>seconds into the test (runs marked)</source>
        <translation>Sekunden im Test (Läufe markiert)</translation>
    </message>
    <message>
        <source>Tests run on %1 and are kept in its history (blocktune-cli --host %1 history)</source>
        <translation>Tests laufen auf %1 und werden in dessen Verlauf gespeichert (blocktune-cli --host %1 history)</translation>
    </message>
    <message>
        <source>Live throughput plot</source>
        <translation>Live-Durchsatz (Diagramm)</translation>
    </message>
    <message>
        <source>Sweep curve plot</source>
        <translation>Durchlaufkurve (Diagramm)</translation>
    </message>
    <message>
        <source> ×</source>
        <translation> ×</translation>
    </message>
    <message>
        <source>How many runs, each from a cold cache, labelled a, b, c… (blocktune-cli --repeat)</source>
        <translation>Wie viele Läufe, jeder mit kaltem Cache, bezeichnet a, b, c… (blocktune-cli --repeat)</translation>
    </message>
    <message>
        <source>repeat</source>
        <translation>Wiederholen</translation>
    </message>
    <message>
        <source>latency of a read (µs)</source>
        <translation>Latenz eines Lesezugriffs (µs)</translation>
    </message>
    <message>
        <source>Latency distribution plot</source>
        <translation>Diagramm der Latenzverteilung</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>Latenz</translation>
    </message>
    <message>
        <source>%1 run %2: p50 %3, p99 %4, p99.9 %5</source>
        <translation>%1 Lauf %2: p50 %3, p99 %4, p99.9 %5</translation>
    </message>
    <message>
        <source>% of reads</source>
        <translation>% der Lesezugriffe</translation>
    </message>
    <message>
        <source>Bytes each measured stream reads (K/M/G are binary); empty: 256M or the device, whichever is less</source>
        <translation>Bytes, die jeder gemessene Datenstrom liest (K/M/G binär); leer: 256M oder das Gerät, je nachdem, was kleiner ist</translation>
    </message>
    <message>
        <source>Devices read in a loop until the measured stream ends (NAME or NAME@OFFSET)</source>
        <translation>Geräte, die in einer Schleife gelesen werden, bis der gemessene Datenstrom endet (NAME oder NAME@OFFSET)</translation>
    </message>
    <message>
        <source>Devices measured beside the selected one, side by side (NAME or NAME@OFFSET)</source>
        <translation>Geräte, die neben dem ausgewählten gemessen werden, Seite an Seite (NAME oder NAME@OFFSET)</translation>
    </message>
</context>
<context>
    <name>blocktune::Readahead</name>
    <message>
        <source>readahead counters: &quot;%1&quot; is missing or malformed</source>
        <translation>Readahead-Zähler: &quot;%1&quot; fehlt oder ist fehlerhaft</translation>
    </message>
    <message>
        <source>readahead counters: device %1 is given twice</source>
        <translation>Readahead-Zähler: Gerät %1 ist doppelt angegeben</translation>
    </message>
    <message>
        <source>readahead cannot be observed: </source>
        <translation>Readahead lässt sich nicht beobachten: </translation>
    </message>
    <message>
        <source>the kernel refused fentry programs on the readahead functions although this is root (a security policy, such as a BPF LSM program, forbids attaching to kernel functions here); %1</source>
        <translation>der Kernel hat fentry-Programme an den Readahead-Funktionen abgelehnt, obwohl dies root ist (eine Sicherheitsrichtlinie, etwa ein BPF-LSM-Programm, verbietet hier das Anhängen an Kernelfunktionen); %1</translation>
    </message>
    <message>
        <source>this kernel has the readahead tracepoints: unset BLOCKTUNE_READAHEAD_HOOKS to use them</source>
        <translation>dieser Kernel hat die Readahead-Tracepoints: BLOCKTUNE_READAHEAD_HOOKS entfernen, um sie zu nutzen</translation>
    </message>
    <message>
        <source>and it has no tracepoint %1</source>
        <translation>und er hat keinen Tracepoint %1</translation>
    </message>
    <message>
        <source>this kernel has no tracepoint %1</source>
        <translation>dieser Kernel hat keinen Tracepoint %1</translation>
    </message>
    <message>
        <source>this kernel has no function page_cache_sync_ra and page_cache_async_ra to attach fentry programs to</source>
        <translation>dieser Kernel hat keine Funktionen page_cache_sync_ra und page_cache_async_ra, an die sich fentry-Programme hängen ließen</translation>
    </message>
    <message>
        <source>this kernel has neither the readahead tracepoints (missing: %1) nor the functions page_cache_sync_ra and page_cache_async_ra to attach to; everything else in blocktune works without them</source>
        <translation>dieser Kernel hat weder die Readahead-Tracepoints (es fehlen: %1) noch die Funktionen page_cache_sync_ra und page_cache_async_ra zum Anhängen; alles andere in blocktune funktioniert ohne sie</translation>
    </message>
    <message>
        <source>pages not counted: this kernel has no tracepoint %1</source>
        <translation>Seiten nicht gezählt: dieser Kernel hat keinen Tracepoint %1</translation>
    </message>
    <message>
        <source>BLOCKTUNE_BPF_REFUSE=1 is set, so the BPF program was not loaded (unset it to load it)</source>
        <translation>BLOCKTUNE_BPF_REFUSE=1 ist gesetzt, daher wurde das BPF-Programm nicht geladen (zum Laden die Variable entfernen)</translation>
    </message>
    <message>
        <source>blocktune was built without BPF support (install clang, bpftool and libbpf-dev, then configure with -DBLOCKTUNE_BPF=ON)</source>
        <translation>blocktune wurde ohne BPF-Unterstützung gebaut (clang, bpftool und libbpf-dev installieren, dann mit -DBLOCKTUNE_BPF=ON konfigurieren)</translation>
    </message>
    <message>
        <source>the kernel has no BTF type information (/sys/kernel/btf/vmlinux is missing): it needs CONFIG_DEBUG_INFO_BTF=y</source>
        <translation>der Kernel hat keine BTF-Typinformation (/sys/kernel/btf/vmlinux fehlt): er braucht CONFIG_DEBUG_INFO_BTF=y</translation>
    </message>
    <message>
        <source>reading the BPF map %1 failed: %2</source>
        <translation>das Lesen der BPF-Map %1 schlug fehl: %2</translation>
    </message>
    <message>
        <source>readahead cannot be observed through blocktune-helper: %1</source>
        <translation>Readahead lässt sich über blocktune-helper nicht beobachten: %1</translation>
    </message>
    <message>
        <source>blocktune-helper sent readahead counters that do not parse: %1</source>
        <translation>blocktune-helper sandte Readahead-Zähler, die sich nicht lesen lassen: %1</translation>
    </message>
    <message>
        <source>readahead counters stopped: %1</source>
        <translation>Readahead-Zähler angehalten: %1</translation>
    </message>
    <message>
        <source>blocktune-helper could not load its BPF program: %1</source>
        <translation>blocktune-helper konnte sein BPF-Programm nicht laden: %1</translation>
    </message>
    <message>
        <source>blocktune-helper could not be started: %1</source>
        <translation>blocktune-helper konnte nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>readahead cannot be observed: %1</source>
        <translation>Readahead lässt sich nicht beobachten: %1</translation>
    </message>
    <message>
        <source>readahead cannot be observed: blocktune-helper&apos;s first answer does not parse (%1)</source>
        <translation>Readahead lässt sich nicht beobachten: die erste Antwort von blocktune-helper lässt sich nicht lesen (%1)</translation>
    </message>
</context>
<context>
    <name>blocktune::ReadaheadView</name>
    <message>
        <source>windows/s</source>
        <translation>Fenster/s</translation>
    </message>
    <message>
        <source>pages/s used
(dashed: wasted)</source>
        <translation>Seiten/s genutzt
(gestrichelt: verschwendet)</translation>
    </message>
    <message>
        <source>wait of used
pages, p50 ms</source>
        <translation>Wartezeit genutzter
Seiten, p50 ms</translation>
    </message>
    <message>
        <source>Readahead plots</source>
        <translation>Readahead-Diagramme</translation>
    </message>
    <message>
        <source>Readahead figures are off.</source>
        <translation>Readahead-Zahlen sind aus.</translation>
    </message>
    <message>
        <source>Readahead</source>
        <translation>Readahead</translation>
    </message>
    <message>
        <source>Newest readahead figures</source>
        <translation>Neueste Readahead-Zahlen</translation>
    </message>
    <message>
        <source>How to read this</source>
        <translation>So liest man das</translation>
    </message>
    <message>
        <source>What the readahead plots show, and what to change when they show it</source>
        <translation>Was die Readahead-Diagramme zeigen, und was zu ändern ist, wenn sie es zeigen</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>%1 windows</source>
        <translation>%1-Fenster</translation>
    </message>
    <message>
        <source>%1: %2 async, %3 sync, %4 mmap, %5 forced windows/s · window %6 of %7 (%8 at the cap) · %9 used, %10 wasted pages/s · wait %11</source>
        <translation>%1: %2 async, %3 sync, %4 mmap, %5 forced Fenster/s · Fenster %6 von %7 (%8 an der Obergrenze) · %9 genutzte, %10 verschwendete Seiten/s · Wartezeit %11</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>How to read the readahead plots</source>
        <translation>So liest man die Readahead-Diagramme</translation>
    </message>
    <message>
        <source>window KiB, p50
(pale band: the cap)</source>
        <translation>Fenster KiB, p50
(blasses Band: Obergrenze)</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Windows/s&lt;/b&gt;: how often the kernel&apos;s readahead started a window, by kind. &lt;b&gt;async&lt;/b&gt; (solid): the reader reached the marker of a stream the kernel recognised, and the next window was read ahead while it read on: readahead is working. &lt;b&gt;sync&lt;/b&gt; (dashed): a miss started or restarted a window, and the reader waited for it. Many sync windows and few async ones mean readahead does not see a stream: random reads, or several readers of one stream through descriptors of their own. &lt;b&gt;mmap&lt;/b&gt; (dotted): page faults of mapped files; &lt;b&gt;forced&lt;/b&gt; (dash-dotted): fadvise WILLNEED or readahead(2).&lt;/p&gt;&lt;p&gt;&lt;b&gt;Window size&lt;/b&gt;: the windows&apos; median size against the cap, the device&apos;s read_ahead_kb (the pale band). Async windows at the cap on a steady stream: readahead is the limit, the device gets no larger requests than it; raise it and watch MB/s above.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Pages/s&lt;/b&gt;: pages read ahead that someone read before they left the page cache (used, solid) and those evicted unread (wasted, dashed): I/O for nothing, and memory taken from the rest. Wasted pages near the used ones: lower readahead.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Wait&lt;/b&gt;: how long used pages sat in the cache before they were read (median; log2 buckets&apos; upper bounds). Short waits with windows at the cap: the reader catches up with readahead.&lt;/p&gt;&lt;p&gt;Each point adds up one second. Dashed vertical lines mark where this console changed a setting: compare before and after. Counted by a BPF program on the kernel&apos;s readahead tracepoints, for the device whose read_ahead_kb governs the reads; loaded while this view is on, unloaded when it is turned off.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Fenster/s&lt;/b&gt;: wie oft das Readahead des Kernels ein Fenster begann, nach Art. &lt;b&gt;async&lt;/b&gt; (durchgezogen): der Leser erreichte die Marke eines Stroms, den der Kernel erkannt hat, und das nächste Fenster wurde vorausgelesen, während er weiterlas: Readahead wirkt. &lt;b&gt;sync&lt;/b&gt; (gestrichelt): ein Fehlzugriff begann ein Fenster oder begann es neu, und der Leser wartete darauf. Viele sync-Fenster und wenige async-Fenster heißen, dass Readahead keinen Strom erkennt: zufällige Lesezugriffe, oder mehrere Leser eines Stroms über je eigene Deskriptoren. &lt;b&gt;mmap&lt;/b&gt; (gepunktet): Seitenfehler eingeblendeter Dateien; &lt;b&gt;forced&lt;/b&gt; (strichpunktiert): fadvise WILLNEED oder readahead(2).&lt;/p&gt;&lt;p&gt;&lt;b&gt;Fenstergröße&lt;/b&gt;: die mittlere Größe der Fenster gegen die Obergrenze, das read_ahead_kb des Geräts (das blasse Band). Async-Fenster an der Obergrenze bei einem stetigen Strom: Readahead ist die Grenze, das Gerät bekommt keine größeren Anfragen; erhöhen Sie es und beobachten Sie MB/s oben.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Seiten/s&lt;/b&gt;: vorausgelesene Seiten, die jemand las, bevor sie den Seitencache verließen (genutzt, durchgezogen), und die ungelesen verdrängten (verschwendet, gestrichelt): E/A für nichts und Speicher, der dem Rest fehlt. Verschwendete Seiten nahe den genutzten: senken Sie Readahead.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Wartezeit&lt;/b&gt;: wie lange genutzte Seiten im Cache lagen, bevor sie gelesen wurden (Median; Obergrenzen der log2-Stufen). Kurze Wartezeiten bei Fenstern an der Obergrenze: der Leser holt das Readahead ein.&lt;/p&gt;&lt;p&gt;Jeder Punkt fasst eine Sekunde zusammen. Gestrichelte senkrechte Linien markieren, wo diese Konsole eine Einstellung geändert hat: vergleichen Sie davor und danach. Gezählt von einem BPF-Programm an den Readahead-Tracepoints des Kernels, für das Gerät, dessen read_ahead_kb die Lesezugriffe bestimmt; geladen, solange diese Ansicht an ist, entladen, wenn sie ausgeschaltet wird.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>blocktune::Remote</name>
    <message>
        <source>connection to %1 lost</source>
        <translation>Verbindung zu %1 verloren</translation>
    </message>
    <message>
        <source>cannot make a folder in %1: %2</source>
        <translation>kann in %1 keinen Ordner anlegen: %2</translation>
    </message>
    <message>
        <source>cannot move the snapshot of %1 into %2</source>
        <translation>kann den Schnappschuss von %1 nicht nach %2 verschieben</translation>
    </message>
    <message>
        <source>%1; whatever was written there as temporary is restored by the agent</source>
        <translation>%1; was dort vorübergehend geschrieben wurde, stellt der Agent wieder her</translation>
    </message>
    <message>
        <source>the connection to %1 ended: the agent there restores what the sweep changed</source>
        <translation>die Verbindung zu %1 ist beendet: der Agent dort stellt wieder her, was die Messreihe geändert hat</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1&apos;s profiles are no longer followed: %2</source>
        <translation>Die Profile von %1 werden nicht mehr verfolgt: %2</translation>
    </message>
    <message numerus="yes">
        <source>%1&apos;s profile folders, asked every %n s</source>
        <translation>
            <numerusform>Profilordner von %1, alle %n s abgefragt</numerusform>
            <numerusform>Profilordner von %1, alle %n s abgefragt</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>blocktune::Session</name>
    <message>
        <source>(machine)</source>
        <translation>(Maschine)</translation>
    </message>
    <message>
        <source>(new)</source>
        <translation>(neu)</translation>
    </message>
    <message>
        <source>%1 %2: %3 → %4</source>
        <translation>%1 %2: %3 → %4</translation>
    </message>
    <message>
        <source>%1 %2: %3 → %4 %5</source>
        <translation>%1 %2: %3 → %4 %5</translation>
    </message>
    <message>
        <source>?</source>
        <translation>?</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2: %3</translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 und %n weitere</numerusform>
            <numerusform>%1 und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>refused</source>
        <translation>abgelehnt</translation>
    </message>
    <message>
        <source>Nothing was changed: %1</source>
        <translation>Nichts wurde geändert: %1</translation>
    </message>
    <message>
        <source>Profile %1 was not applied: %2</source>
        <translation>Profil %1 wurde nicht angewendet: %2</translation>
    </message>
    <message numerus="yes">
        <source>Trying %n change(s), restored unless kept: %1</source>
        <translation>
            <numerusform>%n Änderung wird probiert, wiederhergestellt, sofern nicht behalten: %1</numerusform>
            <numerusform>%n Änderungen werden probiert, wiederhergestellt, sofern nicht behalten: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Profile %1: nothing to change</source>
        <translation>Profil %1: nichts zu ändern</translation>
    </message>
    <message numerus="yes">
        <source>Applied profile %1, %n change(s): %2</source>
        <translation>
            <numerusform>Profil %1 angewendet, %n Änderung: %2</numerusform>
            <numerusform>Profil %1 angewendet, %n Änderungen: %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Applied %n change(s): %1</source>
        <translation>
            <numerusform>%n Änderung angewendet: %1</numerusform>
            <numerusform>%n Änderungen angewendet: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Reverted the session: nothing had been changed</source>
        <translation>Sitzung zurückgesetzt: es war nichts geändert worden</translation>
    </message>
    <message numerus="yes">
        <source>Reverted the session, %n setting(s) restored: %1</source>
        <translation>
            <numerusform>Sitzung zurückgesetzt, %n Einstellung wiederhergestellt: %1</numerusform>
            <numerusform>Sitzung zurückgesetzt, %n Einstellungen wiederhergestellt: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Reverted %1, %n value(s) restored: %2</source>
        <translation>
            <numerusform>%1 zurückgesetzt, %n Wert wiederhergestellt: %2</numerusform>
            <numerusform>%1 zurückgesetzt, %n Werte wiederhergestellt: %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restored what an ended session left, %n setting(s): %1</source>
        <translation>
            <numerusform>Wiederhergestellt, was eine beendete Sitzung hinterließ, %n Einstellung: %1</numerusform>
            <numerusform>Wiederhergestellt, was eine beendete Sitzung hinterließ, %n Einstellungen: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restored %n tried setting(s): %1</source>
        <translation>
            <numerusform>%n probierte Einstellung wiederhergestellt: %1</numerusform>
            <numerusform>%n probierte Einstellungen wiederhergestellt: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>(%1)</source>
        <translation>(%1)</translation>
    </message>
    <message numerus="yes">
        <source>Kept %n tried setting(s); Revert session still takes them back</source>
        <translation>
            <numerusform>%n probierte Einstellung behalten; Sitzung zurücksetzen nimmt sie weiterhin zurück</numerusform>
            <numerusform>%n probierte Einstellungen behalten; Sitzung zurücksetzen nimmt sie weiterhin zurück</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Measured on %1 with %n temporary change(s); they are still held</source>
        <translation>
            <numerusform>Auf %1 gemessen mit %n vorübergehender Änderung; sie ist noch gesetzt</numerusform>
            <numerusform>Auf %1 gemessen mit %n vorübergehenden Änderungen; sie sind noch gesetzt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Measured on %1 with %n temporary change(s), all restored</source>
        <translation>
            <numerusform>Auf %1 gemessen mit %n vorübergehender Änderung, wiederhergestellt</numerusform>
            <numerusform>Auf %1 gemessen mit %n vorübergehenden Änderungen, alle wiederhergestellt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Measured on %1 with %n temporary change(s); not everything came back: %2</source>
        <translation>
            <numerusform>Auf %1 gemessen mit %n vorübergehender Änderung; nicht alles kam zurück: %2</numerusform>
            <numerusform>Auf %1 gemessen mit %n vorübergehenden Änderungen; nicht alles kam zurück: %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>blocktune::StreamCard</name>
    <message>
        <source>stream %1</source>
        <translation>Strom %1</translation>
    </message>
    <message>
        <source>%1 from %2 · %3</source>
        <translation>%1 ab %2 · %3</translation>
    </message>
    <message>
        <source>Reads outstanding on average in the last interval (reads/s × mean latency)</source>
        <translation>Im letzten Intervall im Mittel ausstehende Lesevorgänge (Lesevorgänge/s × mittlere Latenz)</translation>
    </message>
    <message>
        <source>Bytes per read the stream issued; after a run, the device&apos;s own average request size (/proc/diskstats)</source>
        <translation>Bytes pro Lesevorgang des Stroms; nach einem Lauf die mittlere Anforderungsgröße des Geräts (/proc/diskstats)</translation>
    </message>
    <message>
        <source>in flight %1</source>
        <translation>ausstehend %1</translation>
    </message>
    <message>
        <source>read size %1</source>
        <translation>Lesegröße %1</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>Lauf %1</translation>
    </message>
    <message>
        <source>device request %1</source>
        <translation>Geräteanforderung %1</translation>
    </message>
    <message>
        <source>, %1–%2</source>
        <translation>, %1–%2</translation>
    </message>
    <message>
        <source> · run %1</source>
        <translation> · Lauf %1</translation>
    </message>
    <message>
        <source>The median of runs %1</source>
        <translation>Der Median der Läufe %1</translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation>Lauf %1</translation>
    </message>
    <message>
        <source>⚠ Runs disagree: %1 was %2× slower</source>
        <translation>⚠ Die Läufe weichen ab: %1 war %2× langsamer</translation>
    </message>
    <message>
        <source>the first</source>
        <translation>der erste Lauf</translation>
    </message>
    <message>
        <source>⚠ Runs disagree: run %1 was %2× faster</source>
        <translation>⚠ Die Läufe weichen ab: Lauf %1 war %2× schneller</translation>
    </message>
</context>
<context>
    <name>blocktune::Tuning</name>
    <message>
        <source>blocktune process %1</source>
        <translation>blocktune-Prozess %1</translation>
    </message>
    <message>
        <source>another blocktune process</source>
        <translation>ein anderer blocktune-Prozess</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a device name to lock</source>
        <translation>„%1“ ist kein Gerätename, der sich sperren lässt</translation>
    </message>
    <message>
        <source>cannot open the lock file %1: %2</source>
        <translation>die Sperrdatei %1 lässt sich nicht öffnen: %2</translation>
    </message>
    <message>
        <source>the machine-wide settings</source>
        <translation>die systemweiten Einstellungen</translation>
    </message>
    <message>
        <source>cannot lock %1: %2</source>
        <translation>%1 lässt sich nicht sperren: %2</translation>
    </message>
    <message>
        <source>%1 is being changed by %2 (lock %3)%4: try again when it has finished</source>
        <translation>%1 wird gerade von %2 geändert (Sperre %3)%4: erneut versuchen, wenn er fertig ist</translation>
    </message>
    <message>
        <source>, and a signal arrived while waiting</source>
        <translation>, und während des Wartens kam ein Signal</translation>
    </message>
    <message>
        <source>, still after %1 s</source>
        <translation>, auch nach %1 s noch</translation>
    </message>
    <message>
        <source>%1 (changing %2)</source>
        <translation>%1 (ändert %2)</translation>
    </message>
    <message>
        <source>%1 on %2 is %3 now, not %4 as when this change was planned%5: plan it again</source>
        <translation>%1 auf %2 ist jetzt %3, nicht %4 wie bei der Planung dieser Änderung%5: neu planen</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>diesem Rechner</translation>
    </message>
    <message>
        <source> (%1 changed it)</source>
        <translation> (%1 hat es geändert)</translation>
    </message>
    <message>
        <source>%1 belonged to %2, which is no longer active on %3 (now %4): it went with it</source>
        <translation>%1 gehörte zu %2, der auf %3 nicht mehr aktiv ist (jetzt %4): es ist mit ihm verschwunden</translation>
    </message>
    <message>
        <source>writing %1=%2 back to %3 failed: %4</source>
        <translation>%1=%2 auf %3 zurückschreiben ist fehlgeschlagen: %4</translation>
    </message>
    <message>
        <source>%1 on %2: wrote %3 back, the kernel kept %4</source>
        <translation>%1 auf %2: %3 zurückgeschrieben, der Kernel hat %4 behalten</translation>
    </message>
    <message>
        <source>%1 no longer exists: nothing to restore there</source>
        <translation>%1 existiert nicht mehr: dort ist nichts wiederherzustellen</translation>
    </message>
    <message>
        <source>%1 is now device %2, the journal&apos;s was %3: another device took the name; not restoring</source>
        <translation>%1 ist jetzt Gerät %2, das im Journal war %3: ein anderes Gerät hat den Namen übernommen; keine Wiederherstellung</translation>
    </message>
    <message>
        <source>%1 was re-attached or its medium changed since (diskseq %2, now %3); not restoring</source>
        <translation>%1 wurde seitdem neu angebunden oder sein Medium gewechselt (diskseq %2, jetzt %3); keine Wiederherstellung</translation>
    </message>
    <message>
        <source>cannot create the journal directory %1: %2</source>
        <translation>das Journalverzeichnis %1 lässt sich nicht anlegen: %2</translation>
    </message>
    <message>
        <source>cannot use the journal directory %1: %2</source>
        <translation>das Journalverzeichnis %1 lässt sich nicht verwenden: %2</translation>
    </message>
    <message>
        <source>cannot remove the journal %1: %2</source>
        <translation>das Journal %1 lässt sich nicht entfernen: %2</translation>
    </message>
    <message>
        <source>XDG_RUNTIME_DIR is not set, so there is no private place for the journal of original values; set it (or BLOCKTUNE_JOURNAL_DIR)</source>
        <translation>XDG_RUNTIME_DIR ist nicht gesetzt, also gibt es keinen privaten Ort für das Journal der ursprünglichen Werte; es setzen (oder BLOCKTUNE_JOURNAL_DIR)</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 lässt sich nicht lesen: %2</translation>
    </message>
    <message>
        <source>%1 is not a readable journal (%2): nothing was restored from it; %3</source>
        <translation>%1 ist kein lesbares Journal (%2): daraus wurde nichts wiederhergestellt; %3</translation>
    </message>
    <message>
        <source>it could not be moved aside (%1) and stays in place</source>
        <translation>es ließ sich nicht beiseitelegen (%1) und bleibt, wo es ist</translation>
    </message>
    <message>
        <source>moved aside to %1: look at it, then remove it</source>
        <translation>beiseitegelegt als %1: ansehen, dann entfernen</translation>
    </message>
    <message>
        <source>%1 was made for %2, not %3: left alone</source>
        <translation>%1 wurde für %2 angelegt, nicht für %3: unverändert gelassen</translation>
    </message>
    <message>
        <source>the live machine</source>
        <translation>den laufenden Rechner</translation>
    </message>
    <message>
        <source>%1 is from an earlier boot: the kernel has since started afresh, nothing to restore; removed</source>
        <translation>%1 stammt aus einem früheren Systemstart: der Kernel hat seitdem neu begonnen, nichts wiederherzustellen; entfernt</translation>
    </message>
    <message>
        <source>; %1 stays for another try</source>
        <translation>; %1 bleibt für einen weiteren Versuch</translation>
    </message>
    <message>
        <source>%1 keeps %2 value(s) that could not be restored, for another try</source>
        <translation>%1 behält %2 Wert(e), die sich nicht wiederherstellen ließen, für einen weiteren Versuch</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not KEY=VALUE (keys: %2)</source>
        <translation>„%1“ ist nicht SCHLÜSSEL=WERT (Schlüssel: %2)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has no value after &apos;=&apos; (write %2VALUE as one word)</source>
        <translation>„%1“ hat keinen Wert nach „=“ (%2WERT als ein Wort schreiben)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has a space in it: write KEY=VALUE as one word, e.g. %2=%3</source>
        <translation>„%1“ enthält ein Leerzeichen: SCHLÜSSEL=WERT als ein Wort schreiben, z. B. %2=%3</translation>
    </message>
    <message>
        <source>context readahead on %1 is built into the kernel and always on since 2.6.31; this kernel has no switch for it (no queue/context_readahead, no /proc/sys/vm/enable_context_readahead), so it is not tunable</source>
        <translation>Kontext-Readahead auf %1 ist seit 2.6.31 fest im Kernel eingebaut und immer an; dieser Kernel hat keinen Schalter dafür (kein queue/context_readahead, kein /proc/sys/vm/enable_context_readahead), also lässt es sich nicht einstellen</translation>
    </message>
    <message>
        <source>no block device named &apos;%1&apos; (see blocktune-cli list)</source>
        <translation>kein Blockgerät namens „%1“ (siehe blocktune-cli list)</translation>
    </message>
    <message>
        <source>%1 is a partition: readahead and the queue settings are those of the whole disk %2 (changing them changes %2)</source>
        <translation>%1 ist eine Partition: Readahead und die Warteschlangen-Einstellungen sind die der ganzen Festplatte %2 (sie zu ändern ändert %2)</translation>
    </message>
    <message>
        <source>the context readahead switch %1 is machine-wide: it applies to every device</source>
        <translation>der Kontext-Readahead-Schalter %1 gilt systemweit: er wirkt auf jedes Gerät</translation>
    </message>
    <message>
        <source>read_ahead_kb %1 on %2 is below the kernel&apos;s readahead floor of %3 KiB (2 x stripe of %4 KiB): re-assembly or a reshape raises it again</source>
        <translation>read_ahead_kb %1 auf %2 liegt unter der Readahead-Untergrenze des Kernels von %3 KiB (2 x Stripe von %4 KiB): ein erneutes Zusammensetzen oder ein Reshape hebt es wieder an</translation>
    </message>
    <message>
        <source>LVM sets readahead again on every activation: make a value stick with lvchange -r (in sectors)</source>
        <translation>LVM setzt das Readahead bei jeder Aktivierung neu: einen Wert mit lvchange -r (in Sektoren) dauerhaft machen</translation>
    </message>
    <message>
        <source>%1 is bio-based (no request queue): nr_requests does not apply</source>
        <translation>%1 ist bio-basiert (keine Request-Warteschlange): nr_requests gilt hier nicht</translation>
    </message>
    <message>
        <source>planned</source>
        <translation>geplant</translation>
    </message>
    <message>
        <source>applied</source>
        <translation>angewendet</translation>
    </message>
    <message>
        <source>rolled back</source>
        <translation>zurückgenommen</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>übersprungen</translation>
    </message>
    <message>
        <source>restored</source>
        <translation>wiederhergestellt</translation>
    </message>
    <message>
        <source>already original</source>
        <translation>bereits ursprünglich</translation>
    </message>
    <message>
        <source>discarded</source>
        <translation>verworfen</translation>
    </message>
    <message>
        <source>device changed</source>
        <translation>Gerät gewechselt</translation>
    </message>
    <message>
        <source>; nothing was changed</source>
        <translation>; es wurde nichts geändert</translation>
    </message>
    <message>
        <source>waited for %1</source>
        <translation>auf %1 gewartet</translation>
    </message>
    <message>
        <source>interrupted by signal %1 before %2=%3 on %4</source>
        <translation>durch Signal %1 unterbrochen vor %2=%3 auf %4</translation>
    </message>
    <message>
        <source>%1=%2 on %3 failed: %4</source>
        <translation>%1=%2 auf %3 ist fehlgeschlagen: %4</translation>
    </message>
    <message>
        <source>the kernel kept %1, not %2</source>
        <translation>der Kernel hat %1 behalten, nicht %2</translation>
    </message>
    <message>
        <source>applied, but rolling it back failed: %1</source>
        <translation>angewendet, aber das Zurücknehmen ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>the original values stay in %1: run blocktune-cli restore</source>
        <translation>die ursprünglichen Werte bleiben in %1: blocktune-cli restore ausführen</translation>
    </message>
    <message>
        <source>%1 value(s) could not be restored; they stay in %2 for blocktune-cli restore</source>
        <translation>%1 Wert(e) ließen sich nicht wiederherstellen; sie bleiben in %2 für blocktune-cli restore</translation>
    </message>
    <message>
        <source>%1 of %2 is set twice in one change set (%3 and %4)</source>
        <translation>%1 von %2 wird in einem Änderungssatz zweimal gesetzt (%3 und %4)</translation>
    </message>
    <message>
        <source>%1 &apos;%2&apos; on %3 is not valid: a whole number of %4 is needed (allowed: 0 to %5)</source>
        <translation>%1 „%2“ auf %3 ist ungültig: nötig ist eine ganze Zahl in %4 (erlaubt: 0 bis %5)</translation>
    </message>
    <message>
        <source>512-byte sectors</source>
        <translation>512-Byte-Sektoren</translation>
    </message>
    <message>
        <source>ra_sectors %1 = read_ahead_kb %2 (512-byte sectors, as blockdev --setra counts)%3</source>
        <translation>ra_sectors %1 = read_ahead_kb %2 (512-Byte-Sektoren, wie blockdev --setra zählt)%3</translation>
    </message>
    <message>
        <source>; an odd count keeps what blockdev --setra %1 keeps: the kernel stores whole pages</source>
        <translation>; eine ungerade Anzahl behält, was blockdev --setra %1 behält: der Kernel speichert ganze Seiten</translation>
    </message>
    <message>
        <source>the kernel keeps readahead in whole %1 KiB pages: read_ahead_kb %2 will read back as %3</source>
        <translation>der Kernel hält Readahead in ganzen Seiten zu %1 KiB: read_ahead_kb %2 wird als %3 zurückgelesen</translation>
    </message>
    <message>
        <source>LVM sets readahead again on every activation of %1: make it stick with lvchange -r %2</source>
        <translation>LVM setzt das Readahead bei jeder Aktivierung von %1 neu: mit lvchange -r %2 dauerhaft machen</translation>
    </message>
    <message>
        <source>nr_requests does not apply to %1: it is bio-based (no request queue to size)</source>
        <translation>nr_requests gilt nicht für %1: es ist bio-basiert (keine Request-Warteschlange, deren Größe sich setzen ließe)</translation>
    </message>
    <message>
        <source>without a scheduler, at most the hardware queue depth</source>
        <translation>ohne Scheduler höchstens die Warteschlangentiefe der Hardware</translation>
    </message>
    <message>
        <source>with scheduler %1</source>
        <translation>mit Scheduler %1</translation>
    </message>
    <message>
        <source>one page up to max_hw_sectors_kb</source>
        <translation>eine Seite bis max_hw_sectors_kb</translation>
    </message>
    <message>
        <source>allowed: %1 to %2, %3</source>
        <translation>erlaubt: %1 bis %2, %3</translation>
    </message>
    <message>
        <source>%1 &apos;%2&apos; on %3 is not a whole number (%4)</source>
        <translation>%1 „%2“ auf %3 ist keine ganze Zahl (%4)</translation>
    </message>
    <message>
        <source>max_sectors_kb %1 is above max_hw_sectors_kb %2 on %3 (allowed: %4 to %2)</source>
        <translation>max_sectors_kb %1 liegt über max_hw_sectors_kb %2 auf %3 (erlaubt: %4 bis %2)</translation>
    </message>
    <message>
        <source>%1 %2 is out of range on %3 (%4)</source>
        <translation>%1 %2 liegt auf %3 außerhalb des Bereichs (%4)</translation>
    </message>
    <message>
        <source>the kernel raises nr_requests below %1 to %1</source>
        <translation>der Kernel hebt nr_requests unter %1 auf %1 an</translation>
    </message>
    <message>
        <source>context_readahead &apos;%1&apos; on %2 is not valid (allowed: 0, 1)</source>
        <translation>context_readahead „%1“ auf %2 ist ungültig (erlaubt: 0, 1)</translation>
    </message>
    <message>
        <source>%1 is machine-wide: context_readahead=%2 applies to every device</source>
        <translation>%1 gilt systemweit: context_readahead=%2 wirkt auf jedes Gerät</translation>
    </message>
    <message>
        <source>cannot check %1 before %2 switches to %3, whose tunables blocktune does not know: switch first, then set it in a second command</source>
        <translation>%1 lässt sich nicht prüfen, bevor %2 zu %3 wechselt, dessen Parameter blocktune nicht kennt: erst wechseln, dann in einem zweiten Befehl setzen</translation>
    </message>
    <message>
        <source>; it belongs to %1: switch in the same command, e.g. scheduler=%1 %2=%3</source>
        <translation>; es gehört zu %1: im selben Befehl wechseln, z. B. scheduler=%1 %2=%3</translation>
    </message>
    <message>
        <source>%1 is not a tunable of %2, %3 scheduler on %4 (tunables: %5)%6</source>
        <translation>%1 ist kein Parameter von %2, %3 Scheduler auf %4 (Parameter: %5)%6</translation>
    </message>
    <message>
        <source>the new</source>
        <translation>dem neuen</translation>
    </message>
    <message>
        <source>the active</source>
        <translation>dem aktiven</translation>
    </message>
    <message>
        <source>%1 &apos;%2&apos; on %3 is not a whole number (allowed: 0 to 18446744073709551615, digits only)</source>
        <translation>%1 „%2“ auf %3 ist keine ganze Zahl (erlaubt: 0 bis 18446744073709551615, nur Ziffern)</translation>
    </message>
    <message>
        <source>%4: read_ahead_kb %1 also on %2 (the disks under %3)</source>
        <translation>%4: read_ahead_kb %1 auch auf %2 (die Festplatten unter %3)</translation>
    </message>
    <message>
        <source>the disks under %1 keep their own readahead (%2); %4 sets them to %3 KiB too</source>
        <translation>die Festplatten unter %1 behalten ihr eigenes Readahead (%2); %4 setzt sie ebenfalls auf %3 KiB</translation>
    </message>
    <message>
        <source>%1 has no effect: this change set sets no md or dm readahead</source>
        <translation>%1 wirkt nicht: dieser Änderungssatz setzt kein md- oder dm-Readahead</translation>
    </message>
    <message>
        <source>unknown setting &apos;%1&apos; on %2 (settings: %3)</source>
        <translation>unbekannte Einstellung „%1“ auf %2 (Einstellungen: %3)</translation>
    </message>
    <message>
        <source>%1 on %2 needs a value</source>
        <translation>%1 auf %2 braucht einen Wert</translation>
    </message>
    <message>
        <source>%1 is a partition: readahead and queue settings belong to the whole disk %2; changing %2</source>
        <translation>%1 ist eine Partition: Readahead und Warteschlangen-Einstellungen gehören zur ganzen Festplatte %2; %2 wird geändert</translation>
    </message>
    <message>
        <source>%1 has no I/O scheduler to choose</source>
        <translation>%1 hat keinen I/O-Scheduler zur Auswahl</translation>
    </message>
    <message>
        <source>scheduler &apos;%1&apos; is not available on %2 (available: %3)</source>
        <translation>Scheduler „%1“ ist auf %2 nicht verfügbar (verfügbar: %3)</translation>
    </message>
    <message>
        <source>scheduler of %1 is set twice in one change set (%2 and %3)</source>
        <translation>der Scheduler von %1 wird in einem Änderungssatz zweimal gesetzt (%2 und %3)</translation>
    </message>
    <message>
        <source>%1 does not exist here</source>
        <translation>%1 gibt es hier nicht</translation>
    </message>
    <message>
        <source>%1 is device %2 here, the plan was made for %3</source>
        <translation>%1 ist hier das Gerät %2, der Plan wurde für %3 erstellt</translation>
    </message>
    <message>
        <source>%1 was re-attached since the plan was made (diskseq %2, now %3)</source>
        <translation>%1 wurde seit dem Plan neu angebunden (diskseq %2, jetzt %3)</translation>
    </message>
    <message>
        <source>the plan writes %1 on %2 without its original value: nothing could bring it back, so nothing was changed</source>
        <translation>der Plan schreibt %1 auf %2 ohne dessen ursprünglichen Wert: nichts könnte ihn zurückbringen, daher wurde nichts geändert</translation>
    </message>
    <message>
        <source>: the plan is stale, nothing was changed (look again)</source>
        <translation>: der Plan ist veraltet, nichts wurde geändert (erneut nachsehen)</translation>
    </message>
    <message>
        <source>the journal directory</source>
        <translation>das Journalverzeichnis</translation>
    </message>
    <message>
        <source>(machine)</source>
        <translation>(Maschine)</translation>
    </message>
    <message>
        <source>%1 -&gt; %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>(new)</source>
        <translation>(neu)</translation>
    </message>
    <message>
        <source> (the kernel kept %1)</source>
        <translation> (der Kernel hat %1 behalten)</translation>
    </message>
</context>
<context>
    <name>blocktune::TuningPanel</name>
    <message>
        <source>Readahead</source>
        <translation>Vorauslesen (Readahead)</translation>
    </message>
    <message>
        <source> KiB</source>
        <translation> KiB</translation>
    </message>
    <message>
        <source>Readahead in KiB</source>
        <translation>Readahead in KiB</translation>
    </message>
    <message>
        <source>Also set it on the member disks</source>
        <translation>Auch auf den Mitgliedsplatten setzen</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <source>I/O scheduler</source>
        <translation>I/O-Scheduler</translation>
    </message>
    <message>
        <source>nr_requests</source>
        <translation>nr_requests</translation>
    </message>
    <message>
        <source>max_sectors_kb</source>
        <translation>max_sectors_kb</translation>
    </message>
    <message>
        <source>Context readahead</source>
        <translation>Kontext-Readahead</translation>
    </message>
    <message>
        <source>Scheduler tunables</source>
        <translation>Scheduler-Parameter</translation>
    </message>
    <message>
        <source>Tunable</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Apply…</source>
        <translation>Anwenden …</translation>
    </message>
    <message>
        <source>Reset form</source>
        <translation>Formular zurücksetzen</translation>
    </message>
    <message>
        <source>Revert session</source>
        <translation>Sitzung zurücknehmen</translation>
    </message>
    <message>
        <source>Restore every value this console changed since it started</source>
        <translation>Jeden Wert wiederherstellen, den diese Konsole seit ihrem Start geändert hat</translation>
    </message>
    <message>
        <source>Select a device to tune</source>
        <translation>Ein Gerät zum Einstellen auswählen</translation>
    </message>
    <message>
        <source>%1: cannot read settings</source>
        <translation>%1: Einstellungen lassen sich nicht lesen</translation>
    </message>
    <message>
        <source>%1 (settings of its disk %2)</source>
        <translation>%1 (Einstellungen seiner Festplatte %2)</translation>
    </message>
    <message>
        <source>Also set it on the member disks (%1)</source>
        <translation>Auch auf den Mitgliedsplatten setzen (%1)</translation>
    </message>
    <message>
        <source>At most max_hw_sectors_kb = %1 KiB</source>
        <translation>Höchstens max_hw_sectors_kb = %1 KiB</translation>
    </message>
    <message>
        <source>built in and always on since Linux 2.6.31 (this kernel has no switch)</source>
        <translation>seit Linux 2.6.31 eingebaut und immer aktiv (dieser Kernel hat keinen Schalter)</translation>
    </message>
    <message>
        <source>%1 (switch: %2)</source>
        <translation>%1 (Schalter: %2)</translation>
    </message>
    <message>
        <source>on</source>
        <translation>an</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>%1 KiB = %2 sectors (blockdev --setra %2)</source>
        <translation>%1 KiB = %2 Sektoren (blockdev --setra %2)</translation>
    </message>
    <message>
        <source>Below the kernel&apos;s floor of %1 KiB (2 x stripe): re-assembly or a reshape raises it again.</source>
        <translation>Unter der Untergrenze des Kernels von %1 KiB (2 x Stripe): erneutes Zusammensetzen oder ein Reshape hebt den Wert wieder an.</translation>
    </message>
    <message>
        <source>Kernel floor for this array: %1 KiB (2 x stripe).</source>
        <translation>Untergrenze des Kernels für diesen Verbund: %1 KiB (2 x Stripe).</translation>
    </message>
    <message>
        <source>Nothing was changed:
%1</source>
        <translation>Es wurde nichts geändert:
%1</translation>
    </message>
    <message>
        <source>Apply these changes?</source>
        <translation>Diese Änderungen anwenden?</translation>
    </message>
    <message numerus="yes">
        <source>Restored %n setting(s) to their values from before this session.</source>
        <translation>
            <numerusform>%n Einstellung auf ihren Wert von vor dieser Sitzung zurückgesetzt.</numerusform>
            <numerusform>%n Einstellungen auf ihre Werte von vor dieser Sitzung zurückgesetzt.</numerusform>
        </translation>
    </message>
    <message>
        <source>Revert failed: %1</source>
        <translation>Zurücknehmen fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Give up the change that waits for authorization; nothing of it stays</source>
        <translation>Die Änderung aufgeben, die auf Autorisierung wartet; nichts davon bleibt</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen …</translation>
    </message>
    <message>
        <source>%1: reading settings…</source>
        <translation>%1: Einstellungen werden gelesen …</translation>
    </message>
    <message>
        <source>Writing… (the first change asks for authorization)</source>
        <translation>Schreibt … (die erste Änderung fragt nach Autorisierung)</translation>
    </message>
    <message>
        <source>Readahead scale</source>
        <translation>Readahead-Skala</translation>
    </message>
    <message>
        <source>Red mark: the kernel&apos;s readahead floor for this array, %1 KiB</source>
        <translation>Rote Marke: die Readahead-Untergrenze des Kernels für diesen Verbund, %1 KiB</translation>
    </message>
    <message numerus="yes">
        <source>Try for %n s</source>
        <translation>
            <numerusform>%n s lang probieren</numerusform>
            <numerusform>%n s lang probieren</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Apply as a temporary change, restored after %n seconds unless you keep it</source>
        <translation>
            <numerusform>Als vorübergehende Änderung anwenden, nach %n Sekunde wiederhergestellt, sofern Sie sie nicht behalten</numerusform>
            <numerusform>Als vorübergehende Änderung anwenden, nach %n Sekunden wiederhergestellt, sofern Sie sie nicht behalten</numerusform>
        </translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>Behalten</translation>
    </message>
    <message>
        <source>Keep the values being tried (Revert session still undoes them)</source>
        <translation>Die probierten Werte behalten („Sitzung zurücknehmen“ macht sie weiterhin rückgängig)</translation>
    </message>
    <message>
        <source>Restore now</source>
        <translation>Jetzt wiederherstellen</translation>
    </message>
    <message>
        <source>“Also set it on the member disks”</source>
        <translation>„Auch auf den Mitgliedsplatten setzen“</translation>
    </message>
    <message numerus="yes">
        <source>Trying: restored in %n s unless kept</source>
        <translation>
            <numerusform>Probelauf: in %n s wiederhergestellt, sofern nicht behalten</numerusform>
            <numerusform>Probelauf: in %n s wiederhergestellt, sofern nicht behalten</numerusform>
        </translation>
    </message>
    <message>
        <source>Kept. Revert session still takes it back.</source>
        <translation>Behalten. „Sitzung zurücknehmen“ nimmt es weiterhin zurück.</translation>
    </message>
    <message numerus="yes">
        <source>Try these changes for %n s?</source>
        <translation>
            <numerusform>Diese Änderungen %n s lang probieren?</numerusform>
            <numerusform>Diese Änderungen %n s lang probieren?</numerusform>
        </translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <source>The changes in this form were not applied; nothing was written to %1.</source>
        <translation>Die Änderungen in diesem Formular wurden nicht angewendet; nichts wurde auf %1 geschrieben.</translation>
    </message>
    <message>
        <source>Select another device to tune.</source>
        <translation>Wählen Sie ein anderes Gerät zum Einstellen.</translation>
    </message>
</context>
</TS>
