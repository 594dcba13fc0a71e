#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Packs a guest initramfs: our init, a plan, and the given programs.
#
# Usage: mkinitramfs.sh OUT.cpio.gz GEN_INIT_CPIO INIT PLAN [DEST=SRC...]
#   DEST is a path inside the image (e.g. /bin/perf), SRC a host file;
#   DEST->TARGET makes DEST a symbolic link to TARGET (e.g. /bin/cat->busybox).
#   Directories a DEST needs are created.
#
# The kernel's own usr/gen_init_cpio writes the archive from a list, so no
# file is copied into a staging tree and /dev/console (which the kernel opens
# for init before anything is mounted) needs no root privileges.
#
# ELF files go in without RISC-V mapping symbols ($x, $d, binutils'
# $xrv64i2p1_...): perf 6.12 would name one in place of the function at the
# same address.  A file that has some is packed from a stripped copy.
set -euo pipefail
die() { echo "mkinitramfs: $*" >&2; exit 1; }
[ $# -ge 4 ] || die "usage: $0 OUT GEN_INIT_CPIO INIT PLAN [DEST=SRC...]"
out=$1 gen=$2 init=$3 plan=$4
shift 4
[ -x "$gen" ] || die "$gen is not executable (build the guest kernel first)"

list=$(mktemp)
copies=$(mktemp -d)
trap 'rm -rf "$list" "$out.tmp" "$copies"' EXIT
cross=${CROSS_COMPILE:-riscv64-linux-gnu-}

# The host file to pack for $1: itself, or a copy without mapping symbols.
packed() {
	local src copy
	src=$(readlink -f "$1")
	if [ "$(head -c 4 "$src" | tr -d '\177')" = ELF ] &&
		"${cross}readelf" -sW "$src" 2>/dev/null |
		awk '$8 ~ /^[$][xd]/ { found = 1 } END { exit !found }'; then
		copy=$(mktemp -p "$copies")
		"${cross}objcopy" --wildcard --strip-symbol='$x*' \
			--strip-symbol='$d*' "$src" "$copy" ||
			die "cannot strip mapping symbols from $src"
		src=$copy
	fi
	echo "$src"
}
declare -A dirs
mkdirs() {	# the directories above path $1, parents first
	local d=${1%/*}
	[ -n "$d" ] && [ -z "${dirs[$d]:-}" ] || return 0
	mkdirs "$d"
	dirs[$d]=1
	echo "dir $d 0755 0 0"
}
{
	for d in /bin /bin/extra /dev /etc /etc/rvperf /proc /sys /tmp; do
		mkdirs "$d/x"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "file /init $(packed "$init") 0755 0 0"
	echo "file /etc/rvperf/plan $(readlink -f "$plan") 0644 0 0"
	for spec in "$@"; do
		case $spec in
		*'->'*)
			dest=${spec%%->*}
			mkdirs "$dest"
			echo "slink $dest ${spec#*->} 0777 0 0"
			continue
			;;
		esac
		dest=${spec%%=*} src=${spec#*=}
		[ -f "$src" ] || die "$src: no such file"
		mkdirs "$dest"
		echo "file $dest $(packed "$src") 0755 0 0"
	done
} >"$list"
"$gen" "$list" | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
