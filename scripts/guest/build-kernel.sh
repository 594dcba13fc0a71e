#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Builds the riscv64 guest kernel from Debian's linux-source-6.12, in a cache
# outside the clone, incrementally.
#
# Usage: build-kernel.sh   (environment, set by scripts/guest/build.mk:
#   LINUX_SRC where to unpack, KBUILD_OUT the build directory,
#   CROSS_COMPILE, JOBS)
#
# The source is unpacked once per Debian package version.  The .config is
# regenerated from tinyconfig + kernel.config on every call but only replaces
# the cached one when it differs, so an unchanged fragment costs nothing and
# a changed one rebuilds only what it touches.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${LINUX_SRC:?} out=${KBUILD_OUT:?}
cross=${CROSS_COMPILE:-riscv64-linux-gnu-}
jobs=${JOBS:-$(nproc)}
tarball=/usr/src/linux-source-6.12.tar.xz
fragment=$here/kernel.config

die() { echo "build-kernel: $*" >&2; exit 1; }
[ -r "$tarball" ] || die "$tarball missing (run 'make deps')"
command -v "${cross}gcc" >/dev/null || die "${cross}gcc missing (run 'make deps')"

mkdir -p "$(dirname "$src")"

# Unpack once; the stamp is written last, so an interrupted unpack is redone.
if [ ! -e "$src/.rvperf-unpacked" ]; then
	echo "build-kernel: unpacking $tarball into $src" >&2
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xf "$tarball" -C "$src.tmp" --strip-components=1
	mv "$src.tmp" "$src"
	touch "$src/.rvperf-unpacked"
fi

# Fast path: the inputs are the fragment and the unpacked source (which
# nothing edits), so an Image built from the same fragment is current.
inputs=$(cat "$fragment" "$0" | sha256sum | cut -d' ' -f1)
stamp=$out/.rvperf-inputs
if [ -f "$out/arch/riscv/boot/Image" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$inputs" ]; then
	exit 0
fi

kmake() { make -s -C "$src" O="$out" ARCH=riscv CROSS_COMPILE="$cross" "$@"; }

mkdir -p "$out"
cfgdir=$(mktemp -d)
trap 'rm -rf "$cfgdir"' EXIT
# Generate the wanted .config in a scratch build dir, then compare.
make -s -C "$src" O="$cfgdir" ARCH=riscv CROSS_COMPILE="$cross" tinyconfig >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$cfgdir" "$cfgdir/.config" "$fragment" >/dev/null
make -s -C "$src" O="$cfgdir" ARCH=riscv CROSS_COMPILE="$cross" olddefconfig >/dev/null
# Every option the fragment asks for must have survived olddefconfig.
missing=$(grep -E '^CONFIG_[A-Z0-9_]+=' "$fragment" | while IFS= read -r line; do
	grep -qxF "$line" "$cfgdir/.config" || echo "$line"; done)
[ -z "$missing" ] || die "options not accepted by the kernel: $(echo $missing)"
if ! cmp -s "$cfgdir/.config" "$out/.config"; then
	echo "build-kernel: configuration changed, rebuilding" >&2
	cp "$cfgdir/.config" "$out/.config"
fi

rm -f "$stamp"
kmake -j"$jobs" Image
echo "$inputs" >"$stamp"
