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
set -euo pipefail
die() { echo "mkinitramfs: $*" >&2; exit 1; }
[ $# -ge 4 ] || die "usage: $0 OUT GEN_INIT_CPIO INIT PLAN [DEST=SRC...]"
out=$1 gen=$2 init=$3 plan=$4
shift 4
[ -x "$gen" ] || die "$gen is not executable (build the guest kernel first)"

list=$(mktemp)
trap 'rm -f "$list" "$out.tmp"' EXIT
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
	echo "file /init $(readlink -f "$init") 0755 0 0"
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
		echo "file $dest $(readlink -f "$src") 0755 0 0"
	done
} >"$list"
"$gen" "$list" | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
