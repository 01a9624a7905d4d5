#!/usr/bin/env bash
# Brings translations/blocktune_*.ts up to date with the sources: lupdate
# reads app/, ui/ and core/ (core marks its messages with the contexts of
# core/common/tr.h), adds new strings as unfinished and drops vanished ones.
# Then translate the unfinished entries (linguist translations/blocktune_de.ts,
# or any editor) and commit; tst_translations fails while one is left.
# Usage: scripts/update-translations.sh [LANG...]   (e.g. "fr" starts blocktune_fr.ts)
set -euo pipefail
cd "$(dirname "$0")/.."
bins=$(qtpaths6 --query QT_HOST_BINS 2>/dev/null || echo /usr/lib/qt6/bin)
lupdate="$bins/lupdate"
[ -x "$lupdate" ] || { echo "update-translations: $lupdate not found (apt-get install qt6-l10n-tools)"; exit 1; }

ts_files=()
for lang in "$@"; do ts_files+=("translations/blocktune_$lang.ts"); done
if [ "${#ts_files[@]}" -eq 0 ]; then
    ts_files=(translations/blocktune_*.ts)
fi
# The same options as the build's lupdate target and tst_translations
# (resources/CMakeLists.txt): no line numbers, so moving code does not
# rewrite the .ts files; vanished strings are dropped, not kept.
# translations/blocktune_en.ts holds only the plural forms ("%n device(s)"
# -> "1 device", "2 devices"): the sources are English, their plurals not.
full=() plural=()
for ts in "${ts_files[@]}"; do
    if [ "$(basename "$ts")" = blocktune_en.ts ]; then plural+=("$ts"); else full+=("$ts"); fi
done
if [ "${#full[@]}" -gt 0 ]; then
    "$lupdate" -locations none -no-obsolete -extensions cpp,h app ui core -ts "${full[@]}"
fi
if [ "${#plural[@]}" -gt 0 ]; then
    "$lupdate" -locations none -no-obsolete -pluralonly -extensions cpp,h app ui core -ts "${plural[@]}"
fi
