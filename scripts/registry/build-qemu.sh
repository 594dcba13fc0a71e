#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Builds our QEMU: the registry's QEMU 10.2.2 source (pinned in
# scripts/registry/pins.txt) with qemu-model/qemu applied, into the cache
# (outside the clone), and prints the path of the binary asked for:
#   build-qemu.sh [system]  qemu-system-riscv64 (the CTR model under test)
#   build-qemu.sh user      qemu-riscv64 with TCG plugin support (rvperf
#                           record's fast path: plugin API v3; Debian's
#                           qemu-riscv64 is 7.2 or, newer, static)
#
# A build is keyed by the source pin, the Python tool pins, this script and
# the content of the series (qemu-model/qemu, qemu-model/core,
# include/rvperf): an unchanged series is not rebuilt, a changed one is
# rebuilt incrementally in the same work tree and build directory (only the
# files whose content changed get a new time stamp, so ninja recompiles just
# what they touch), and only the newest binaries are kept.  The two
# binaries share the patched tree but have a build directory each, so that
# either is built only when asked for.  Compiler warnings fail the build
# (--enable-werror).
#
# What is built: riscv64-softmmu only, with every optional feature off
# (--without-default-features), no documentation, tools, guest agent, Rust,
# downloads or debug info, and only the devices of the virt machine plus
# virtio-serial (the guest pipeline's result port), plus --enable-plugins
# (dynamic, glib's gmodule: rvperf tv verify's plugin path in system mode;
# no plugin loaded, no plugin call in translated code).  The user binary:
# riscv64-linux-user only, the same features off, plus --enable-plugins.  The series changes nothing it runs: each hook is
# compiled for system mode only or taken only when the CPU has the rvperf
# model (env->rvperf, which only system mode's realize creates).  Debian's tarball (+ds)
# has no prebuilt firmware: the binary has no default BIOS, so pass -bios
# (none, or a firmware file) to every run.
#
# Build dependencies come from Debian: the bookworm packages in
# scripts/deps.txt (glib, libfdt, ninja, dtc, python3-venv/-distlib) and,
# since bookworm's meson (1.0.1) is older than QEMU 10.2 accepts (>= 1.5),
# bookworm-backports' meson and pycotap, unpacked into the cache (never
# installed) and put on PYTHONPATH for configure's venv.
# Environment: RVPERF_CACHE, JOBS (default nproc), PYTHON (a Python that
# sees Debian's python3 packages: /usr/bin/python3).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${RVPERF_CACHE:?RVPERF_CACHE is not set}
jobs=${JOBS:-$(nproc)}
python=${PYTHON:-/usr/bin/python3}
fetch=$top/scripts/registry/fetch.sh
pin=qemu-10.2.2.src
pytools=(meson-1.7.0.deb pycotap-1.3.1.deb)
base=$cache/qemu-rvperf

die() { echo "build-qemu: $*" >&2; exit 1; }

# The devices of the one machine the tests boot (configs/devices/
# riscv64-softmmu/rvperf.mak in the work tree, with
# --without-default-devices): the virt board selects its own (UART,
# ACLINT, PLIC/APLIC/IMSIC, virtio-mmio, fw_cfg, ...); virtio-serial is
# scripts/guest/guest.py's result port.
devices='CONFIG_RISCV_VIRT=y
CONFIG_VIRTIO_SERIAL=y'
# (The system list keeps its order: a changed list reconfigures from scratch.)
common_args=(--disable-download --disable-docs --disable-tools
	--disable-guest-agent --disable-rust --disable-debug-info
	--disable-qom-cast-debug --disable-install-blobs --enable-werror)
case ${1:-system} in
system)	configure_args=(--python="$python" --target-list=riscv64-softmmu
		--without-default-features --without-default-devices
		--with-devices-riscv64=rvperf --enable-fdt=system
		--enable-plugins "${common_args[@]}")
	name=qemu-system-riscv64 build=build ;;
user)	configure_args=(--python="$python" --target-list=riscv64-linux-user
		--without-default-features --enable-plugins "${common_args[@]}")
	name=qemu-riscv64 build=build-user ;;
*)	echo "build-qemu: usage: build-qemu.sh [system|user]" >&2; exit 1 ;;
esac

key=$( { for k in $pin "${pytools[@]}"; do
		awk -v k="$k" '$1 == k { print $1, $4 }' "$top/scripts/registry/pins.txt"
	done
	sha256sum "$top/scripts/registry/build-qemu.sh" | cut -d' ' -f1
	# qemu-model/qemu/upstream/ (patches for stock QEMU) is not built here.
	cd "$top" && find qemu-model/qemu qemu-model/core include/rvperf \
		-path qemu-model/qemu/upstream -prune -o -type f -print |
		LC_ALL=C sort | xargs sha256sum; } | sha256sum | cut -c1-16)
out=$base/$key
bin=$out/$name
done=$out/.done-$name

[ $# -le 1 ] || die "usage: build-qemu.sh [system|user]"

mkdir -p "$base"
exec 9>"$base/.lock"
flock 9
if [ ! -f "$done" ]; then
	for t in ninja dtc pkg-config; do
		command -v $t >/dev/null || die "$t missing (run 'make deps')"
	done
	"$python" -c 'import venv, distlib' 2>/dev/null ||
		die "$python lacks venv or distlib (run 'make deps')"
	src=$("$fetch" unpack "$cache/qemu-10.2.2" $pin)
	py=$("$fetch" unpack "$cache/qemu-build-python" "${pytools[@]}")
	export PYTHONPATH=$py/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}
	log=$base/build.log
	: >"$log"
	echo "build-qemu: building QEMU 10.2.2's $name with qemu-model/qemu ($key)" >&2

	# A fresh patched tree, then only what changed into the work tree
	# (once per key: the other binary may have brought it there).
	if [ "$(cat "$base/tree/.rvperf-key" 2>/dev/null)" != "$key" ]; then
		rm -rf "$base/tree.new"
		# the content, not the path: a cache whose source item is a
		# symbolic link must not patch the shared source through it
		mkdir "$base/tree.new"
		cp -a "$src/." "$base/tree.new/"
		rm -f "$base/tree.new/.rvperf-pins"
		"$top/qemu-model/qemu/apply.sh" "$base/tree.new" >>"$log" 2>&1 ||
			{ tail -5 "$log" >&2; die "qemu-model/qemu does not apply (log: $log)"; }
		# Debian's +ds tarball drops the prebuilt EDK2 images that
		# pc-bios/meson.build would unpack for riscv64-softmmu whenever bzip2
		# is installed: nothing here boots EDK2.
		sed -i 's/^\( *unpack_edk2_blobs = \)bzip2\.found()$/\1false/' \
			"$base/tree.new/meson.build"
		grep -q '^ *unpack_edk2_blobs = false$' "$base/tree.new/meson.build" ||
			die "meson.build: the EDK2 blob switch moved (adapt build-qemu.sh)"
		printf '%s\n' "$devices" \
			>"$base/tree.new/configs/devices/riscv64-softmmu/rvperf.mak"
		if [ -d "$base/tree" ]; then
			rsync -rlpc --delete "$base/tree.new/" "$base/tree/"
			rm -rf "$base/tree.new"
		else
			# built from a tree that is gone
			rm -rf "$base/build" "$base/build-user"
			mv "$base/tree.new" "$base/tree"
		fi
		echo "$key" >"$base/tree/.rvperf-key"
	fi

	# Configure once per set of options; meson itself reruns when a
	# meson.build changes.
	build=$base/$build
	opts="${configure_args[*]}"
	[ "$name" = qemu-riscv64 ] ||
		opts="$opts $(printf '%s' "$devices" | tr '\n' ' ')"
	if [ "$(cat "$build/.rvperf-configure" 2>/dev/null)" != "$opts" ]; then
		rm -rf "$build"
		mkdir -p "$build"
		(cd "$build" && "$base/tree/configure" "${configure_args[@]}") \
			>>"$log" 2>&1 ||
			{ tail -20 "$log" >&2; die "configure failed (log: $log)"; }
		printf '%s' "$opts" >"$build/.rvperf-configure"
	fi
	ninja -C "$build" -j"$jobs" "$name" >>"$log" 2>&1 ||
		{ grep -E 'error|FAILED' "$log" | head -20 >&2
		  die "the build failed (log: $log)"; }
	if grep -q 'warning:' "$log"; then
		grep 'warning:' "$log" | head -10 >&2
		die "the build printed warnings (log: $log)"
	fi
	find "$base" -mindepth 1 -maxdepth 1 -type d ! -name tree \
		! -name build ! -name build-user ! -name "$key" -exec rm -rf {} +
	mkdir -p "$out"
	cp "$build/$name" "$bin"
	case $name in
	qemu-system-riscv64)
		"$bin" -device rv64-riscv-cpu,help 2>/dev/null |
			grep -q ctr-layout ||
			die "$bin has no ctr-layout CPU property" ;;
	qemu-riscv64)
		"$bin" -h 2>/dev/null | grep -q '^-plugin' ||
			die "$bin has no -plugin option" ;;
	esac
	touch "$done"
fi
echo "$bin"
