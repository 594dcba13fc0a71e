#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the rvperf CTR + counter core into a QEMU source tree and apply the
# hook patches.  Usage: qemu-model/qemu/apply.sh /path/to/qemu
# Checked against QEMU v10.2.0 (698104725efa) and the 10.2.2 release source
# (Debian's qemu_10.2.2+ds.orig.tar.xz): the series applies to both without
# offset or fuzz.  It does not build QEMU: scripts/registry/build-qemu.sh
# builds the 10.2.2 source with it, or run your own configure && make.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
qemu=${1:?usage: $0 QEMU_SOURCE_DIR}
[ -f "$qemu/target/riscv/cpu.c" ] || { echo "$qemu: no target/riscv/cpu.c" >&2; exit 1; }
ver=$(cat "$qemu/VERSION" 2>/dev/null || echo unknown)
case $ver in
10.2.*) ;;
*) echo "warning: checked against QEMU 10.2.0 and 10.2.2, this tree is $ver" >&2 ;;
esac
dst=$qemu/target/riscv/rvperf
if [ -e "$dst" ]; then
	echo "$dst exists: already applied? (remove it to re-apply)" >&2
	exit 1
fi
# Check the whole series before touching the tree: apply it in order to a
# scratch copy of the files it patches (later patches build on earlier
# ones, so a dry run of each against the pristine tree is not enough).
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for f in $(sed -n 's|^+++ b/||p' "$here"/patches/*.patch | sort -u); do
	[ -f "$qemu/$f" ] || { echo "$qemu: no $f" >&2; exit 1; }
	mkdir -p "$scratch/$(dirname "$f")"
	cp "$qemu/$f" "$scratch/$f"
done
for p in "$here"/patches/*.patch; do
	patch -d "$scratch" -p1 --forward -s < "$p" >/dev/null ||
		{ echo "$p does not apply to $qemu" >&2; exit 1; }
done
# The core and its spec headers at their paths in the rvperf tree, which is
# how the glue includes them ("qemu-model/core/...", "rvperf/...").
mkdir -p "$dst/qemu-model/core" "$dst/include/rvperf"
cp "$top"/qemu-model/core/*.c "$top"/qemu-model/core/*.h "$dst/qemu-model/core/"
cp "$top"/include/rvperf/*.h "$dst/include/rvperf/"
cp "$here/rvperf.meson.build" "$dst/meson.build"
cp "$here/rvperf-qemu.c" "$here/rvperf-qemu.h" "$dst/"
for p in "$here"/patches/*.patch; do
	patch -d "$qemu" -p1 --forward -s < "$p"
	echo "applied $(basename "$p")"
done
