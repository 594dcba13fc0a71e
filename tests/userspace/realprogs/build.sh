#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Builds the real programs of tests/userspace/realprogs-test.sh from their
# pinned Debian sources (pins.txt), cross-compiled with
# riscv64-linux-gnu-gcc -O2 -g, each as a dynamically linked PIE (gcc's
# default) and as a static program, into the cache outside the clone:
#
#   build.sh      prints the directory holding lua-pie, lua-static,
#                 bzip2-pie, bzip2-static
#
# Sources are unpacked once by fetch.sh; the build is redone only when the
# pins or this recipe change (the directory is named by their hash).  Only
# the upstream programs are built (the Debian packaging's shared libraries
# and patches are not needed to run them).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
export RVPERF_CACHE=${RVPERF_CACHE:-$HOME/.cache/rvperf}
export RVPERF_PINS=$here/pins.txt
cc=${CROSS_CC:-riscv64-linux-gnu-gcc}
key=$(cat "$here/pins.txt" "$0" | sha256sum | cut -c1-16)
out=$RVPERF_CACHE/realprogs/$key
# Tests that run at once (make check's TEST_JOBS) may all ask for it: one
# builds, the others wait and take its result.
mkdir -p "$RVPERF_CACHE/realprogs"
exec 9>"$RVPERF_CACHE/realprogs/.lock"
flock 9
if [ -f "$out/.done" ]; then
	echo "$out"
	exit 0
fi
fetch=$top/scripts/registry/fetch.sh
lua=$("$fetch" unpack "$RVPERF_CACHE/realprogs/lua-5.4.4" lua-5.4.4.src)
bz=$("$fetch" unpack "$RVPERF_CACHE/realprogs/bzip2-1.0.8" bzip2-1.0.8.src)
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
lua_srcs=""
for f in lapi lcode lctype ldebug ldo ldump lfunc lgc llex lmem lobject \
	 lopcodes lparser lstate lstring ltable ltm lundump lvm lzio lauxlib \
	 lbaselib lcorolib ldblib liolib lmathlib loadlib loslib lstrlib \
	 ltablib lutf8lib linit lua; do
	lua_srcs+=" $lua/src/$f.c"
done
bz_srcs=""
for f in blocksort huffman crctable randtable compress decompress bzlib bzip2; do
	bz_srcs+=" $bz/$f.c"
done
# shellcheck disable=SC2086
{
	$cc -O2 -g -DLUA_USE_LINUX -o "$out.tmp/lua-pie" $lua_srcs -lm -ldl
	$cc -O2 -g -DLUA_USE_POSIX -static -o "$out.tmp/lua-static" $lua_srcs -lm
	$cc -O2 -g -D_FILE_OFFSET_BITS=64 -o "$out.tmp/bzip2-pie" $bz_srcs
	$cc -O2 -g -D_FILE_OFFSET_BITS=64 -static -o "$out.tmp/bzip2-static" $bz_srcs
} 2>"$out.tmp/build.log" || { cat "$out.tmp/build.log" >&2; exit 1; }
touch "$out.tmp/.done"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out"
