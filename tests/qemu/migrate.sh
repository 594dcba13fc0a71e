#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Migration of the rvperf CTR model (issue 7) on a QEMU patched with
# qemu-model/qemu: migrate.c records transfers and prints the model's
# state, then waits for a byte on the UART; this script migrates it to a
# file from one QEMU ("migrate exec:"), restores it in a second one
# (-incoming exec:) and sends the byte there; the state the restored
# guest prints must equal what it printed before.  A QEMU with the other
# ctr-layout must refuse that state.
# QEMU=/path/to/qemu-system-riscv64; SKIPs without it.
set -u
. "$(dirname "$0")/lib.sh"
need_rvperf_qemu
make_tmp
echo "1..5"
build_guest_or_bail "$tmp/g.elf" "$top/tests/qemu/migrate.c"
cpu=rv64,smctr=true,ssctr=true,ctr-layout=ratified
mkfifo "$tmp/mon"
# Source: the monitor reads the fifo, the UART goes to a file.
timeout 60 "$QEMU" -M virt -bios none -display none -cpu "$cpu" \
	-kernel "$tmp/g.elf" -serial "file:$tmp/a.out" -monitor stdio \
	<"$tmp/mon" >"$tmp/a.mon" 2>"$tmp/a.err" &
qa=$!
exec 3>"$tmp/mon"
n=0
until grep -q '^WAIT' "$tmp/a.out" 2>/dev/null || [ $n -ge 200 ]; do
	sleep 0.1
	n=$((n + 1))
done
echo "migrate \"exec:cat > $tmp/state\"" >&3
n=0
until grep -q 'completed' "$tmp/a.mon" || [ $n -ge 100 ]; do
	sleep 0.2
	echo "info migrate" >&3
	n=$((n + 1))
done
echo "quit" >&3
exec 3>&-
wait $qa
tr -d '\r' <"$tmp/a.out" | sed -n '/^state /p' >"$tmp/before"
if [ "$(grep -c '^state source' "$tmp/before")" -ge 20 ]; then
	echo "ok 1 source QEMU: $(grep -c '^state source' "$tmp/before") entries recorded before migrating"
else
	echo "not ok 1 source QEMU recorded entries before migrating"
	sed 's/^/# /' "$tmp/a.out" "$tmp/a.err" | head -20
fi
if [ -s "$tmp/state" ] && grep -q completed "$tmp/a.mon"; then
	echo "ok 2 migration to a file completed"
else
	echo "not ok 2 migration to a file completed"
	sed 's/^/# /' "$tmp/a.mon" | tail -20
fi
# Destination: restore from the file, then send the byte the guest waits for.
(sleep 2; printf 'x'; sleep 5) | timeout 60 "$QEMU" -M virt -bios none \
	-display none -cpu "$cpu" -kernel "$tmp/g.elf" -serial stdio \
	-monitor none -incoming "exec:cat $tmp/state" 2>"$tmp/b.err" |
	tr -d '\r' | sed -n '/^RESUMED$/,/^END$/p' >"$tmp/b.out"
sed -n '/^state /p' "$tmp/b.out" >"$tmp/after"
if grep -q '^RESUMED' "$tmp/b.out"; then
	echo "ok 3 the restored guest resumed"
else
	echo "not ok 3 the restored guest resumed"
	sed 's/^/# /' "$tmp/b.err" | head
fi
if [ -s "$tmp/before" ] && diff -u "$tmp/before" "$tmp/after" >"$tmp/diff"; then
	echo "ok 4 control registers and $(grep -c '^state source' "$tmp/after") entries equal after restoring"
else
	echo "not ok 4 state equal after restoring"
	sed 's/^/# /' "$tmp/diff" | head -30
fi
# A draft-layout hart must not take a ratified model's state.
timeout 60 "$QEMU" -M virt -bios none -display none \
	-cpu rv64,smctr=true,ssctr=true,ctr-layout=draft -kernel "$tmp/g.elf" \
	-serial none -monitor none -incoming "exec:cat $tmp/state" \
	</dev/null >/dev/null 2>"$tmp/c.err"
rc=$?
if [ -s "$tmp/state" ] && [ $rc -ne 0 ] && [ $rc -ne 124 ] &&
   grep -qi 'rvperf\|load.*fail\|fail.*load' "$tmp/c.err"; then
	echo "ok 5 a ctr-layout=draft QEMU refuses the ratified state (exit $rc)"
else
	echo "not ok 5 a ctr-layout=draft QEMU refuses the ratified state (exit $rc)"
	sed 's/^/# /' "$tmp/c.err" | head
fi
