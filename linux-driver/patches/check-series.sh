#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Applies the series (linux-driver/patches/*.patch) patch by patch to the
# pinned Linux source, or with --6.12 its backport (patches/6.12/) to
# Debian's linux-source-6.12, and checks each one (TAP):
#   - it applies (git apply, in a scratch copy of the source);
#   - scripts/checkpatch.pl --strict passes on it;
#   - the objects of the files the series touches that exist at that
#     point build with W=1 (ARCH=riscv, tinyconfig + check.config);
#   - after the last patch, when it adds the not-for-upstream draft layout:
#     riscv_ctr.o again with CONFIG_RISCV_PMU_SBI_CTR_DRAFT=y (kbuild's
#     per-option dependencies rebuild only it, both ways);
#   - with SPARSE=1, after the last patch: sparse (C=2) on those objects.
# Only objects are built (make <dir>/<file>.o), never vmlinux.
# checkpatch's advice to include <linux/cpufeature.h> for <asm/cpufeature.h>
# is dropped: on RISC-V (no GENERIC_CPU_AUTOPROBE) the former does not
# include the latter, so riscv_pmu_sbi.c includes the asm header too.
# Signed-off-by is not checked: whoever submits the series adds theirs.
#
# Environment: RVPERF_CACHE (default ~/.cache/rvperf): the pinned source
# is unpacked there by scripts/registry/fetch.sh, the scratch source
# (series-src-7.2.8, hard links but for the files the series touches) and
# the build directory (series-build-7.2.8, kept between runs) go there
# too.  CROSS_COMPILE (default riscv64-linux-gnu-), JOBS, SERIES_DIR (another
# series to check, e.g. a fresh gen-series.sh output).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top" || exit 1
. tests/tap.sh

export RVPERF_CACHE=${RVPERF_CACHE:-$HOME/.cache/rvperf}
cross=${CROSS_COMPILE:-riscv64-linux-gnu-}
jobs=${JOBS:-$(nproc)}
if [ "${1:-}" = --6.12 ]; then
	series=${SERIES_DIR:-$here/6.12}
	pristine=$("$here/gen-series.sh" base-6.12) || exit 1
	src=$RVPERF_CACHE/series-src-6.12
	out=$RVPERF_CACHE/series-build-6.12
else
	series=${SERIES_DIR:-$here}
	pristine=$RVPERF_CACHE/linux-7.2.8
	scripts/registry/fetch.sh unpack "$pristine" linux-7.2.8.src >/dev/null ||
		exit 1
	src=$RVPERF_CACHE/series-src-7.2.8
	out=$RVPERF_CACHE/series-build-7.2.8
fi
# Objects the series builds, once their source exists.
objs="arch/riscv/kernel/cpufeature.o drivers/perf/riscv_pmu.o
drivers/perf/riscv_pmu_sbi.o drivers/perf/riscv_ctr.o
drivers/perf/riscv_ctr_logic.o drivers/perf/riscv_ctr_kunit.o"

command -v "${cross}gcc" >/dev/null ||
	exec scripts/tap-skip "${cross}gcc missing (run 'make deps')"

exec 9>"$out.lock"
flock 9
# A scratch source: hard links to the pristine one, except fresh copies
# (new mtimes, so kbuild sees them change) of every file a patch touches.
rm -rf "$src"
cp -al "$pristine" "$src" || exit 1
patches=$(ls "$series"/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v /0000-)
[ -n "$patches" ] || { echo "Bail out! no patches in $series"; exit 1; }
for f in $(cat $patches | sed -n 's|^+++ b/||p' | sort -u); do
	[ -e "$src/$f" ] && cp --remove-destination "$pristine/$f" "$src/$f"
done

kmake() { make -s -C "$src" O="$out" ARCH=riscv CROSS_COMPILE="$cross" "$@"; }

# configure [FRAGMENT]: tinyconfig + check.config (+ FRAGMENT).
configure() {
	local cfg
	cfg=$(mktemp -d)
	kmake O="$cfg" tinyconfig >/dev/null 2>&1 &&
	"$src/scripts/kconfig/merge_config.sh" -m -O "$cfg" "$cfg/.config" \
		"$here/check.config" ${1:+"$1"} >/dev/null 2>&1 &&
	kmake O="$cfg" olddefconfig >/dev/null 2>&1 || { rm -rf "$cfg"; return 1; }
	mkdir -p "$out"
	cmp -s "$cfg/.config" "$out/.config" || cp "$cfg/.config" "$out/.config"
	rm -rf "$cfg"
}

for p in $patches; do
	name=$(basename "$p" .patch)
	out_cp=$(cd "$src" &&
		perl scripts/checkpatch.pl --strict --no-summary --terse \
		--no-signoff --ignore FILE_PATH_CHANGES "$p" 2>&1 |
		grep -v 'Use #include <linux/cpufeature.h> instead of <asm/cpufeature.h>')
	[ -z "$out_cp" ]
	ok $? "$name: checkpatch --strict" || diag "$out_cp"
	log=$(git -C "$src" apply --whitespace=error-all "$p" 2>&1)
	ok $? "$name: applies" || { diag "$log"; break; }
	if ! configure; then
		ok 1 "$name: configures"
		break
	fi
	built=""
	for o in $objs; do
		[ -f "$src/${o%.o}.c" ] && built="$built $o"
	done
	log=$(kmake -j"$jobs" W=1 $built 2>&1)
	rc=$?
	# No warning at all in the files the series touches.
	warn=$(echo "$log" | grep -E 'warning|error' | grep -E 'riscv_(pmu|ctr)|cpufeature|hwcap')
	[ $rc -eq 0 ] && [ -z "$warn" ]
	ok $? "$name: W=1 builds$built" || diag "$log"
done

if grep -q '^config RISCV_PMU_SBI_CTR_DRAFT$' "$src/drivers/perf/Kconfig"; then
	frag=$(mktemp)
	echo CONFIG_RISCV_PMU_SBI_CTR_DRAFT=y >"$frag"
	if configure "$frag" && grep -qx CONFIG_RISCV_PMU_SBI_CTR_DRAFT=y "$out/.config"; then
		log=$(kmake -j"$jobs" W=1 drivers/perf/riscv_ctr.o 2>&1)
		rc=$?
		warn=$(echo "$log" | grep -E 'warning|error' | grep -E 'riscv_ctr')
		[ $rc -eq 0 ] && [ -z "$warn" ]
		ok $? "draft layout: W=1 builds drivers/perf/riscv_ctr.o" || diag "$log"
	else
		ok 1 "draft layout: configures"
	fi
	rm -f "$frag"
	configure
fi

if [ -n "${SPARSE:-}" ] && [ -n "${built:-}" ]; then
	# Debian's sparse 0.6.4 dies on the ISA extensions in -march; it
	# only needs the base ISA (as in linux-driver/tests/sparse.sh).
	wrap=$(mktemp)
	printf '%s\n' '#!/bin/bash' 'args=()' 'for a in "$@"; do' \
		'	case $a in -march=*) a=${a%%_*} ;; esac' \
		'	args+=("$a")' 'done' 'exec sparse "${args[@]}"' >"$wrap"
	chmod +x "$wrap"
	# Not silent: the CHECK lines show that sparse ran.
	log=$(make -C "$src" O="$out" ARCH=riscv CROSS_COMPILE="$cross" \
		-j"$jobs" C=2 CHECK="$wrap" $built 2>&1)
	rc=$?
	rm -f "$wrap"
	if echo "$log" | grep -q 'is not available or not up to date'; then
		# The kernel's scripts/checker-valid.sh refuses it (Linux 7.x
		# needs a sparse that knows __typeof_unqual__).
		tap_n=$((tap_n + 1))
		echo "ok $tap_n - sparse # SKIP $(sparse --version) is too old for this kernel"
	else
		warn=$(echo "$log" | grep -E 'warning|error' |
			grep -E 'riscv_(pmu|ctr)|cpufeature')
		n=$(echo "$log" | grep -c '^  CHECK ')
		[ $rc -eq 0 ] && [ -z "$warn" ] && [ "$n" -ge 1 ]
		ok $? "sparse ran ($n files), no warning in$built" ||
			diag "$warn" "$(echo "$log" | tail -5)"
	fi
fi
tap_done
exit $?
