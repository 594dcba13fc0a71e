#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Board support: rvperf built into OpenSBI's own generic platform, with
# every board override generic selects by compatible string, the way
# opensbi-ext/generic.mk tells a vendor to (rvperf's OpenSBI series applied,
# a copy of generic.mk as platform/generic/rvperf/objects.mk, a link to
# opensbi-ext/ beside it), from the registry's OpenSBI 1.8.1 source
# (scripts/registry/pins.txt) and the series' 1.8.1 backport.  The build
# goes to the cache, keyed by the source pin and the content of opensbi-ext/
# (its patches too) and include/rvperf/; an unchanged tree is reused.
#
# Checks: the build has no warning, the image links nothing of OpenSBI's
# by --wrap, holds rvperf's QEMU virt override beside generic's board
# overrides, and the conformance suite passes on it in QEMU virt as on
# generic + the series (tests/conformance/run.sh, the upstream gaps the
# series leaves as expected failures; its results follow under the name
# generic-rvperf).  Without the cross compiler, QEMU or the registry's
# source (offline, cold cache) the checks are a SKIP.
# Environment: RVPERF_CACHE, CROSS_COMPILE, JOBS.
. "$(dirname "$0")/../tap.sh"
top=$(pwd)
O=${O:-build}
cross=${CROSS_COMPILE:-riscv64-linux-gnu-}
jobs=${JOBS:-2}
pin=opensbi-1.8.1.src

skip_all() { echo "1..0 # SKIP $*"; exit 0; }
[ -n "${RVPERF_CACHE:-}" ] || skip_all "RVPERF_CACHE not set"
command -v "${cross}gcc" >/dev/null 2>&1 || skip_all "${cross}gcc not installed"
command -v "${QEMU_SYSTEM:-qemu-system-riscv64}" >/dev/null 2>&1 ||
	skip_all "qemu-system-riscv64 not installed"
src=$(scripts/registry/fetch.sh unpack "$RVPERF_CACHE/opensbi-1.8.1" $pin 2>"$O/generic-rvperf-fetch.log") ||
	skip_all "the registry's OpenSBI source is not available ($(tail -1 "$O/generic-rvperf-fetch.log"))"

pinsum=$(awk -v k=$pin '$1 == k { print $4 }' scripts/registry/pins.txt)
key=$( { echo "$pinsum $cross generic-rvperf"; find opensbi-ext include/rvperf -type f |
	LC_ALL=C sort | xargs sha256sum; } | sha256sum | cut -c1-16)
base=$RVPERF_CACHE/opensbi-generic-rvperf
tree=$base/$key/src
bld=$base/$key/build
fw=$bld/platform/generic/firmware/fw_dynamic.bin
log=$base/$key/build.log

mkdir -p "$base"
exec 9>"$base/.lock"
flock 9
if [ ! -f "$base/$key/.done" ]; then
	find "$base" -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
	mkdir -p "$tree"
	cp -r "$src/." "$tree/"
	applied=1
	for p in opensbi-ext/patches/1.8.1/0*.patch; do
		patch -d "$tree" -p1 -s --fuzz=0 --no-backup-if-mismatch -N <"$p" >/dev/null ||
			{ echo "error: $p does not apply to OpenSBI 1.8.1" >"$log"; applied=0; break; }
	done
	# What a vendor does in their OpenSBI tree (opensbi-ext/generic.mk).
	# A copy of opensbi-ext, not a link into the clone: the key covers
	# what was built.
	mkdir "$tree/platform/generic/rvperf"
	cp opensbi-ext/generic.mk "$tree/platform/generic/rvperf/objects.mk"
	mkdir -p "$base/$key/rvperf/include"
	cp -r opensbi-ext "$base/$key/rvperf/"
	cp -r include/rvperf "$base/$key/rvperf/include/"
	ln -s "$base/$key/rvperf/opensbi-ext" "$tree/platform/generic/rvperf/src"
	[ $applied = 1 ] && nice make -C "$tree" O="$bld" PLATFORM=generic CROSS_COMPILE="$cross" \
		-j"$jobs" >"$log" 2>&1 && [ -f "$fw" ] &&
		! grep -q 'warning:' "$log" && touch "$base/$key/.done"
fi
[ -f "$base/$key/.done" ]
ok $? "OpenSBI 1.8.1 + the series, generic with rvperf (generic.mk), builds without warnings"
[ -f "$base/$key/.done" ] || { diag "$(grep -m5 -E 'warning:|error' "$log")" "log: $log"; tap_done; exit 1; }

elf=${fw%.bin}.elf
wraps=$(${cross}nm "$elf" | grep -cE ' __(wrap|real)_')
[ "$wraps" -eq 0 ]
ok $? "the image links nothing of OpenSBI's through --wrap ($wraps __wrap_/__real_ symbols)"
${cross}nm "$elf" | grep -q ' rvperf_qemu_virt$' &&
	${cross}nm "$elf" | grep -q ' generic_extensions_init$'
ok $? "the image holds rvperf's QEMU virt override of generic"
overrides=$(grep -oE 'platform/generic/(sifive|thead|sophgo|starfive|andes|allwinner|renesas|spacemit|eswin|mips|openhwgroup)/' "$log" |
	sort -u | wc -l)
[ "$overrides" -ge 5 ]
ok $? "generic's board overrides are built in ($overrides vendors' directories)"

mkdir -p "$O/opensbi/generic-rvperf"
cp "$fw" "$O/opensbi/generic-rvperf/fw_dynamic.bin"
# The suite's results, renumbered after ours.
while IFS= read -r l; do
	case $l in
	"ok "*|"not ok "*)
		tap_n=$((tap_n + 1))
		case $l in
		"not ok "*" # TODO "*) echo "not ok $tap_n - ${l#not ok * - }" ;;
		"not ok "*) echo "not ok $tap_n - ${l#not ok * - }"
			tap_failed=$((tap_failed + 1)) ;;
		*) echo "ok $tap_n - ${l#ok * - }" ;;
		esac ;;
	"#"*) echo "$l" ;;
	esac
done < <(cd "$top" && tests/conformance/run.sh --fw "$O/opensbi/generic-rvperf/fw_dynamic.bin" \
	--name generic-rvperf --only)
tap_done
