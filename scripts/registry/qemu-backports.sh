#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Debian's QEMU 10.0.2 for bookworm (bookworm-backports; Smctr/Ssctr; the
# system emulator loads plugins with register access, its qemu-riscv64 is a
# static build that loads none), unpacked into the cache so that the
# system's QEMU 7.2 stays what it is.  Prints a folder with two wrappers,
# qemu-system-riscv64 (which passes -L for the unpacked ROMs) and
# qemu-riscv64, that any script taking a QEMU path can run.
# Environment: RVPERF_CACHE.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${RVPERF_CACHE:?RVPERF_CACHE is not set}
dest=$("$top/scripts/registry/fetch.sh" unpack "$cache/qemu-10.0.2" \
	qemu-10.0.2.system qemu-10.0.2.common qemu-10.0.2.data qemu-10.0.2.user)
bin=$dest/rvperf-bin
if [ ! -x "$bin/qemu-riscv64" ]; then
	mkdir -p "$bin"
	printf '#!/bin/sh\nexec "%s" -L "%s" "$@"\n' \
		"$dest/usr/bin/qemu-system-riscv64" "$dest/usr/share/qemu" \
		>"$bin/qemu-system-riscv64"
	ln -sf "$dest/usr/bin/qemu-riscv64" "$bin/qemu-riscv64"
	chmod +x "$bin/qemu-system-riscv64"
fi
# The unpacked binaries take bookworm's shared libraries (scripts/deps.txt).
missing=$(ldd "$dest/usr/bin/qemu-system-riscv64" | sed -n 's/^\s*\(\S*\) => not found/\1/p')
[ -z "$missing" ] || { echo "qemu-backports: libraries missing:" $missing "(make deps)" >&2; exit 1; }
echo "$bin"
