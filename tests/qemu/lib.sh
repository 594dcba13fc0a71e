# SPDX-License-Identifier: BSD-2-Clause
# Sourced by the tests/qemu scripts that run bare-metal guest code
# (start.S + guest.c + the test's own C) on a QEMU patched with
# qemu-model/qemu.  Sets top, cc, nm and sim; the functions SKIP or bail out
# the way TAP wants.
top=$(cd "$(dirname "$0")/../.." && pwd)
cc=${CROSS_CC:-riscv64-linux-gnu-gcc}
nm=${CROSS_NM:-riscv64-linux-gnu-nm}
# ctr-sim: CTR_SIM, else the build's ($O relative to the top or absolute,
# as make takes it)
case ${O:-build} in
/*) sim=${CTR_SIM:-$O/qemu-model/ctr-sim} ;;
*) sim=${CTR_SIM:-$top/${O:-build}/qemu-model/ctr-sim} ;;
esac

# skip_all WHY: the whole test cannot run: "1..0 # SKIP WHY", exit 0; with
# QEMU_REQUIRED=1 (make check, which builds our QEMU for these tiers) a
# failure instead: "Bail out! WHY", exit 1.
skip_all() {
	if [ "${QEMU_REQUIRED:-}" = 1 ]; then
		echo "Bail out! $* (QEMU_REQUIRED=1: this tier must run)"
		exit 1
	fi
	echo "1..0 # SKIP $*"
	exit 0
}

# QEMU is given and executable (else SKIP, exit 0).
need_qemu() {
	if [ -z "${QEMU:-}" ] || [ ! -x "${QEMU:-}" ]; then
		skip_all "QEMU not given: pass QEMU=/path/to/qemu-system-riscv64 with qemu-model/qemu applied"
	fi
}

# Whether QEMU has our ctr-layout CPU property (qemu-model/qemu applied).
qemu_has_rvperf() {
	"$QEMU" -device rv64-riscv-cpu,help 2>/dev/null | grep -q ctr-layout
}

# A patched QEMU and the cross compiler (else SKIP, exit 0).
need_rvperf_qemu() {
	need_qemu
	qemu_has_rvperf || skip_all "$QEMU has no ctr-layout CPU property"
	need_cc
}

need_cc() {
	command -v "$cc" >/dev/null 2>&1 || skip_all "$cc not found"
}

# A scratch directory in $tmp, removed at exit unless KEEP is set.
make_tmp() {
	tmp=$(mktemp -d)
	trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
}

# build_guest OUT.elf SOURCE...: the guest at 0x80000000 (RV64, or RV32
# with GUEST_XLEN=32); its compiler output goes to OUT.cc.  Returns the
# compiler's status.
build_guest() {
	out=$1
	shift
	case ${GUEST_XLEN:-64} in
	32) arch="-march=rv32gc_zicsr -mabi=ilp32d" ;;
	*) arch="-march=rv64gc_zicsr -mabi=lp64d" ;;
	esac
	"$cc" -O1 $arch -mcmodel=medany \
		-ffreestanding -nostdlib -static -Wl,-Ttext=0x80000000 \
		-I"$top/tests/qemu" -o "$out" "$top/tests/qemu/start.S" \
		"$top/tests/qemu/guest.c" "$@" 2>"$out.cc"
}

# build_replay_guest NAME: the guest scn2events.py generated as
# $tmp/NAME.{S,gen.c,tmpl} (events.sh, events-gen.sh), built as
# $tmp/NAME.elf for the XLEN its template says; sets xlen (32 or 64).
build_replay_guest() {
	xlen=64
	grep -q '^impl.* xlen=32' "$tmp/$1.tmpl" 2>/dev/null && xlen=32
	GUEST_XLEN=$xlen build_guest "$tmp/$1.elf" "$top/tests/qemu/events.c" \
		"$top/tests/qemu/events-rt.S" "$tmp/$1.gen.c" "$tmp/$1.S"
}

# build_guest, or "Bail out!" with the compiler's output and exit 1.
build_guest_or_bail() {
	build_guest "$@" && return 0
	echo "Bail out! guest did not build"
	sed 's/^/# /' "$1.cc"
	exit 1
}

# guest_tap GOT FIRST COUNT [LABEL]: the guest's "ok"/"not ok" lines in
# GOT (numbered or not) as TAP lines FIRST, FIRST + 1, ..., "LABEL: "
# before each description; the ones the guest did not print, up to COUNT,
# are "not ok ... guest check missing".  Sets n to how many it printed.
guest_tap() {
	n=0
	while read -r line; do
		case $line in
		"ok "*|"not ok "*)
			n=$((n + 1))
			echo "$line" | sed "s/^\(not ok\|ok\) [0-9]* */\1 $(($2 + n - 1)) ${4:+$4: }/" ;;
		esac
	done <"$1"
	k=$n
	while [ "$k" -lt "$3" ]; do
		k=$((k + 1))
		echo "not ok $(($2 + k - 1)) ${4:+$4: }guest check missing"
	done
}
