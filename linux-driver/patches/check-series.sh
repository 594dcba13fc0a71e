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
#     the CTR objects again with CONFIG_RISCV_PMU_SBI_CTR_DRAFT=y (kbuild's
#     per-option dependencies rebuild only them, both ways);
#   - after the last patch: the CTR objects with the KUnit suite as a module
#     (MODULES=y): the namespace import and the exports it needs;
#   - after the last patch (unless SPARSE=0): sparse (C=2) on those objects;
#   - after the last patch: `make dt_binding_check` of the bindings the
#     series touches (dtschema from scripts/registry/dtschema.sh), `make
#     htmldocs` of the Documentation directories of its .rst files, the
#     kernel's ABI validator, and its ABI entries rendered by Sphinx; a
#     warning that names a file of the series fails.
# Only objects are built (make <dir>/<file>.o), never vmlinux.
# checkpatch runs as run-checkpatch.sh says (what it leaves out and why).
#
# Environment: RVPERF_CACHE (default ~/.cache/rvperf): the pinned source
# is unpacked there by scripts/registry/fetch.sh, the scratch source
# (series-src-7.2.8, hard links but for the files the series touches) and
# the build directory (series-build-7.2.8, kept between runs) go there
# too.  CROSS_COMPILE (default riscv64-linux-gnu-), JOBS, SERIES_DIR (another
# series to check, e.g. a fresh gen-series.sh output), DOCS_ONLY (set: apply
# the patches without checkpatch and builds, only the documentation checks).
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
	out_cp=$("$here/run-checkpatch.sh" "$src" "$p")
	[ -z "$out_cp" ]
	ok $? "$name: checkpatch --strict" || diag "$out_cp"
	log=$(git -C "$src" apply --whitespace=error-all "$p" 2>&1)
	ok $? "$name: applies" || { diag "$log"; break; }
	[ -n "${DOCS_ONLY:-}" ] && continue
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

if [ -z "${DOCS_ONLY:-}" ] &&
	grep -q '^config RISCV_PMU_SBI_CTR_DRAFT$' "$src/drivers/perf/Kconfig"; then
	frag=$(mktemp)
	echo CONFIG_RISCV_PMU_SBI_CTR_DRAFT=y >"$frag"
	if configure "$frag" && grep -qx CONFIG_RISCV_PMU_SBI_CTR_DRAFT=y "$out/.config"; then
		draft_objs="drivers/perf/riscv_ctr.o drivers/perf/riscv_ctr_logic.o
drivers/perf/riscv_ctr_kunit.o"
		log=$(kmake -j"$jobs" W=1 $draft_objs 2>&1)
		rc=$?
		warn=$(echo "$log" | grep -E 'warning|error' | grep -E 'riscv_ctr')
		[ $rc -eq 0 ] && [ -z "$warn" ]
		ok $? "draft layout: W=1 builds $(echo $draft_objs)" || diag "$log"
	else
		ok 1 "draft layout: configures"
	fi
	rm -f "$frag"
	configure
fi

# The KUnit suite as a module (it is tristate): its objects build with
# MODULES=y, it imports the namespace EXPORT_SYMBOL_IF_KUNIT uses, and every
# rvctr_ symbol it calls is exported for it.
if [ -z "${DOCS_ONLY:-}" ] &&
	grep -q '^config RISCV_PMU_SBI_CTR_KUNIT_TEST$' "$src/drivers/perf/Kconfig"; then
	frag=$(mktemp)
	printf 'CONFIG_MODULES=y\nCONFIG_RISCV_PMU_SBI_CTR_KUNIT_TEST=m\n' >"$frag"
	if configure "$frag" &&
		grep -qx CONFIG_RISCV_PMU_SBI_CTR_KUNIT_TEST=m "$out/.config"; then
		mod_objs="drivers/perf/riscv_ctr.o drivers/perf/riscv_ctr_logic.o
drivers/perf/riscv_ctr_kunit.o"
		log=$(kmake -j"$jobs" W=1 $mod_objs 2>&1)
		rc=$?
		warn=$(echo "$log" | grep -E 'warning|error' | grep -E 'riscv_ctr')
		kunit=$out/drivers/perf/riscv_ctr_kunit.o
		missing=$(comm -23 \
			<("${cross}nm" -u "$kunit" | awk '$2 ~ /^rvctr_/ { print $2 }' | sort) \
			<("${cross}nm" "$out/drivers/perf/riscv_ctr_logic.o" \
				"$out/drivers/perf/riscv_ctr.o" |
				sed -n 's/.*__export_symbol_//p' | sort))
		"${cross}objcopy" -O binary -j .modinfo "$kunit" "$frag.modinfo" 2>/dev/null
		tr '\0' '\n' <"$frag.modinfo" 2>/dev/null |
			grep -qx 'import_ns=EXPORTED_FOR_KUNIT_TESTING'
		ns=$?
		[ $rc -eq 0 ] && [ -z "$warn" ] && [ -z "$missing" ] && [ $ns -eq 0 ]
		ok $? "KUnit suite as a module: W=1 builds, imports EXPORTED_FOR_KUNIT_TESTING, its rvctr_ symbols exported" ||
			diag "$log" "not exported: $missing" "import_ns found: $([ $ns -eq 0 ] && echo yes || echo no)"
		rm -f "$frag.modinfo"
	else
		ok 1 "KUnit suite as a module: configures"
	fi
	rm -f "$frag"
	configure
fi

if [ "${SPARSE:-1}" != 0 ] && [ -n "${built:-}" ]; then
	# Linux 7.x's scripts/checker-valid.sh wants a sparse that knows
	# __typeof_unqual__: bookworm's 0.6.4 does not, so sid's 0.6.5~rc1 is
	# built from the pinned source (scripts/registry/build-sparse.sh).
	if ! sparse_bin=$("$top/scripts/registry/build-sparse.sh"); then
		ok 1 "sparse: builds from its pinned source"
	else
		# Sparse only needs the base ISA; it dies on the extensions
		# in -march (as in linux-driver/tests/sparse.sh).
		wrap=$(mktemp)
		printf '%s\n' '#!/bin/bash' 'args=()' 'for a in "$@"; do' \
			'	case $a in -march=*) a=${a%%_*} ;; esac' \
			'	args+=("$a")' 'done' "exec $sparse_bin \"\${args[@]}\"" >"$wrap"
		chmod +x "$wrap"
		# Not silent: the CHECK lines show that sparse ran.
		log=$(make -C "$src" O="$out" ARCH=riscv CROSS_COMPILE="$cross" \
			-j"$jobs" C=2 CHECK="$wrap" $built 2>&1)
		rc=$?
		rm -f "$wrap"
		warn=$(echo "$log" | grep -E 'warning|error|not available' |
			grep -E 'riscv_(pmu|ctr)|cpufeature|not available')
		n=$(echo "$log" | grep -c '^  CHECK ')
		[ $rc -eq 0 ] && [ -z "$warn" ] && [ "$n" -ge 1 ]
		ok $? "sparse ran ($n files), no warning in$built" ||
			diag "$warn" "$(echo "$log" | tail -5)"
	fi
fi
# Documentation after the last patch, as the maintainers check it (each a
# TAP skip naming what is missing when a tool is not there).  Output goes
# to a directory of its own, kept between runs.
docs=$out-docs
mkdir -p "$docs"
series_files=$(cat $patches | sed -n 's|^+++ b/||p' | sort -u)
# A warning counts when it names a file of the series.
names_series() {
	local f hit=""
	for f in $series_files; do
		hit+=$(grep -F -- "$f" <<<"$1")
	done
	[ -n "$hit" ] && printf '%s\n' "$hit"
}
py=/usr/bin/python3
skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

# isa_rules: the dependencies patch 1 declares hold: a hart with all four
# extensions validates (dt-validate against the processed schema that
# dt_binding_check made), one lacking what another needs does not.
# extensions.yaml has no examples, so dt_binding_check alone never
# validates a devicetree against these rules.
isa_rules() {
	local t exts want got fails="" schema
	schema=$docs/Documentation/devicetree/bindings/processed-schema.json
	t=$(mktemp -d)
	while IFS='|' read -r want exts; do
		sed "s/@EXTS@/\"i\", \"m\", \"a\", \"zicsr\", $exts/" >"$t/t.dts" <<-'DTS'
		/dts-v1/;
		/ {
			#address-cells = <1>;
			#size-cells = <1>;
			compatible = "riscv-virtio";
			model = "isa rules";
			cpus {
				#address-cells = <1>;
				#size-cells = <0>;
				timebase-frequency = <10000000>;
				cpu@0 {
					device_type = "cpu";
					compatible = "sifive,u74", "riscv";
					reg = <0>;
					mmu-type = "riscv,sv48";
					riscv,isa-base = "rv64i";
					riscv,isa-extensions = @EXTS@;
					interrupt-controller {
						compatible = "riscv,cpu-intc";
						#interrupt-cells = <1>;
						interrupt-controller;
					};
				};
			};
		};
		DTS
		# dt-validate exits 0 on findings: its output is the verdict.
		got=$("$docs/scripts/dtc/dtc" -q -I dts -O dtb -o "$t/t.dtb" "$t/t.dts" 2>&1 &&
			scripts/registry/dtschema.sh dt-validate -s "$schema" "$t/t.dtb" 2>&1)
		if [ $? -ne 0 ]; then
			fails+="$exts: $got"$'\n'
		elif [ "$want" = valid ] && [ -n "$got" ]; then
			fails+="$exts: rejected: $got"$'\n'
		elif [ "$want" = invalid ] && ! grep -q 'riscv,isa-extensions.*does not contain' <<<"$got"; then
			fails+="$exts: accepted${got:+, or rejected otherwise: $got}"$'\n'
		fi
	done <<-'CASES'
	valid|"smcsrind", "sscsrind", "smctr", "ssctr"
	valid|"sscsrind", "ssctr"
	invalid|"smcsrind"
	invalid|"ssctr"
	invalid|"smctr", "ssctr", "sscsrind"
	invalid|"smctr", "smcsrind", "sscsrind"
	CASES
	rm -rf "$t"
	[ -z "$fails" ]
	ok $? "riscv/extensions.yaml: a devicetree with Smctr/Ssctr validates, one missing what they need does not" ||
		diag "$fails"
}

# dt_binding_check on the bindings the series touches: dt-doc-validate
# (the binding against dtschema's meta-schemas), yamllint, the kernel's
# dt-check-style and, where a binding has examples, their validation.  The
# kernel's rules end in '|| true' and only touch .*.checked on success, so
# those stamps and the output (empty under -s) are what is checked.
bindings=$(grep '^Documentation/devicetree/bindings/.*\.yaml$' <<<"$series_files" |
	sed 's|^Documentation/devicetree/bindings/||' | paste -sd:)
if [ -z "$bindings" ]; then
	:
elif ! command -v yamllint >/dev/null; then
	skip "dt_binding_check" "yamllint missing (run 'make deps')"
elif ! $py -c 'import ruamel.yaml, rfc3987, libfdt, attrs, typing_extensions' 2>/dev/null; then
	skip "dt_binding_check" "python3 modules of dtschema missing (run 'make deps')"
elif ! v=$(scripts/registry/dtschema.sh --version 2>&1); then
	skip "dt_binding_check" "no dtschema: $(tail -1 <<<"$v")"
else
	stamps="$docs/Documentation/devicetree/bindings"
	rm -f "$stamps"/.dt-binding.checked "$stamps"/.yamllint.checked \
		"$stamps"/.dt-style.checked
	log=$(scripts/registry/dtschema.sh make -s -C "$src" O="$docs" \
		ARCH=riscv PYTHON3=$py -j"$jobs" dt_binding_check DT_SCHEMA_FILES="$bindings" 2>&1)
	rc=$?
	# scripts/jobserver-exec's note that make -s passed no jobserver pipe.
	log=$(grep -v -e '^make\(\[[0-9]*\]\)\?: \(Entering\|Leaving\) directory' \
		-e 'WARNING: Unable to reopen jobserver' <<<"$log" | grep .)
	# dt-mk-schema reads every binding: a one-line warning about another
	# one (Debian's 6.12 has four that newer dtschema flags) is upstream's
	# and only shown; anything else, continuation lines too, counts.
	upstream=$(grep -E "^$src/Documentation/devicetree/bindings/[^:]*\.yaml: " <<<"$log")
	bad=$(grep -v -x -F -f <(printf '%s\n' "$upstream") <<<"$log" | grep .;
		names_series "$upstream")
	# 6.12 has no dt-check-style step: only the stamps its Makefile makes.
	missing=$(for f in .dt-binding.checked .yamllint.checked .dt-style.checked; do
		grep -qF "$f" "$src/Documentation/devicetree/bindings/Makefile" &&
		! [ -f "$stamps/$f" ] && echo "no $f: that step failed"; done)
	[ $rc -eq 0 ] && [ -z "$bad" ] && [ -z "$missing" ]
	ok $? "dt_binding_check (dtschema $v) of ${bindings//:/ }" ||
		diag "$bad" "$missing"
	[ -n "$upstream" ] && diag "not counted, about other bindings:" "$upstream"
	case :$bindings: in *:riscv/extensions.yaml:*) isa_rules ;; esac
fi

# htmldocs of the Documentation directories that hold the series' .rst
# files (Sphinx parses every ABI file too, and warns by file name).
sphinxdirs=$(grep '^Documentation/.*\.rst$' <<<"$series_files" |
	sed 's|^Documentation/||; s|/[^/]*$||' | sort -u | paste -sd' ')
if [ -z "$sphinxdirs" ]; then
	:
elif ! command -v sphinx-build >/dev/null; then
	skip "htmldocs" "sphinx-build missing (run 'make deps')"
else
	html=$(for f in $(grep '^Documentation/.*\.rst$' <<<"$series_files"); do
		f=${f#Documentation/}; echo "$docs/Documentation/output/${f%.rst}.html"; done)
	rm -f $html
	log=$(make -s -C "$src" O="$docs" PYTHON3=$py SPHINXDIRS="$sphinxdirs" \
		htmldocs 2>&1)
	rc=$?
	bad=$(names_series "$log")
	missing=$(for f in $html; do [ -f "$f" ] || echo "not made: $f"; done)
	[ $rc -eq 0 ] && [ -z "$bad" ] && [ -z "$missing" ]
	ok $? "htmldocs SPHINXDIRS=$sphinxdirs: no warning in the series' files" ||
		diag "$bad" "$missing" "$(tail -5 <<<"$log")"
fi

# The series' ABI entries: the kernel's ABI validator over all of
# Documentation/ABI (duplicates, syntax), then the files alone turned into
# ReST by the same script and built by Sphinx with warnings as errors (the
# admin-guide pages that render them are too big to build here).
abifiles=$(grep '^Documentation/ABI/' <<<"$series_files")
if [ -z "$abifiles" ]; then
	:
elif ! command -v sphinx-build >/dev/null; then
	skip "ABI" "sphinx-build missing (run 'make deps')"
else
	if [ -f "$src/tools/docs/get_abi.py" ]; then
		get_abi() { local d=$1; shift; $py "$src/tools/docs/get_abi.py" -D "$d" "$@"; }
	else
		get_abi() { local d=$1; shift; perl "$src/scripts/get_abi.pl" "$@" --dir "$d"; }
	fi
	log=$(cd "$src" && get_abi Documentation/ABI validate 2>&1)
	rc=$?
	bad=$(names_series "$log")
	[ $rc -eq 0 ] && [ -z "$bad" ]
	ok $? "ABI: the kernel's ABI validator, no warning in the series' files" ||
		diag "$bad" "$(tail -5 <<<"$log")"
	tmp=$(mktemp -d)
	mkdir "$tmp/abi" "$tmp/doc"
	for f in $abifiles; do cp "$src/$f" "$tmp/abi/"; done
	touch "$tmp/doc/conf.py"
	get_abi "$tmp/abi" rest >"$tmp/doc/index.rst" 2>"$tmp/err"
	rc=$?
	log=$(cat "$tmp/err"; $py -m sphinx -b dummy -q -E -W --keep-going \
		"$tmp/doc" "$tmp/out" 2>&1)
	[ $rc -eq 0 ] && [ -z "$log" ] && grep -q '^What:\|^\.\. _abi_' "$tmp/doc/index.rst"
	ok $? "ABI: the series' entries render as ReST without warning" || diag "$log"
	rm -rf "$tmp"
fi
tap_done
exit $?
