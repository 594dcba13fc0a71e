#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Every source file carries an SPDX line in its first lines, with the licence
# its directory requires: GPL-2.0-only in linux-driver/, GPL-2.0-or-later in
# the QEMU-side glue (qemu-model/qemu/), BSD-2-Clause elsewhere.
set -u
. tests/tap.sh
files=$(git ls-files --cached --others --exclude-standard 2>/dev/null |
	grep -E '(\.(c|h|py|sh|mk|S|ld|lds|dts|dtsi)|(^|/)(Makefile|Kconfig|Kbuild|defconfig|run)|/objects\.mk)$' |
	grep -v '^build/')
if [ -z "$files" ]; then
	echo "1..0 # SKIP not a git checkout"
	exit 0
fi
missing= wrong=
for f in $files; do
	[ -f "$f" ] || continue
	line=$(head -n 3 "$f" | grep -o 'SPDX-License-Identifier: [^ *]*' | head -n 1)
	if [ -z "$line" ]; then
		missing="$missing $f"
		continue
	fi
	case $f in
	linux-driver/*) want=GPL-2.0-only ;;
	qemu-model/qemu/*) want=GPL-2.0-or-later ;;
	*) want=BSD-2-Clause ;;
	esac
	[ "${line#SPDX-License-Identifier: }" = "$want" ] || wrong="$wrong $f(${line#SPDX-License-Identifier: }, want $want)"
done
[ -z "$missing" ]
ok $? "every source file has an SPDX line ($(echo "$files" | wc -l) files)"
[ -z "$missing" ] || diag "missing:$missing"
[ -z "$wrong" ]
ok $? "every SPDX line names its directory's licence"
[ -z "$wrong" ] || diag "wrong:$wrong"
for l in LICENSE LICENSES/GPL-2.0.txt; do
	[ -s "$l" ]
	ok $? "licence text $l is present"
done
tap_done
