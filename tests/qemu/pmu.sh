#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The counter model's events on a QEMU patched with qemu-model/qemu (issue
# 7): pmu.c counts a known number of branches, calls and returns through
# mhpmevent3..7 with CTR off, then overflows a counter (OF, scountovf, an
# exact LCOFI) and inhibits one; the virt machine's devicetree (dumpdtb) must
# carry the riscv,pmu map of qemu-model/core/hpmhw_map.h, its counter
# bitmaps limited to the hart's counters (default and a smaller pmu-mask).
# QEMU=/path/to/qemu-system-riscv64; SKIPs without it.
set -u
. "$(dirname "$0")/lib.sh"
hostcc=${HOST_CC:-cc}
need_rvperf_qemu
make_tmp
echo "1..20"
cpu=rv64,sscofpmf=true,smctr=true,ssctr=true,ctr-layout=ratified
build_guest_or_bail "$tmp/g.elf" "$top/tests/qemu/pmu.c"
timeout 60 "$QEMU" -M virt -bios none -nographic -monitor none -serial stdio \
	-cpu "$cpu" -kernel "$tmp/g.elf" </dev/null 2>"$tmp/err" |
	tr -d '\r' | sed -n '/^BEGIN$/,/^END$/p' | sed '1d;$d' >"$tmp/got"
guest_tap "$tmp/got" 1 13
[ "$n" = 13 ] || sed 's/^/# /' "$tmp/err" | head -5
i=13
# The devicetree: QEMU writes it with dumpdtb; a small FDT reader prints
# the three riscv,pmu properties of /pmu as cells.  Their counter bitmaps
# name the counters the hart has: mcycle, minstret and pmu-mask's (3..18
# by default; 3..6 with pmu-mask=0x78).
"$hostcc" -I"$top/include" -I"$top" -o "$tmp/map" \
	"$top/tests/qemu/pmu-map-print.c" || echo "# pmu-map-print did not build"
for conf in "$cpu 7fffd" "$cpu,pmu-mask=0x78 7d"; do
set -- $conf
"$QEMU" -M virt,dumpdtb="$tmp/virt.dtb" -bios none -cpu "$1" -display none \
	>/dev/null 2>"$tmp/dtb.err" || sed 's/^/# dumpdtb: /' "$tmp/dtb.err"
python3 - "$tmp/virt.dtb" >"$tmp/dt" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
off_struct, off_strings = struct.unpack('>II', d[8:16])
p, path = off_struct, []
while True:
    tok, = struct.unpack('>I', d[p:p + 4]); p += 4
    if tok == 1:
        e = d.index(b'\0', p); path.append(d[p:e].decode())
        p = (e + 4) & ~3
    elif tok == 2:
        path.pop()
    elif tok == 3:
        ln, no = struct.unpack('>II', d[p:p + 8]); p += 8
        name = d[off_strings + no:d.index(b'\0', off_strings + no)].decode()
        if '/'.join(path) == '/pmu' and name.startswith('riscv,'):
            cells = struct.unpack('>%dI' % (ln // 4), d[p:p + ln])
            print(name, ' '.join('0x%x' % c for c in cells))
        p = (p + ln + 3) & ~3
    elif tok == 9:
        break
PY
"$tmp/map" "$2" >"$tmp/want" 2>/dev/null
for prop in riscv,event-to-mhpmevent riscv,event-to-mhpmcounters \
	riscv,raw-event-to-mhpmcounters; do
	i=$((i + 1))
	w=$(grep "^$prop " "$tmp/want")
	g=$(grep "^$prop " "$tmp/dt")
	if [ -n "$w" ] && [ "$w" = "$g" ]; then
		echo "ok $i /pmu $prop is hpmhw_map.h's (counters 0x$2)"
	else
		echo "not ok $i /pmu $prop is hpmhw_map.h's (counters 0x$2)"
		echo "# want: $w"
		echo "# got:  $g"
	fi
done
done
# A pmu-mask with gaps: the counter model's counters are 3, 4, ... only.
# QEMU must refuse the CPU at start (-S: a QEMU that starts just waits).
i=$((i + 1))
timeout 10 "$QEMU" -M virt -bios none -cpu "$cpu,pmu-mask=0x28" -display none -S \
	</dev/null >"$tmp/gap.out" 2>&1
rc=$?
if [ "$rc" != 124 ] && [ "$rc" != 0 ] &&
	grep -q "pmu-mask must be the counters from 3" "$tmp/gap.out"; then
	echo "ok $i pmu-mask=0x28 (gaps) refused: $(grep -o 'pmu-mask must[^(]*' "$tmp/gap.out")"
else
	echo "not ok $i pmu-mask=0x28 (gaps) refused (status $rc)"
	sed 's/^/# /' "$tmp/gap.out" | head -3
fi
