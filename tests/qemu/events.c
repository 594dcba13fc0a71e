/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/events.c - runs the rvp_ops() scn2events.py generated from a
 * ctr-sim scenario (CSR accesses, transfers, traps, trap returns and mode
 * switches in every mode, dumps in M-mode) and prints what it stored as
 * ctr-sim prints it: "name=0x..." per read, "illegal" or "virtual" per
 * access that took that trap, "entry N SOURCE TARGET DATA" per valid
 * entry of each dump, "idle N" per timer wait (the cycles it took).
 */
#include "events.h"
#include "guest.h"

void rvp_ops(void);

static void put_num(unsigned long v, unsigned int base)
{
	char buf[24];
	int i = 0;

	do {
		buf[i++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (i) {
		char c[2] = { buf[--i], 0 };

		put_str(c);
	}
}

static void put_hex(unsigned long v)
{
	put_str("0x");
	put_num(v, 16);
}

/* Prints nothing for status 0 and returns 0. */
static int put_trap(unsigned long status)
{
	if (!status)
		return 0;
	if (status == 2) {
		put_str("illegal\n");
	} else if (status == 22) {
		put_str("virtual\n");
	} else {
		put_str("trap ");
		put_hex(status);
		put_str("\n");
	}
	return 1;
}

void ops(void)
{
	unsigned long *o = rvp_out;

	rvp_ops();
	for (int n = 0; n < rvp_nnames; n++) {
		const struct rvp_out_name *d = &rvp_names[n];

		if (d->kind == 'r') {
			if (!put_trap(o[0]))
				put_line(d->name, o[1] & d->mask);
			o += 2;
			continue;
		}
		if (d->kind == 'w') {
			put_trap(o[0]);
			o++;
			continue;
		}
		if (d->kind == 'i') {
			/* cycles spent in a timer wait: events.sh gives them to
			 * ctr-sim, they are not compared */
			put_str("idle ");
			put_hex(o[0]);
			put_str("\n");
			o++;
			continue;
		}
		for (unsigned long i = 0; i < 256; i++, o += 3) {
			if (!(o[0] & 1))
				continue;
			put_str("entry ");
			put_num(i, 10);
			put_str(" ");
			put_hex(o[0]);
			put_str(" ");
			put_hex(o[1]);
			put_str(" ");
			put_hex(o[2]);
			put_str("\n");
		}
	}
}
