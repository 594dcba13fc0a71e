#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# QEMU's stale overflow leftover (ovf-leftover.c): a counter started far
# from overflowing, then near, must raise its LCOFI.  Runs on any QEMU with
# Sscofpmf; on one without qemu-model/qemu (patch 0007 fixes it) the second
# pair is a TODO naming the bug, so the tier documents what a QEMU does.
# Under -icount only: without it QEMU raises overflows from host time, and
# whether the LCOFI comes within the loop depends on the host's load (seen
# missing on a loaded machine even without the far start).
# QEMU=/path/to/qemu-system-riscv64; SKIPs without it.
set -u
. "$(dirname "$0")/lib.sh"
need_qemu
need_cc
make_tmp
echo "1..4"
build_guest_or_bail "$tmp/g.elf" "$top/tests/qemu/ovf-leftover.c"
todo=
qemu_has_rvperf ||
	todo=" # TODO this QEMU keeps a stale irq_overflow_left (qemu-model/qemu/patches/0007)"
i=1
for clock in "-icount shift=0"; do
	timeout 120 "$QEMU" -M virt -bios none -nographic -monitor none \
		-serial stdio -cpu rv64,sscofpmf=true $clock -kernel "$tmp/g.elf" \
		</dev/null 2>"$tmp/err" |
		tr -d '\r' | sed -n '/^BEGIN$/,/^END$/p' | sed '1d;$d' >"$tmp/got"
	guest_tap "$tmp/got" $i 4 "$clock" >"$tmp/tap"
	# The pair after a far start is the bug's.
	sed "3,4{/^not ok/s|\$|$todo|}" "$tmp/tap"
	[ "$n" = 4 ] || sed 's/^/# /' "$tmp/err" | head -5
	i=$((i + 4))
done
