#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Downloads files pinned in scripts/registry/pins.txt from Debian's registry
# into the cache (outside the clone), checks size and SHA-256, and unpacks
# them once.
#
#   fetch.sh file KEY            prints the path of KEY's verified download
#   fetch.sh unpack DEST KEY...  unpacks every KEY into DEST (a .deb with
#                                dpkg -x, a tarball without its top folder)
#                                unless DEST already holds exactly these
#                                pins; prints DEST
#
# Environment: RVPERF_CACHE (downloads go to $RVPERF_CACHE/registry),
# DEBIAN_MIRROR (default http://deb.debian.org/debian), RVPERF_PINS (another
# pins file, for tests).
# A pin the pool no longer serves fails with one line naming it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pins=${RVPERF_PINS:-$here/pins.txt}
cache=${RVPERF_CACHE:?RVPERF_CACHE is not set}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
dl=$cache/registry

die() { echo "registry: $*" >&2; exit 1; }

# pin KEY: sets POOL, SIZE, SUM.
pin() {
	local line
	line=$(awk -v k="$1" '$1 == k { print $2, $3, $4; exit }' "$pins")
	[ -n "$line" ] || die "no pin named '$1' in $pins"
	read -r POOL SIZE SUM <<<"$line"
}

verified() {	# FILE: size and SHA-256 match the pin
	[ -f "$1" ] && [ "$(stat -c %s "$1")" = "$SIZE" ] &&
		echo "$SUM  $1" | sha256sum -c --quiet - >/dev/null 2>&1
}

# file KEY: downloads (once) and prints the path.
file() {
	local key=$1 out code
	pin "$key"
	out=$dl/$(basename "$POOL")
	if ! verified "$out"; then
		mkdir -p "$dl"
		code=$(curl -sS -L --retry 3 -o "$out.part" -w '%{http_code}' \
			"$mirror/$POOL") || die "cannot download $mirror/$POOL (network?)"
		case $code in
		200) ;;
		404|410) rm -f "$out.part"
			die "pin '$key' vanished: the pool no longer serves $POOL (move the pin in scripts/registry/pins.txt)" ;;
		*) rm -f "$out.part"; die "$mirror/$POOL answered HTTP $code" ;;
		esac
		mv "$out.part" "$out"
		verified "$out" || { rm -f "$out"
			die "$POOL does not match its pin '$key' (size $SIZE, SHA-256 $SUM)"; }
		echo "registry: downloaded $(basename "$POOL") ($((SIZE / 1048576)) MiB)" >&2
	fi
	echo "$out"
}

# unpack DEST KEY...: the stamp lists the pins, so a moved pin unpacks anew.
unpack() {
	local dest=$1 key f stamp=""
	shift
	for key in "$@"; do pin "$key"; stamp+="$key $SUM;"; done
	mkdir -p "$(dirname "$dest")"
	exec 9>"$dest.lock"
	flock 9
	if [ "$(cat "$dest/.rvperf-pins" 2>/dev/null)" != "$stamp" ]; then
		rm -rf "$dest"
		rm -rf "$dest.tmp"
		mkdir -p "$dest.tmp"
		for key in "$@"; do
			f=$(file "$key")
			case $f in
			*.deb) dpkg -x "$f" "$dest.tmp" ;;
			*.tar.*) tar -xf "$f" -C "$dest.tmp" --strip-components=1 ;;
			*) die "$f: neither a .deb nor a tarball" ;;
			esac || die "cannot unpack $f"
		done
		printf '%s' "$stamp" >"$dest.tmp/.rvperf-pins"
		mv "$dest.tmp" "$dest"
	fi
	echo "$dest"
}

case ${1:-} in
file) [ $# -eq 2 ] || die "usage: fetch.sh file KEY"; file "$2" ;;
unpack) [ $# -ge 3 ] || die "usage: fetch.sh unpack DEST KEY..."; shift; unpack "$@" ;;
*) die "usage: fetch.sh file KEY | unpack DEST KEY..." ;;
esac
