// SPDX-License-Identifier: BSD-2-Clause
/*
 * classify-check - reads 'objdump -d -M no-aliases' output of a RISC-V
 * program on stdin and classifies every instruction twice: with the
 * qemu-model classifier (insnhw_classify) on the encoding objdump shows, and
 * from objdump's mnemonic and operands through N-Trace 1.0 Table 2 (4-bit
 * and 3-bit itype) and the CTR "Control Transfer Type Definitions" table.
 * Prints one TAP check per instruction form; a form fails on any
 * disagreement, and every form the test program holds (forms64.S,
 * forms32.S) must occur.
 *
 *	classify-check XLEN:DISASSEMBLY...
 *
 * Zcmp/Zcmt (cm.push, cm.popret, cm.popretz, cm.jt, cm.jalt) are a SKIP:
 * binutils 2.40 (Debian 12) knows neither extension, so the program
 * cannot contain them (tests/ctr/ratified-classify.scn checks the
 * classifier on hand-made cm.* encodings instead).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-model/core/insnhw.h"
#include "rvperf/ctr.h"
#include "tap.h"

struct want {
	unsigned int type, itype, itype3;
};

#define MAX_FORMS 64

static struct form {
	unsigned int xlen;
	char name[48];
	unsigned long seen, bad;
	char first_bad[160];
} forms[MAX_FORMS];
static int nforms;

static struct form *form(unsigned int xlen, const char *name)
{
	for (int i = 0; i < nforms; i++)
		if (forms[i].xlen == xlen && strcmp(forms[i].name, name) == 0)
			return &forms[i];
	forms[nforms].xlen = xlen;
	if (nforms == MAX_FORMS) {
		printf("Bail out! too many forms\n");
		exit(1);
	}
	snprintf(forms[nforms].name, sizeof(forms[nforms].name), "%s", name);
	return &forms[nforms++];
}

/* x1 (ra) and x5 (t0) are the link registers. */
static bool link(const char *r)
{
	return strcmp(r, "ra") == 0 || strcmp(r, "t0") == 0;
}

static const char *lk(const char *r)
{
	if (strcmp(r, "ra") == 0)
		return "x1";
	if (strcmp(r, "t0") == 0)
		return "x5";
	if (strcmp(r, "zero") == 0)
		return "x0";
	return "other";
}

static bool is_branch(const char *m)
{
	static const char *const b[] = { "beq", "bne", "blt", "bge", "bltu",
					  "bgeu", "c.beqz", "c.bnez" };

	for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++)
		if (strcmp(m, b[i]) == 0)
			return true;
	return false;
}

/*
 * The classification objdump's text implies (anything not listed: type
 * NONE, itype 0).  FNAME gets the form's name.
 */
static void expect(const char *mn, const char *ops, bool taken,
		   struct want *w, char *fname, size_t fsz)
{
	char rd[16] = "", rs[16] = "";

	w->type = RVP_CTRDATA_TYPE_NONE;
	w->itype = w->itype3 = 0;
	if (is_branch(mn)) {
		snprintf(fname, fsz, "%s %s", mn, taken ? "taken" : "not taken");
		/* Table 2: conditional branch, 4 non-taken / 5 taken */
		w->type = taken ? RVP_CTRDATA_TYPE_TAKEN_BRANCH
				: RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH;
		w->itype = w->itype3 = taken ? 5 : 4;
		return;
	}
	if (strcmp(mn, "jal") == 0) {
		sscanf(ops, "%15[^,]", rd);
		snprintf(fname, fsz, "jal rd=%s", lk(rd));
		/* CTR: JAL x1/x5 direct call, JAL x0 direct jump, else
		 * other direct jump; Table 2: rd=link 9 else 15; 3-bit 0 */
		w->type = link(rd) ? RVP_CTRDATA_TYPE_DIRECT_CALL
			: strcmp(rd, "zero") == 0 ? RVP_CTRDATA_TYPE_DIRECT_JUMP
			: RVP_CTRDATA_TYPE_OTHER_DIRECT_JUMP;
		w->itype = link(rd) ? 9 : 15;
		return;
	}
	if (strcmp(mn, "jalr") == 0) {
		bool l_rd, l_rs;

		/* "rd,imm(rs1)" */
		sscanf(ops, "%15[^,],%*[^(](%15[^)])", rd, rs);
		snprintf(fname, fsz, "jalr rd=%s rs1=%s", lk(rd), lk(rs));
		l_rd = link(rd);
		l_rs = link(rs);
		if (l_rd && l_rs && strcmp(rd, rs) != 0)
			w->type = RVP_CTRDATA_TYPE_COROUTINE_SWAP;
		else if (l_rd)
			w->type = RVP_CTRDATA_TYPE_INDIRECT_CALL;
		else if (l_rs)
			w->type = RVP_CTRDATA_TYPE_FUNCTION_RETURN;
		else if (strcmp(rd, "zero") == 0)
			w->type = RVP_CTRDATA_TYPE_INDIRECT_JUMP;
		else
			w->type = RVP_CTRDATA_TYPE_OTHER_INDIRECT_JUMP;
		if (l_rd && !l_rs)
			w->itype = 8;
		else if (l_rd && l_rs)
			w->itype = strcmp(rd, rs) != 0 ? 12 : 8;
		else if (l_rs)
			w->itype = 13;
		else
			w->itype = 14;
		w->itype3 = 6;
		return;
	}
	if (strcmp(mn, "c.jal") == 0 || strcmp(mn, "c.j") == 0) {
		snprintf(fname, fsz, "%s", mn);
		bool call = strcmp(mn, "c.jal") == 0;

		w->type = call ? RVP_CTRDATA_TYPE_DIRECT_CALL
			       : RVP_CTRDATA_TYPE_DIRECT_JUMP;
		w->itype = call ? 9 : 15;
		return;
	}
	if (strcmp(mn, "c.jr") == 0) {
		sscanf(ops, "%15s", rs);
		snprintf(fname, fsz, "c.jr rs1=%s", lk(rs));
		w->type = link(rs) ? RVP_CTRDATA_TYPE_FUNCTION_RETURN
				   : RVP_CTRDATA_TYPE_INDIRECT_JUMP;
		w->itype = link(rs) ? 13 : 14;
		w->itype3 = 6;
		return;
	}
	if (strcmp(mn, "c.jalr") == 0) {
		sscanf(ops, "%15s", rs);
		snprintf(fname, fsz, "c.jalr rs1=%s", lk(rs));
		w->type = strcmp(rs, "t0") == 0 ? RVP_CTRDATA_TYPE_COROUTINE_SWAP
						: RVP_CTRDATA_TYPE_INDIRECT_CALL;
		w->itype = strcmp(rs, "t0") == 0 ? 12 : 8;
		w->itype3 = 6;
		return;
	}
	if (strcmp(mn, "ecall") == 0 || strcmp(mn, "ebreak") == 0 ||
	    strcmp(mn, "c.ebreak") == 0) {
		snprintf(fname, fsz, "%s", mn);
		w->type = RVP_CTRDATA_TYPE_EXCEPTION;
		w->itype = w->itype3 = 1;
		return;
	}
	if (strcmp(mn, "mret") == 0 || strcmp(mn, "sret") == 0) {
		snprintf(fname, fsz, "%s", mn);
		w->type = RVP_CTRDATA_TYPE_TRAP_RETURN;
		w->itype = w->itype3 = 3;
		return;
	}
	snprintf(fname, fsz, "non-jump");
}

static void check(unsigned int xlen, uint32_t insn, const char *mn,
		  const char *ops, bool taken)
{
	struct want w;
	struct insnhw_class c;
	char fname[48];
	struct form *f;

	expect(mn, ops, taken, &w, fname, sizeof(fname));
	insnhw_classify(insn, xlen, 0, taken, &c);
	f = form(xlen, fname);
	f->seen++;
	if (c.type != w.type || c.itype != w.itype || c.itype3 != w.itype3) {
		if (!f->bad++)
			snprintf(f->first_bad, sizeof(f->first_bad),
				 "%08x %s %s: classifier type %u itype %u/%u, "
				 "objdump says %u %u/%u", insn, mn, ops,
				 c.type, c.itype, c.itype3, w.type, w.itype,
				 w.itype3);
	}
}

static const char *const forms64[] = {
	"beq taken", "beq not taken", "bne taken", "bne not taken",
	"blt taken", "blt not taken", "bge taken", "bge not taken",
	"bltu taken", "bltu not taken", "bgeu taken", "bgeu not taken",
	"c.beqz taken", "c.beqz not taken", "c.bnez taken", "c.bnez not taken",
	"jal rd=x1", "jal rd=x5", "jal rd=x0", "jal rd=other",
	"jalr rd=x0 rs1=x1", "jalr rd=x0 rs1=x5", "jalr rd=x0 rs1=other",
	"jalr rd=x1 rs1=x1", "jalr rd=x1 rs1=x5", "jalr rd=x1 rs1=other",
	"jalr rd=x5 rs1=x1", "jalr rd=x5 rs1=x5", "jalr rd=x5 rs1=other",
	"jalr rd=other rs1=x1", "jalr rd=other rs1=x5",
	"jalr rd=other rs1=other",
	"c.j", "c.jr rs1=x1", "c.jr rs1=x5", "c.jr rs1=other",
	"c.jalr rs1=x1", "c.jalr rs1=x5", "c.jalr rs1=other",
	"ecall", "ebreak", "c.ebreak", "mret", "sret", "non-jump",
};

static const char *const forms32[] = {
	"c.jal", "c.j", "c.jalr rs1=x5", "c.jr rs1=x1", "c.beqz taken",
	"c.beqz not taken", "jal rd=x1", "jalr rd=x0 rs1=x5",
};

static unsigned long read_disassembly(unsigned int xlen, FILE *in)
{
	char line[512];
	unsigned long insns = 0;

	while (fgets(line, sizeof(line), in)) {
		char hex[16], mn[32], ops[256] = "";
		char *p = line, *tab;
		unsigned long insn;

		/* "  addr:\tHEX   \tmnemonic\toperands" */
		while (*p == ' ')
			p++;
		tab = strchr(p, ':');
		if (!tab || tab[1] != '\t')
			continue;
		if (sscanf(tab + 2, "%15s %31s %255[^\n]", hex, mn, ops) < 2)
			continue;
		if (strlen(hex) != 4 && strlen(hex) != 8)
			continue;
		insn = strtoul(hex, NULL, 16);
		if (mn[0] == '.' || mn[0] == '<')
			continue;	/* data, .insn */
		/* drop a trailing "<symbol>" and "# comment" */
		if ((p = strchr(ops, '<')))
			*p = '\0';
		if ((p = strchr(ops, '#')))
			*p = '\0';
		insns++;
		check(xlen, (uint32_t)insn, mn, ops, true);
		if (is_branch(mn))
			check(xlen, (uint32_t)insn, mn, ops, false);
	}
	return insns;
}

int main(int argc, char **argv)
{
	for (size_t i = 0; i < sizeof(forms64) / sizeof(forms64[0]); i++)
		form(64, forms64[i]);
	for (size_t i = 0; i < sizeof(forms32) / sizeof(forms32[0]); i++)
		form(32, forms32[i]);
	for (int a = 1; a < argc; a++) {
		unsigned int xlen = (unsigned int)atoi(argv[a]);
		const char *path = strchr(argv[a], ':');
		FILE *in = path ? fopen(path + 1, "r") : NULL;
		unsigned long n;

		if (!in || (xlen != 32 && xlen != 64)) {
			printf("Bail out! usage: classify-check XLEN:FILE...\n");
			return 1;
		}
		n = read_disassembly(xlen, in);
		fclose(in);
		tap_ok(n > 0, "RV%u: %lu instructions read from %s", xlen, n,
		       path + 1);
	}
	for (int i = 0; i < nforms; i++) {
		tap_ok(forms[i].seen && !forms[i].bad,
		       "RV%u %s: %lu instructions, the classifier agrees with "
		       "objdump by N-Trace Table 2 (4-/3-bit) and CTR types",
		       forms[i].xlen, forms[i].name, forms[i].seen);
		if (!forms[i].seen)
			printf("# not in the program\n");
		if (forms[i].bad)
			printf("# %lu disagree, first: %s\n", forms[i].bad,
			       forms[i].first_bad);
	}
	tap_skip("binutils 2.40 has no Zcmp/Zcmt: riscv64-linux-gnu-as "
		 "rejects -march=..._zcmp/_zcmt",
		 "cm.push, cm.popret, cm.popretz, cm.jt, cm.jalt against objdump");
	return tap_done();
}
