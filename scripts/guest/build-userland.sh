#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Cross-builds, static for riscv64, the few userland pieces the guest needs
# beyond our own programs, from Debian bookworm's source packages, into the
# cache (outside the clone):
#
#   $GUEST_USERLAND/sysroot/   zlib and elfutils' libelf (headers, .a), which
#                              scripts/guest/build-perf.sh links perf against
#                              so that perf resolves ELF symbols;
#   $GUEST_USERLAND/bin/bash   bash, to run Linux's own perf shell tests;
#   $GUEST_USERLAND/bin/busybox  the small tools those tests call (cat, grep,
#                              tr, uname, ...), one binary; applets.txt
#                              lists the applets, one a line, for symlinks.
#
# Usage: build-userland.sh [libs|all]   (environment: GUEST_USERLAND,
#   RVPERF_CACHE (downloads go to $RVPERF_CACHE/debian-src), CROSS_COMPILE,
#   JOBS, DEBIAN_MIRROR (default http://deb.debian.org/debian))
#   libs: only zlib and libelf (what perf needs); all (default): everything.
#
# Each package is pinned to a bookworm version and the SHA-256 of its .dsc;
# dpkg-source checks the tarballs against the .dsc and applies Debian's
# patches.  A package is rebuilt only when its version or its recipe (the
# build_PKG function below) changes: a stamp records both.  When bookworm
# supersedes a version, its pool files go away: update the pin from
# dists/bookworm/main/source/Sources.xz.
set -euo pipefail
out=${GUEST_USERLAND:?} cache=${RVPERF_CACHE:?}
cross=${CROSS_COMPILE:-riscv64-linux-gnu-}
jobs=${JOBS:-$(nproc)}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
what=${1:-all}
host=${cross%-}
dl=$cache/debian-src
work=$out/work
sysroot=$out/sysroot

die() { echo "build-userland: $*" >&2; exit 1; }
command -v "${cross}gcc" >/dev/null || die "${cross}gcc missing (run 'make deps')"
command -v dpkg-source >/dev/null || die "dpkg-source missing (dpkg-dev)"

#        package  version             pool dir  .dsc SHA-256
pins=(
	"zlib     1:1.2.13.dfsg-1       z/zlib     3fa1e6b2fc525062aa88207dda52fed8e045373c809d362fe8a2bfbf7cf515a8"
	"elfutils 0.188-2.1             e/elfutils 2e73c5bfe9d0ddbf837742d638c43b049590ae1de8f6e3d9c2740c28e2550760"
	"bash     5.2.15-2              b/bash     f51753e946af43eb58549c81e03b35a47af9fe6c6364179ccd4ef862b7c3b2d3"
	"busybox  1:1.35.0-4+deb12u1    b/busybox  9c01fe128b0eeded371c70e37d474fdb5055f71b5d0a778db44c6b0c62d3a7fa"
)
pin() {
	local p
	for p in "${pins[@]}"; do
		set -- $p
		[ "$1" = "$PKG" ] && { VER=$2 POOL=$3 DSC_SUM=$4; return; }
	done
	die "no pin for $PKG"
}

fetch() {	# URL FILE SHA256
	[ -f "$2" ] && echo "$3  $2" | sha256sum -c --quiet - 2>/dev/null && return
	echo "build-userland: downloading $1" >&2
	curl -fsSL --retry 3 -o "$2.part" "$1" || die "cannot download $1"
	echo "$3  $2.part" | sha256sum -c --quiet - || die "$1: SHA-256 mismatch"
	mv "$2.part" "$2"
}

# Unpacks $PKG (pinned) into $work/$PKG-src, returns its path in SRC.
unpack() {
	pin
	local v=${VER#*:} dsc sum size file
	dsc=${PKG}_$v.dsc
	mkdir -p "$dl" "$work"
	fetch "$mirror/pool/main/$POOL/$dsc" "$dl/$dsc" "$DSC_SUM"
	sed -n '/^Checksums-Sha256:/,/^[^ ]/p' "$dl/$dsc" | grep '^ ' |
	while read -r sum size file; do
		fetch "$mirror/pool/main/$POOL/$file" "$dl/$file" "$sum"
	done
	SRC=$work/$PKG-src
	rm -rf "$SRC"
	dpkg-source -q -x "$dl/$dsc" "$SRC" >/dev/null 2>"$work/$PKG-unpack.log" ||
		{ cat "$work/$PKG-unpack.log" >&2; die "dpkg-source -x $dsc failed"; }
}

run() {	# LOG CMD...: runs quietly, shows the log's tail on failure
	local log=$1
	shift
	if ! "$@" >>"$log" 2>&1; then
		tail -30 "$log" >&2
		die "$PKG: '$*' failed (log: $log)"
	fi
}

build_zlib() {
	(cd "$SRC" && run "$log" env CHOST="$host" CFLAGS="-O2 -fPIC" \
		./configure --static --prefix="$sysroot" &&
	 run "$log" make -j"$jobs" libz.a)
	cp "$SRC/libz.a" "$sysroot/lib/"
	cp "$SRC/zlib.h" "$SRC/zconf.h" "$sysroot/include/"
}

# Only libelf, not libdw: perf needs ELF symbols, not DWARF.  libelf.a
# itself is installed as libelf-only.a, and libelf.a is a linker script that
# also pulls in zlib, so that a static '-lelf' (as in perf's feature probes)
# links without -lz after it.
build_elfutils() {
	(cd "$SRC" && run "$log" ./configure --host="$host" \
		CFLAGS="-O2 -g -I$sysroot/include" LDFLAGS="-L$sysroot/lib" \
		--disable-debuginfod --disable-libdebuginfod --without-bzlib \
		--without-lzma --without-zstd --disable-nls &&
	 run "$log" make -C lib -j"$jobs" &&
	 run "$log" make -C libelf -j"$jobs" libelf.a)
	cp "$SRC/libelf/libelf.a" "$sysroot/lib/libelf-only.a"
	cp "$SRC/libelf/libelf.h" "$SRC/libelf/gelf.h" "$SRC/libelf/nlist.h" \
		"$sysroot/include/"
	echo "GROUP ( $sysroot/lib/libelf-only.a $sysroot/lib/libz.a )" \
		>"$sysroot/lib/libelf.a"
}

# bash for scripts only: no readline, history or completion.  Cross
# configure cannot run its probes; the answers are glibc's.
build_bash() {
	(cd "$SRC" && run "$log" env bash_cv_func_sigsetjmp=present \
		bash_cv_getcwd_malloc=yes bash_cv_job_control_missing=present \
		bash_cv_sys_named_pipes=present bash_cv_unusable_rtsigs=no \
		bash_cv_printf_a_format=yes bash_cv_func_strchrnul_works=yes \
		bash_cv_func_snprintf=yes bash_cv_func_vsnprintf=yes \
		./configure --host="$host" --enable-static-link \
		--without-bash-malloc --disable-nls --disable-readline \
		--disable-history --disable-bang-history --disable-progcomp \
		--without-curses &&
	 run "$log" make -j"$jobs" bash)
	cp "$SRC/bash" "$out/bin/bash"
	"${cross}strip" "$out/bin/bash"
}

# busybox with only the applets the shell tests call, and a few to look
# around with; bin/applets.txt lists them for the image's symlinks.  No
# mktemp: busybox's takes only six X's (glibc's mkdtemp), perf's tests use
# five; the image has tests/guest/userland/mktemp.c instead.
build_busybox() {
	local applets="BASENAME CAT CHMOD CP CUT DIRNAME ECHO ENV EXPR FALSE
		GREP EGREP HEAD LN LS MKDIR MV PRINTF READLINK RM RMDIR
		SED SEQ SLEEP SORT TAIL TEE TOUCH TR TRUE UNAME UNIQ WC XARGS"
	local features="STATIC LONG_OPTS FEATURE_GREP_CONTEXT
		FEATURE_TR_CLASSES FEATURE_LS_FILETYPES FEATURE_LS_FOLLOWLINKS
		FEATURE_SORT_BIG FEATURE_FANCY_ECHO" a
	(cd "$SRC" && run "$log" make allnoconfig &&
	 sed -i "s|^CONFIG_CROSS_COMPILER_PREFIX=.*|CONFIG_CROSS_COMPILER_PREFIX=\"$cross\"|" .config &&
	 for a in $applets $features; do
		sed -i "s/^# CONFIG_$a is not set/CONFIG_$a=y/" .config
	 done &&
	 run "$log" sh -c 'yes "" | make oldconfig' &&
	 run "$log" make -j"$jobs" busybox)
	for a in $applets STATIC; do
		grep -qx "CONFIG_$a=y" "$SRC/.config" ||
			die "busybox: CONFIG_$a not enabled"
	done
	cp "$SRC/busybox" "$out/bin/busybox"
	"${cross}strip" "$out/bin/busybox"
	echo $applets | tr 'A-Z ' 'a-z\n' >"$out/bin/applets.txt"
}

# Builds $1 unless its stamp names its pinned version and current recipe.
build() {
	local PKG=$1 VER POOL DSC_SUM SRC log stamp
	pin
	stamp="$VER $(declare -f build_$PKG unpack run | sha256sum | cut -d' ' -f1)"
	[ "$(cat "$out/.stamp-$PKG" 2>/dev/null)" = "$stamp" ] && return
	rm -f "$out/.stamp-$PKG"
	unpack
	log=$work/$PKG.log
	: >"$log"
	echo "build-userland: building $PKG $VER" >&2
	build_$PKG
	echo "$stamp" >"$out/.stamp-$PKG"
	rm -rf "$SRC"
}

mkdir -p "$out/bin" "$sysroot/include" "$sysroot/lib"
# One build at a time per cache: a second make (or perf's build asking for
# the libraries) waits instead of unpacking over a build under way.
exec 9>"$out/.lock"
flock 9
build zlib
build elfutils
[ "$what" = libs ] && exit 0
build bash
build busybox
