#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Builds OpenSBI firmware from the registry's OpenSBI source (pinned in
# scripts/registry/pins.txt) into the cache, and prints the fw_dynamic.bin.
#
#   build-opensbi.sh platform   rvperf's external platform (opensbi-ext/) on
#                               the source with rvperf's OpenSBI series
#                               (the 1.8.1 backport) applied: what a vendor
#                               ships, what CI boots
#   build-opensbi.sh platform-draft  the same with configs/draft_defconfig:
#                               the v0.1.4 draft CTR layout on, for harts
#                               that declare "xrvperfctrdraft"
#   build-opensbi.sh platform-q0  the same with RVPERF_QEMU_QUIRKS off (the
#                               firmware of hardware that is not QEMU; the
#                               M-mode benchmark measures it)
#   build-opensbi.sh generic    upstream's own generic platform, unchanged:
#                               the baseline the M-mode benchmark compares
#   build-opensbi.sh series     upstream's generic platform with rvperf's
#                               OpenSBI series (opensbi-ext/patches/1.8.1/,
#                               the backport) applied: what a vendor gets
#                               from the series alone; with rvperf's test
#                               board override (tests/opensbi-board/, in
#                               platform/generic/rvperf-test/), inert but on
#                               a devicetree with its test-only compatible
#
# A build is keyed by the source pin and, for the platform, by the content of
# opensbi-ext/ (its patches too) and include/rvperf/, for the series by the
# patches' and the test board override's content: an unchanged tree is not
# rebuilt, a changed one gets a fresh build (the previous one is removed).
# The series is applied to a copy of the unpacked source (the pristine one
# is shared with the other flavours); a patch that does not apply exactly
# fails the build.  Any compiler warning fails the build (OpenSBI also
# builds with -Werror).
# Environment: RVPERF_CACHE, CROSS_COMPILE (riscv64-linux-gnu-), JOBS.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${RVPERF_CACHE:?RVPERF_CACHE is not set}
cross=${CROSS_COMPILE:-riscv64-linux-gnu-}
jobs=${JOBS:-$(nproc)}
pin=opensbi-1.8.1.src
flavour=${1:-}

die() { echo "build-opensbi: $*" >&2; exit 1; }
command -v "${cross}gcc" >/dev/null || die "${cross}gcc missing (run 'make deps')"

pinsum=$(awk -v k=$pin '$1 == k { print $4 }' "$top/scripts/registry/pins.txt")
case $flavour in
platform|platform-draft|platform-q0)
	# The platform builds on OpenSBI with the series (the 1.8.1
	# backport), whose PMU extension it uses.  platform-draft: with
	# configs/draft_defconfig (the v0.1.4 draft CTR layout on, for harts
	# declaring "xrvperfctrdraft"); platform-q0: defconfig with the QEMU
	# quirk off.
	patches=("$top"/opensbi-ext/patches/1.8.1/0*.patch)
	[ -f "${patches[0]}" ] || die "no opensbi-ext/patches/1.8.1/0*.patch"
	key=$( { echo "$pinsum $cross $flavour"; cd "$top" &&
		find opensbi-ext include/rvperf -type f | LC_ALL=C sort |
		xargs sha256sum; } | sha256sum | cut -c1-16)
	args=(PLATFORM_DIR="$top/opensbi-ext") plat=opensbi-ext
	case $flavour in
	platform-draft) args+=(PLATFORM_DEFCONFIG=draft_defconfig) ;;
	platform-q0) args+=(PLATFORM_DEFCONFIG=q0_defconfig) ;;
	esac ;;
generic)
	key=$(echo "$pinsum $cross" | sha256sum | cut -c1-16)
	args=(PLATFORM=generic) plat=generic ;;
series)
	patches=("$top"/opensbi-ext/patches/1.8.1/0*.patch)
	[ -f "${patches[0]}" ] || die "no opensbi-ext/patches/1.8.1/0*.patch"
	key=$( { echo "$pinsum $cross"; cd "$top" &&
		sha256sum opensbi-ext/patches/1.8.1/0*.patch \
			tests/opensbi-board/objects.mk tests/opensbi-board/*.c; } |
		sha256sum | cut -c1-16)
	args=(PLATFORM=generic) plat=generic ;;
*) die "usage: build-opensbi.sh platform|platform-draft|platform-q0|generic|series" ;;
esac
base=$cache/opensbi-$flavour
out=$base/$key
fw=$out/platform/$plat/firmware/fw_dynamic.bin

mkdir -p "$base"
exec 9>"$base/.lock"
flock 9
if [ ! -f "$out/.done" ]; then
	src=$("$top/scripts/registry/fetch.sh" unpack "$cache/opensbi-1.8.1" $pin)
	find "$base" -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
	if [ "$flavour" != generic ]; then
		mkdir -p "$out/src"
		cp -a "$src/." "$out/src/"
		src=$out/src
		for p in "${patches[@]}"; do
			patch -d "$src" -p1 -s --fuzz=0 --no-backup-if-mismatch -N <"$p" ||
				die "${p#"$top"/} does not apply to OpenSBI 1.8.1"
		done
	fi
	if [ "$flavour" = series ]; then
		# a board override as OpenSBI's own (platform/generic/*/)
		mkdir "$src/platform/generic/rvperf-test"
		cp "$top"/tests/opensbi-board/objects.mk \
			"$top"/tests/opensbi-board/*.c \
			"$src/platform/generic/rvperf-test/"
	fi
	if [ "$flavour" = platform-q0 ]; then
		# OpenSBI reads configs/$(PLATFORM_DEFCONFIG) below
		# PLATFORM_DIR: a link there would change the tree the key
		# covers, so the defconfig goes next to the build and is named
		# by a path relative to configs/.
		{ grep -v RVPERF_QEMU_QUIRKS "$top/opensbi-ext/configs/defconfig"
		  echo '# CONFIG_RVPERF_QEMU_QUIRKS is not set'; } >"$out/q0_defconfig"
		args=(PLATFORM_DIR="$top/opensbi-ext" PLATFORM_DEFCONFIG="$(realpath \
			--relative-to="$top/opensbi-ext/configs" "$out/q0_defconfig")")
	fi
	echo "build-opensbi: building the $flavour firmware (OpenSBI 1.8.1)" >&2
	log=$base/build.log
	# A make of its own: under "make -jN" a jobserver note ("-j forced
	# in submake") would read as a warning below.
	if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
			make -C "$src" O="$out" "${args[@]}" CROSS_COMPILE="$cross" \
			-j"$jobs" >"$log" 2>&1; then
		tail -30 "$log" >&2
		die "the $flavour build failed (log: $log)"
	fi
	if grep -q 'warning:' "$log"; then
		grep 'warning:' "$log" | head -10 >&2
		die "the $flavour build printed warnings (log: $log)"
	fi
	[ -f "$fw" ] || die "no $fw after the build"
	touch "$out/.done"
fi
echo "$fw"
