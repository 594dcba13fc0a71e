// SPDX-License-Identifier: BSD-2-Clause
/*
 * disas-check - the trace listing's disassembler: the operands of the
 * specification's example instructions, and, given a file of "ADDRESS HEX
 * MNEMONIC" lines (objdump -M no-aliases output reduced by
 * tests/tv/disas-test.sh), how many instructions it names as objdump does.
 * Arguments: [xlen list-file].
 */
#include "tap.h"
#include "userspace/tv/tv_disas.h"

#include <stdlib.h>

static void example(uint32_t insn, uint64_t pc, const char *want)
{
	char buf[128];

	tv_disas(insn, pc, 64, buf, sizeof(buf));
	tap_eq_str(buf, want, "0x%08x disassembles as %s", insn, want);
}

int main(int argc, char **argv)
{
	char line[512], buf[128], want[64];
	unsigned long long addr;
	unsigned int insn, n = 0, bad = 0, xlen;
	FILE *f;

	example(0x006281b3, 0, "add gp,t0,t1");
	example(0x10010067, 0, "jalr zero,256(sp)");
	example(0x0116f3d3, 0, "fadd.s ft7,fa3,fa7");
	example(0x8d0d, 0, "c.sub a0,a1");
	example(0x0082a203, 0, "lw tp,8(t0)");
	example(0x3045b4f3, 0, "csrrc s1,mie,a1");
	example(0x00000000, 0, ".2byte 0x0000");
	example(0xfe0718e3, 0x1000, "bne a4,zero,0xff0");
	if (argc < 3)
		return tap_done();
	xlen = (unsigned int)atoi(argv[1]);
	f = fopen(argv[2], "r");
	if (!f)
		return tap_ok(0, "cannot open %s", argv[2]), tap_done();
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %x %63s", &addr, &insn, want) != 3)
			continue;
		n++;
		tv_disas(insn, addr, xlen, buf, sizeof(buf));
		buf[strcspn(buf, " ")] = 0;
		if (strcmp(buf, want) != 0 && bad++ < 10)
			tap_diag("0x%llx %08x: ours %s, objdump %s", addr, insn, buf, want);
	}
	fclose(f);
	tap_ok(n > 1000 && bad == 0,
	       "RV%u: %u of %u instructions have objdump's mnemonic", xlen, n - bad, n);
	return tap_done();
}
