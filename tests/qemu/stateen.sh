#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Smstateen's CTR bit on a QEMU patched with qemu-model/qemu (issue 7):
# stateen.c as bare-metal guest code, once with ctr-layout=draft (bit 55,
# which upstream's mstateen0 write mask lacks) and once with
# ctr-layout=ratified (bit 54, upstream's own).  Each run's guest prints
# 17 ok / not ok lines.  QEMU=/path/to/qemu-system-riscv64; SKIPs without.
set -u
. "$(dirname "$0")/lib.sh"
need_rvperf_qemu
make_tmp
per=17
echo "1..$((2 * per))"
i=0
for layout in draft ratified; do
	def=
	[ "$layout" = draft ] && def=-DDRAFT
	build_guest_or_bail "$tmp/$layout.elf" "$top/tests/qemu/stateen.c" \
		-I"$top/include" $def
	timeout 60 "$QEMU" -M virt -bios none -nographic -monitor none \
		-serial stdio -kernel "$tmp/$layout.elf" \
		-cpu "rv64,smstateen=true,smcsrind=true,sscsrind=true,smctr=true,ssctr=true,ctr-layout=$layout" \
		</dev/null 2>"$tmp/$layout.err" | tr -d '\r' |
		sed -n '/^BEGIN$/,/^END$/p' | sed '1d;$d' >"$tmp/$layout.got"
	n=0
	while read -r line; do
		case $line in
		"ok "*|"not ok "*)
			i=$((i + 1)) n=$((n + 1))
			echo "$line" | sed "s/^\(not ok\|ok\) /\1 $i $layout: /" ;;
		*)	echo "# $layout: $line" ;;
		esac
	done <"$tmp/$layout.got"
	while [ "$n" -lt "$per" ]; do
		i=$((i + 1)) n=$((n + 1))
		echo "not ok $i $layout: guest check missing"
		sed 's/^/# /' "$tmp/$layout.err" | head -5
	done
done
