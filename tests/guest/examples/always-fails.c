// SPDX-License-Identifier: BSD-2-Clause
/*
 * always-fails - an example GUEST_EXTRA program, and the proof that a failing
 * guest program fails 'make check':
 *
 *	make check-guest GUEST_EXTRA=build/guest/bin/always-fails
 *
 * An extra program is any static riscv64 Linux executable that prints TAP
 * and exits 0 when all its checks passed, 1 otherwise.
 */
#include "tap.h"

int main(void)
{
	tap_ok(1, "an extra program runs in the guest");
	tap_ok(0, "this check fails on purpose");
	return tap_done();
}
