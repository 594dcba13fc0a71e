#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# scripts/registry/fetch.sh against a registry of our own on loopback (a
# python http.server over a scratch folder): a pinned file is downloaded
# once and checked, a vanished pin and a file that does not match its pin
# fail with one line, a tarball unpacks without its top folder and only
# once; and the real pins.txt is well formed.
. "$(dirname "$0")/../tap.sh"
fetch=scripts/registry/fetch.sh
tmp=$(mktemp -d)
trap 'kill $srv 2>/dev/null; rm -rf "$tmp"' EXIT

# The real pins: key, pool path, size, SHA-256, unique keys.
bad=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' scripts/registry/pins.txt |
	awk '!(NF == 4 && $2 ~ /^pool\/main\// && $3 ~ /^[0-9]+$/ &&
		length($4) == 64 && $4 ~ /^[0-9a-f]+$/) || seen[$1]++')
[ -z "$bad" ]
ok $? "pins.txt: every pin is 'key pool/main/... size sha256', keys unique"
[ -z "$bad" ] || diag "$bad"

mkdir -p "$tmp/pool/main/x/demo" "$tmp/src/demo-1.0" "$tmp/cache"
echo hello >"$tmp/src/demo-1.0/file.txt"
tar -C "$tmp/src" -czf "$tmp/pool/main/x/demo/demo_1.0.orig.tar.gz" demo-1.0
f=$tmp/pool/main/x/demo/demo_1.0.orig.tar.gz
sum=$(sha256sum "$f" | cut -d' ' -f1)
size=$(stat -c %s "$f")
cat >"$tmp/pins.txt" <<PINS
demo      pool/main/x/demo/demo_1.0.orig.tar.gz $size $sum
gone      pool/main/x/demo/demo_0.9.orig.tar.gz $size $sum
wrongsum  pool/main/x/demo/demo_1.0.orig.tar.gz $size $(echo x | sha256sum | cut -d' ' -f1)
PINS

port=$((20000 + RANDOM % 20000))
python3 -m http.server -b 127.0.0.1 -d "$tmp" "$port" >"$tmp/http.log" 2>&1 &
srv=$!
for _ in $(seq 50); do
	curl -s -o /dev/null "http://127.0.0.1:$port/" && break
	sleep 0.1
done
export RVPERF_CACHE=$tmp/cache RVPERF_PINS=$tmp/pins.txt \
	DEBIAN_MIRROR=http://127.0.0.1:$port

got=$("$fetch" file demo 2>/dev/null)
[ "$got" = "$tmp/cache/registry/demo_1.0.orig.tar.gz" ] && cmp -s "$got" "$f"
ok $? "a pinned file is downloaded into the cache and its path printed"
n=$(grep -c 'demo_1.0' "$tmp/http.log")
"$fetch" file demo >/dev/null 2>&1
[ "$(grep -c 'demo_1.0' "$tmp/http.log")" = "$n" ]
ok $? "a verified download is not fetched again"

fails_in_one_line "a pin the pool no longer serves fails with one line naming it" \
	"pin 'gone' vanished: .*demo_0\.9\.orig\.tar\.gz" "$fetch" file gone
fails_in_one_line "a file that does not match its pin is refused" \
	"does not match its pin 'wrongsum'" "$fetch" file wrongsum
[ ! -e "$tmp/cache/registry/demo_1.0.orig.tar.gz.part" ]
ok $? "a refused download leaves no partial file"
fails_in_one_line "an unknown key is refused" "no pin named 'nosuch'" \
	"$fetch" file nosuch

dest=$("$fetch" unpack "$tmp/cache/demo" demo 2>/dev/null)
[ "$dest" = "$tmp/cache/demo" ] && [ "$(cat "$dest/file.txt")" = hello ]
ok $? "unpack: the tarball's top folder is stripped"
touch "$dest/marker"
"$fetch" unpack "$tmp/cache/demo" demo >/dev/null 2>&1
[ -e "$dest/marker" ]
ok $? "unpack: an unpacked tree with the same pins is kept"
tap_done
