#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# build-conf.sh OUT.elf: the S-mode conformance payload (CROSS_COMPILE, default
# riscv64-linux-gnu-).
set -e
d=$(dirname "$0")
cross=${CROSS_COMPILE:-riscv64-linux-gnu-}
exec "${cross}gcc" -std=gnu11 -Wall -Wextra -Werror -O2 \
	-march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany \
	-ffreestanding -nostdlib -fno-pic -no-pie -static -fno-builtin \
	-Wl,--build-id=none,--no-warn-rwx-segments -I"$d/../../include" \
	-T "$d/link.ld" -o "$1" "$d/conf-start.S" "$d/conf.c"
