#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Builds the riscv64 guest kernel from Debian's linux-source-6.12, in a cache
# outside the clone, incrementally.
#
# Usage: build-kernel.sh   (environment, set by scripts/guest/pipeline.mk:
#   LINUX_SRC where to unpack, KBUILD_OUT the build directory,
#   CROSS_COMPILE, JOBS; KCONFIG_EXTRA: a fragment merged over kernel.config,
#   e.g. kernel-draft.config for the e2e kernel of a draft-CTR guest, which
#   gets a KBUILD_OUT of its own)
#
# The rvperf perf driver (linux-driver/) is copied into the unpacked source
# as drivers/perf/rvperf/ and hooked into drivers/perf/Kconfig and Makefile;
# both steps are idempotent, and only files whose content changed are copied
# again, so kbuild rebuilds only what changed.
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
extra=${KCONFIG_EXTRA:-}
driver=$(cd "$here/../../linux-driver" && pwd)

die() { echo "build-kernel: $*" >&2; exit 1; }
[ -r "$tarball" ] || die "$tarball missing (run 'make deps')"
command -v "${cross}gcc" >/dev/null || die "${cross}gcc missing (run 'make deps')"
[ -z "$extra" ] || [ -r "$extra" ] || die "KCONFIG_EXTRA=$extra: no such file"

mkdir -p "$(dirname "$src")"
# One build at a time on this source: every build installs its clone's
# driver into it, and two makes in one build directory (two clones, or a
# helper's and CI's) leave objects of either behind; a guest kernel built
# so once oopsed in balance_push when a hart went offline.
exec 9>"$src.lock"
flock 9

# Unpack once; the stamp is written last, so an interrupted unpack is redone.
if [ ! -e "$src/.rvperf-unpacked" ]; then
	echo "build-kernel: unpacking $tarball into $src" >&2
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xf "$tarball" -C "$src.tmp" --strip-components=1
	mv "$src.tmp" "$src"
	touch "$src/.rvperf-unpacked"
fi

# The driver's kernel files: everything but the project's own build glue,
# notes, host tests and the upstream series (patches/).
driver_files() {
	(cd "$driver" && find . -type f ! -name build.mk ! -name '*.md' \
		! -path './tests/*' ! -path './patches/*' | LC_ALL=C sort)
}

# Copies the driver into drivers/perf/rvperf/, touching only files whose
# content differs, and removes files the driver no longer has.
install_driver() {
	local dst=$src/drivers/perf/rvperf f
	mkdir -p "$dst"
	driver_files | while IFS= read -r f; do
		mkdir -p "$dst/$(dirname "$f")"
		cmp -s "$driver/$f" "$dst/$f" || cp "$driver/$f" "$dst/$f"
	done
	(cd "$dst" && find . -type f) | while IFS= read -r f; do
		[ -e "$driver/$f" ] || rm -f "$dst/$f"
	done
	grep -qxF 'source "drivers/perf/rvperf/Kconfig"' "$src/drivers/perf/Kconfig" ||
		sed -i '$!b; /^endmenu$/i source "drivers/perf/rvperf/Kconfig"\n' \
			"$src/drivers/perf/Kconfig"
	grep -qxF 'source "drivers/perf/rvperf/Kconfig"' "$src/drivers/perf/Kconfig" ||
		die "cannot hook the driver into drivers/perf/Kconfig"
	grep -qxF 'obj-$(CONFIG_RVPERF_PMU) += rvperf/' "$src/drivers/perf/Makefile" ||
		echo 'obj-$(CONFIG_RVPERF_PMU) += rvperf/' >>"$src/drivers/perf/Makefile"
}
install_driver

# Fast path: the inputs are the fragments, this script, the driver and the
# unpacked source (which nothing else edits), so an Image built from the
# same inputs is current.
inputs=$( (cat "$fragment" ${extra:+"$extra"} "$0"; driver_files | while IFS= read -r f; do
	echo "$f"; cat "$driver/$f"; done) | sha256sum | cut -d' ' -f1)
stamp=$out/.rvperf-inputs
if [ -f "$out/arch/riscv/boot/Image" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$inputs" ]; then
	exit 0
fi

kmake() { make -s -C "$src" O="$out" ARCH=riscv CROSS_COMPILE="$cross" "$@"; }

# A build directory from before the lock above may hold objects of two
# builds at once: start it over, once.
if [ -d "$out" ] && [ ! -e "$out/.rvperf-locked-build" ]; then
	echo "build-kernel: $out predates the build lock, building it afresh" >&2
	rm -rf "$out"
fi
mkdir -p "$out"
touch "$out/.rvperf-locked-build"

mkdir -p "$out"
cfgdir=$(mktemp -d)
trap 'rm -rf "$cfgdir"' EXIT
# Generate the wanted .config in a scratch build dir, then compare.
make -s -C "$src" O="$cfgdir" ARCH=riscv CROSS_COMPILE="$cross" tinyconfig >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$cfgdir" "$cfgdir/.config" "$fragment" \
	${extra:+"$extra"} >/dev/null
make -s -C "$src" O="$cfgdir" ARCH=riscv CROSS_COMPILE="$cross" olddefconfig >/dev/null
# Every option the fragments ask for must have survived olddefconfig.
missing=$(cat "$fragment" ${extra:+"$extra"} | grep -E '^CONFIG_[A-Z0-9_]+=' | while IFS= read -r line; do
	grep -qxF "$line" "$cfgdir/.config" || echo "$line"; done)
[ -z "$missing" ] || die "options not accepted by the kernel: $(echo $missing)"
if ! cmp -s "$cfgdir/.config" "$out/.config"; then
	echo "build-kernel: configuration changed, rebuilding" >&2
	cp "$cfgdir/.config" "$out/.config"
fi

rm -f "$stamp"
kmake -j"$jobs" Image
echo "$inputs" >"$stamp"
