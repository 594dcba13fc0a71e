# SPDX-License-Identifier: GPL-2.0-only
# Sourced by module-build.sh and sparse.sh: an out-of-tree build of the
# driver against the guest kernel configuration with modules enabled.
#
# A sibling build directory under $O gets the guest kernel's .config (from
# $KBUILD_OUT, source $LINUX_SRC; it has CONFIG_MODULES=y) and "make
# modules_prepare" (headers and host tools), and the guest kernel's
# Module.symvers, so modpost knows which kernel symbols are exported and
# names those the module needs but the kernel does not export (as
# warnings: KBUILD_MODPOST_WARN, so the callers see them all).
# kbuild_driver ARGS... copies the driver into a scratch directory and runs
# the M= build there; its output is in $kb_log.

kbuild_skip_unless_ready() {
	if [ -z "${LINUX_SRC:-}" ] || [ ! -f "${LINUX_SRC}/Makefile" ] ||
	   [ -z "${KBUILD_OUT:-}" ] || [ ! -f "${KBUILD_OUT}/.config" ]; then
		exec scripts/tap-skip "guest kernel not built (${KBUILD_OUT:-KBUILD_OUT unset}): run 'make guest-kernel'"
	fi
}

kbuild_prepare() {
	local cross=${CROSS_COMPILE:-riscv64-linux-gnu-}
	kb_out=$(realpath -m "${O:-build}")/linux-driver/kbuild
	kb_km() { make -s -C "$LINUX_SRC" O="$kb_out" ARCH=riscv CROSS_COMPILE="$cross" "$@"; }
	mkdir -p "$kb_out"
	exec 9>"$kb_out.lock"
	flock 9
	if ! cmp -s "$KBUILD_OUT/.config" "$kb_out/.config.guest" ||
	   [ ! -f "$kb_out/.prepared" ]; then
		rm -f "$kb_out/.prepared"
		cp "$KBUILD_OUT/.config" "$kb_out/.config" &&
		cp "$KBUILD_OUT/.config" "$kb_out/.config.guest" &&
		"$LINUX_SRC/scripts/config" --file "$kb_out/.config" -e MODULES &&
		kb_km olddefconfig >/dev/null &&
		kb_km -j"${JOBS:-2}" modules_prepare >/dev/null 2>"$kb_out.err" &&
		touch "$kb_out/.prepared"
	fi
	# make Image leaves vmlinux.symvers; with modules built it is part
	# of Module.symvers.  The guest kernel has the driver built in: its
	# own exports (the CTR logic's, for KUnit) are left out, so the
	# module links as against a kernel without it.
	local symvers=$KBUILD_OUT/Module.symvers own
	[ -f "$symvers" ] || symvers=$KBUILD_OUT/vmlinux.symvers
	if [ -f "$symvers" ]; then
		own=$(grep -ho 'EXPORT_SYMBOL[A-Z_]*([A-Za-z0-9_]*' linux-driver/*.c |
			sed 's/.*(//')
		awk -F '\t' 'NR == FNR { own[$1] = 1; next } !($2 in own)' \
			<(printf '%s\n' "$own") "$symvers" >"$kb_out/Module.symvers.new"
		cmp -s "$kb_out/Module.symvers.new" "$kb_out/Module.symvers" ||
			mv "$kb_out/Module.symvers.new" "$kb_out/Module.symvers"
		rm -f "$kb_out/Module.symvers.new"
	else
		rm -f "$kb_out/Module.symvers"
	fi
	flock -u 9
	[ -f "$kb_out/.prepared" ]
}

kbuild_driver() {
	local cross=${CROSS_COMPILE:-riscv64-linux-gnu-}
	kb_src=$(mktemp -d)
	kb_log=$kb_src.log
	[ -n "${KB_KEEP:-}" ] || trap 'rm -rf "$kb_src" "$kb_log"' EXIT
	(cd linux-driver && find . -type f ! -name build.mk ! -name '*.md' \
		! -path './tests/*' ! -path './patches/*' -exec cp --parents {} "$kb_src" \;)
	# The M= build reads auto.conf from $kb_out; the driver becomes a
	# module and its KUnit suite (built-in only) stays out.  MAKEFLAGS is
	# cleared: under 'make -s check' kbuild would inherit -s and print no
	# CHECK/CC lines, which the callers read.
	MAKEFLAGS= make -C "$LINUX_SRC" O="$kb_out" ARCH=riscv CROSS_COMPILE="$cross" \
		M="$kb_src" CONFIG_RVPERF_PMU=m CONFIG_RVPERF_CTR_KUNIT_TEST= \
		KBUILD_MODPOST_WARN=1 -j"${JOBS:-2}" "$@" modules >"$kb_log" 2>&1
}
