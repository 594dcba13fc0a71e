// SPDX-License-Identifier: BSD-2-Clause
/*
 * sbi-sim - runs scripts of SBI PMU ecalls against the freestanding core on
 * simulated harts.
 *
 *   sbi-sim [--tap] SCRIPT...     (no SCRIPT: standard input)
 *
 * Script lines ('#' starts a comment):
 *   hart KEY=VALUE...          (re)boot a hart: id xlen counters width
 *                              fixed_width sscofpmf smcntrpmf smstateen
 *                              fw_ctrs fw_impl=A-B fw_platform snapshot
 *                              event_info force_minh mode=M|S|U|V|W
 *                              ctr=none|ssctr|smctr layout=v1|draft depths
 *                              ctr_depth ctr_record_m ctr_mte ctr_lcofifrz
 *                              ctr_draft (the build option RVPERF_CTR_DRAFT)
 *                              ssqosid (srmcfg 0x181, mstateen0 bit 55)
 *                              isa=NAME,...|none (riscv,isa-extensions;
 *                              default: what the hart has, ratified names)
 *                              isa_string=rv64..._NAME (riscv,isa instead)
 *                              qemu_quirks (the host found QEMU virt)
 *                              ram=BASE:SIZE fwmem=BASE:SIZE mmio=BASE:SIZE
 *   on ID                      later commands go to hart ID
 *   dt PROPERTY CELL...        a riscv,pmu property (before 'hart')
 *   ecall EID FID A0..A5       prints "error value" (EID may be 'pmu',
 *                              FID a function name such as 'start')
 *   mem read ADDR [N]          N 64-bit words
 *   mem write ADDR WORD...
 *   csr read CSR | csr write CSR VALUE
 *   tick cycle|instret N | tick hpm SELECTOR N | tick fw CODE N [DATA]
 *   tick branch N              CTR-qualified transfers in the current mode
 *   ctr start|resume|entries
 *   snap                       remember the whole machine state
 *   expect ERR [VALUE|*]       the last ecall's result (ERR: number or name)
 *   expect mem ADDR WORD...  | expect csr CSR VALUE|missing
 *   expect unchanged           the machine is as at the last 'snap'
 *   expect ctr_entries N
 *   expect csr_reads CSR N | expect csr_writes CSR N
 *                              the core's reads (probes included) or writes
 *                              of CSR during the last ecall (before any: the
 *                              last boot)
 *   expect of_starts MASK      counters started with mhpmevent.OF set since
 *                              the boot (bit N: counter N)
 *   expect maps N              the last ecall mapped S-mode memory N times
 *   expect overflowed MASK     rvp_sbi_pmu_overflowed(): started counters with
 *                              OF set (what an M-mode LCOFI is about)
 * Any expect line may end with "-- description"; with --tap each one is a
 * TAP result, and so is a per-script check that the core never touched a
 * missing CSR or memory outside S-mode RAM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_hw.h"
#include "opensbi-ext/core/rvp_sbi_pmu_dt.h"

static int tap;
static unsigned int tap_n, tap_fail;
static const char *cur_file;
static unsigned int cur_line;

struct snapshot {
	int valid;
	uint8_t *mem[SIM_MAX_REGIONS];
	struct sim_hart hart[SIM_MAX_HARTS];
};

static struct sim S;
static struct snapshot snap;
static struct rvp_sbiret last;
static int have_last;

static void result(int pass, const char *desc, const char *diag)
{
	tap_n++;
	if (!pass)
		tap_fail++;
	if (tap) {
		printf("%s %u - %s:%u: %s\n", pass ? "ok" : "not ok", tap_n,
		       cur_file, cur_line, desc);
		if (!pass && diag)
			printf("# %s\n", diag);
	} else if (!pass) {
		fprintf(stderr, "%s:%u: FAIL %s%s%s\n", cur_file, cur_line,
			desc, diag ? ": " : "", diag ? diag : "");
	}
}

static int die(const char *msg)
{
	fprintf(stderr, "%s:%u: %s\n", cur_file, cur_line, msg);
	if (tap)
		printf("Bail out! %s:%u: %s\n", cur_file, cur_line, msg);
	exit(2);
}

static uint64_t num(const char *t)
{
	char *end;
	uint64_t v;

	if (!t)
		die("missing number");
	v = strtoull(t, &end, 0);
	if (*end || !*t)
		die("bad number");
	return v;
}

static const struct { const char *name; long err; } errs[] = {
	{ "SUCCESS", RVP_SBI_SUCCESS },
	{ "FAILED", RVP_SBI_ERR_FAILED },
	{ "NOT_SUPPORTED", RVP_SBI_ERR_NOT_SUPPORTED },
	{ "INVALID_PARAM", RVP_SBI_ERR_INVALID_PARAM },
	{ "DENIED", RVP_SBI_ERR_DENIED },
	{ "INVALID_ADDRESS", RVP_SBI_ERR_INVALID_ADDRESS },
	{ "ALREADY_AVAILABLE", RVP_SBI_ERR_ALREADY_AVAILABLE },
	{ "ALREADY_STARTED", RVP_SBI_ERR_ALREADY_STARTED },
	{ "ALREADY_STOPPED", RVP_SBI_ERR_ALREADY_STOPPED },
	{ "NO_SHMEM", RVP_SBI_ERR_NO_SHMEM },
};

static const struct { const char *name; unsigned long fid; } fids[] = {
	{ "num_counters", RVP_SBI_PMU_FID_NUM_COUNTERS },
	{ "get_info", RVP_SBI_PMU_FID_COUNTER_GET_INFO },
	{ "config_matching", RVP_SBI_PMU_FID_COUNTER_CONFIG_MATCHING },
	{ "start", RVP_SBI_PMU_FID_COUNTER_START },
	{ "stop", RVP_SBI_PMU_FID_COUNTER_STOP },
	{ "fw_read", RVP_SBI_PMU_FID_COUNTER_FW_READ },
	{ "fw_read_hi", RVP_SBI_PMU_FID_COUNTER_FW_READ_HI },
	{ "set_shmem", RVP_SBI_PMU_FID_SNAPSHOT_SET_SHMEM },
	{ "event_get_info", RVP_SBI_PMU_FID_EVENT_GET_INFO },
};

static long err_value(const char *t)
{
	unsigned int i;

	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		if (!strcmp(t, errs[i].name))
			return errs[i].err;
	return (long)num(t);
}

static struct sim_hart *hart(void)
{
	struct sim_hart *h = &S.hart[S.cur];

	if (!h->present)
		die("no hart booted (use 'hart ...')");
	return h;
}

static void take_snapshot(void)
{
	unsigned int i;

	for (i = 0; i < SIM_MAX_REGIONS; i++) {
		free(snap.mem[i]);
		snap.mem[i] = NULL;
	}
	for (i = 0; i < S.nr_reg; i++) {
		snap.mem[i] = malloc(S.reg[i].size);
		if (!snap.mem[i])
			die("out of memory");
		memcpy(snap.mem[i], S.reg[i].mem, S.reg[i].size);
	}
	memcpy(snap.hart, S.hart, sizeof(snap.hart));
	snap.valid = 1;
}

/* What differs from the snapshot, or NULL. */
static const char *changed(void)
{
	static char why[128];
	unsigned int i;

	if (!snap.valid)
		return "no snap taken";
	for (i = 0; i < S.nr_reg; i++)
		if (!snap.mem[i] ||
		    memcmp(snap.mem[i], S.reg[i].mem, S.reg[i].size)) {
			snprintf(why, sizeof(why), "memory of region %#llx",
				 (unsigned long long)S.reg[i].base);
			return why;
		}
	for (i = 0; i < SIM_MAX_HARTS; i++) {
		if (memcmp(&snap.hart[i].csr, &S.hart[i].csr,
			   sizeof(S.hart[i].csr))) {
			snprintf(why, sizeof(why), "CSRs of hart %u", i);
			return why;
		}
		if (memcmp(&snap.hart[i].pmu, &S.hart[i].pmu,
			   sizeof(S.hart[i].pmu))) {
			snprintf(why, sizeof(why), "PMU state of hart %u", i);
			return why;
		}
	}
	return NULL;
}

static void cmd_hart(char **tok, int n)
{
	struct sim_hart tmp, *h;
	unsigned int id = 0;
	int i;

	for (i = 1; i < n; i++)
		if (!strncmp(tok[i], "id=", 3)) {
			id = (unsigned int)num(tok[i] + 3);
			if (id >= SIM_MAX_HARTS)
				die("hart id out of range");
		}
	sim_hart_defaults(&S, &tmp, id);
	for (i = 1; i < n; i++) {
		char *eq = strchr(tok[i], '=');

		if (!eq)
			die("hart wants KEY=VALUE");
		*eq = 0;
		if (sim_hart_set(&tmp, tok[i], eq + 1))
			die(S.err);
	}
	/* A machine with no memory gets QEMU virt-like defaults. */
	if (!S.nr_reg) {
		if (sim_add_region(&S, SIM_FW, 0x80000000ULL, 0x40000) ||
		    sim_add_region(&S, SIM_RAM, 0x80200000ULL, 0x100000) ||
		    sim_add_region(&S, SIM_MMIO, 0x10000000ULL, 0x1000))
			die(S.err);
	}
	h = &S.hart[id];
	*h = tmp;
	if (sim_hart_boot(h))
		die(S.err);
	S.cur = id;
}

static void cmd_ecall(char **tok, int n)
{
	uint64_t a[6] = { 0 }, eid, fid;
	unsigned int i;
	int j;

	if (n < 3)
		die("ecall EID FID [A0..A5]");
	eid = !strcmp(tok[1], "pmu") ? RVP_SBI_EXT_PMU : num(tok[1]);
	fid = ~0ULL;
	for (i = 0; i < sizeof(fids) / sizeof(fids[0]); i++)
		if (!strcmp(tok[2], fids[i].name))
			fid = fids[i].fid;
	if (fid == ~0ULL)
		fid = num(tok[2]);
	for (j = 3; j < n && j < 9; j++)
		a[j - 3] = num(tok[j]);
	if (n > 9)
		die("too many ecall arguments");
	last = sim_ecall(hart(), eid, fid, a);
	have_last = 1;
	if (!tap)
		printf("%ld 0x%llx\n", last.error,
		       (unsigned long long)last.value);
}

static void cmd_dt(char **tok, int n)
{
	uint8_t buf[4 * 64];
	int i, err;

	if (n < 2)
		die("dt PROPERTY CELL...");
	if (n - 2 > 64)
		die("too many cells");
	for (i = 2; i < n; i++) {
		uint64_t c = num(tok[i]);

		if (c > 0xFFFFFFFFULL)
			die("a cell is 32 bits");
		buf[4 * (i - 2)] = (uint8_t)(c >> 24);
		buf[4 * (i - 2) + 1] = (uint8_t)(c >> 16);
		buf[4 * (i - 2) + 2] = (uint8_t)(c >> 8);
		buf[4 * (i - 2) + 3] = (uint8_t)c;
	}
	err = rvp_sbi_pmu_dt_prop(&S.maps, tok[1], buf, 4U * (unsigned int)(n - 2));
	if (!err)
		S.have_maps = 1;
	last.error = err;
	last.value = 0;
	have_last = 1;
	if (!tap)
		printf("%d 0x0\n", err);
}

static uint64_t *mem_words(uint64_t addr, uint64_t count)
{
	uint8_t *p;

	if (count > (1ULL << 20))
		die("too many words");
	p = sim_mem(&S, addr, count * 8, NULL);
	if (!p)
		die("address not in any memory region");
	return (uint64_t *)(void *)p;
}

static void cmd_mem(char **tok, int n)
{
	uint64_t addr, cnt, i, *w;

	if (n < 3)
		die("mem read|write ADDR ...");
	addr = num(tok[2]);
	if (!strcmp(tok[1], "read")) {
		cnt = n > 3 ? num(tok[3]) : 1;
		w = mem_words(addr, cnt);
		for (i = 0; i < cnt; i++)
			printf("%s0x%llx", i ? " " : "",
			       (unsigned long long)w[i]);
		printf("\n");
	} else if (!strcmp(tok[1], "write")) {
		w = mem_words(addr, (uint64_t)(n - 3));
		for (i = 3; i < (uint64_t)n; i++)
			w[i - 3] = num(tok[i]);
	} else {
		die("mem read|write");
	}
}

static void cmd_csr(char **tok, int n)
{
	int exists;
	uint64_t v;

	if (n >= 3 && !strcmp(tok[1], "read")) {
		v = sim_csr_read(hart(), (unsigned int)num(tok[2]), &exists);
		if (!exists)
			die("no such CSR");
		printf("0x%llx\n", (unsigned long long)v);
	} else if (n >= 4 && !strcmp(tok[1], "write")) {
		sim_csr_write(hart(), (unsigned int)num(tok[2]), num(tok[3]),
			      &exists);
		if (!exists)
			die("no such CSR");
	} else {
		die("csr read CSR | csr write CSR VALUE");
	}
}

static void cmd_tick(char **tok, int n)
{
	struct sim_hart *h = hart();

	if (n >= 3 && !strcmp(tok[1], "cycle"))
		sim_tick_fixed(h, 0, num(tok[2]));
	else if (n >= 3 && !strcmp(tok[1], "instret"))
		sim_tick_fixed(h, 2, num(tok[2]));
	else if (n >= 4 && !strcmp(tok[1], "hpm"))
		sim_tick_hpm(h, num(tok[2]), num(tok[3]));
	else if (n >= 4 && !strcmp(tok[1], "fw"))
		rvp_sbi_pmu_fw_event(&h->pmu, (uint32_t)num(tok[2]),
				     n > 4 ? num(tok[4]) : 0, num(tok[3]));
	else if (n >= 3 && !strcmp(tok[1], "branch"))
		sim_tick_branch(h, num(tok[2]));
	else
		die("tick cycle|instret N | hpm SEL N | fw CODE N [DATA] | "
		    "branch N");
}

static void cmd_ctr(char **tok, int n)
{
	struct sim_hart *h = hart();

	if (n < 2)
		die("ctr start|resume|entries");
	if (!strcmp(tok[1], "start"))
		rvp_sbi_ctr_hart_start(&sim_pmu_ops, h, &h->ctr);
	else if (!strcmp(tok[1], "resume"))
		rvp_sbi_ctr_hart_resume(&sim_pmu_ops, h, &h->ctr);
	else if (!strcmp(tok[1], "entries"))
		printf("%llu\n", (unsigned long long)h->csr.ctr_entries);
	else
		die("ctr start|resume|entries");
}

static void cmd_expect(char **tok, int n, const char *desc)
{
	char diag[256];
	const char *why;
	int exists, pass, i;
	uint64_t v, *w;

	diag[0] = 0;
	if (n < 2)
		die("expect what?");
	if (!strcmp(tok[1], "mem")) {
		if (n < 4)
			die("expect mem ADDR WORD...");
		w = mem_words(num(tok[2]), (uint64_t)(n - 3));
		pass = 1;
		for (i = 3; i < n; i++)
			if (w[i - 3] != num(tok[i])) {
				pass = 0;
				snprintf(diag, sizeof(diag),
					 "word %d: got 0x%llx", i - 3,
					 (unsigned long long)w[i - 3]);
				break;
			}
	} else if (!strcmp(tok[1], "csr")) {
		if (n < 4)
			die("expect csr CSR VALUE");
		v = sim_csr_read(hart(), (unsigned int)num(tok[2]), &exists);
		/* "missing": the CSR must not exist (an access would trap). */
		pass = !strcmp(tok[3], "missing") ? !exists :
		       exists && v == num(tok[3]);
		snprintf(diag, sizeof(diag), "got 0x%llx%s",
			 (unsigned long long)v, exists ? "" : " (no CSR)");
	} else if (!strcmp(tok[1], "unchanged")) {
		why = changed();
		pass = !why;
		if (why)
			snprintf(diag, sizeof(diag), "changed: %s", why);
	} else if (!strcmp(tok[1], "overflowed")) {
		if (n < 3)
			die("expect overflowed MASK");
		v = rvp_sbi_pmu_overflowed(&hart()->pmu);
		pass = v == num(tok[2]);
		snprintf(diag, sizeof(diag), "got 0x%llx",
			 (unsigned long long)v);
	} else if (!strcmp(tok[1], "maps")) {
		if (n < 3)
			die("expect maps N");
		v = hart()->nr_acc;
		pass = v == num(tok[2]);
		snprintf(diag, sizeof(diag), "got %llu",
			 (unsigned long long)v);
	} else if (!strcmp(tok[1], "csr_reads") ||
		   !strcmp(tok[1], "csr_writes")) {
		if (n < 4)
			die("expect csr_reads|csr_writes CSR N");
		i = (int)(num(tok[2]) & 0xFFF);
		v = tok[1][4] == 'r' ? hart()->csr_reads[i] :
				       hart()->csr_writes[i];
		pass = v == num(tok[3]);
		snprintf(diag, sizeof(diag), "got %llu",
			 (unsigned long long)v);
	} else if (!strcmp(tok[1], "of_starts")) {
		if (n < 3)
			die("expect of_starts MASK");
		v = hart()->csr.of_starts;
		pass = v == num(tok[2]);
		snprintf(diag, sizeof(diag), "got 0x%llx",
			 (unsigned long long)v);
	} else if (!strcmp(tok[1], "ctr_entries")) {
		if (n < 3)
			die("expect ctr_entries N");
		v = hart()->csr.ctr_entries;
		pass = v == num(tok[2]);
		snprintf(diag, sizeof(diag), "got %llu",
			 (unsigned long long)v);
	} else {
		long err = err_value(tok[1]);

		if (!have_last)
			die("expect before any ecall");
		pass = last.error == err;
		if (pass && n >= 3 && strcmp(tok[2], "*"))
			pass = last.value == num(tok[2]);
		snprintf(diag, sizeof(diag), "got %ld 0x%llx", last.error,
			 (unsigned long long)last.value);
	}
	result(pass, desc, diag);
}

/* The core must never have touched a missing CSR, nor memory outside
 * S-mode RAM (the ops refuse such accesses and count them). */
static void check_faults(void)
{
	unsigned int i, illegal = 0, bad = 0;
	int mapped = 0;
	char diag[128];

	for (i = 0; i < SIM_MAX_HARTS; i++) {
		illegal += S.hart[i].illegal_csr;
		bad += S.hart[i].bad_access;
		mapped += S.hart[i].mapped;
	}
	snprintf(diag, sizeof(diag), "%u missing-CSR accesses, %u accesses "
		 "outside S-mode RAM, %d maps not undone", illegal, bad,
		 mapped);
	result(!illegal && !bad && !mapped, "no missing CSR touched, no "
	       "memory outside S-mode RAM touched, every map undone", diag);
}

static void run(FILE *f)
{
	char line[1024], *tok[80], *desc, *p;
	int n;

	cur_line = 0;
	while (fgets(line, sizeof(line), f)) {
		cur_line++;
		desc = strstr(line, " -- ");
		if (desc) {
			*desc = 0;
			desc += 4;
			desc[strcspn(desc, "\r\n")] = 0;
		}
		p = strchr(line, '#');
		if (p)
			*p = 0;
		n = 0;
		for (p = strtok(line, " \t\r\n"); p && n < 80;
		     p = strtok(NULL, " \t\r\n"))
			tok[n++] = p;
		if (!n)
			continue;
		if (!desc)
			desc = tok[0];
		if (!strcmp(tok[0], "hart"))
			cmd_hart(tok, n);
		else if (!strcmp(tok[0], "on")) {
			if (n < 2 || num(tok[1]) >= SIM_MAX_HARTS)
				die("on ID");
			S.cur = (unsigned int)num(tok[1]);
			hart();
		} else if (!strcmp(tok[0], "dt"))
			cmd_dt(tok, n);
		else if (!strcmp(tok[0], "ecall"))
			cmd_ecall(tok, n);
		else if (!strcmp(tok[0], "mem"))
			cmd_mem(tok, n);
		else if (!strcmp(tok[0], "csr"))
			cmd_csr(tok, n);
		else if (!strcmp(tok[0], "tick"))
			cmd_tick(tok, n);
		else if (!strcmp(tok[0], "ctr"))
			cmd_ctr(tok, n);
		else if (!strcmp(tok[0], "snap"))
			take_snapshot();
		else if (!strcmp(tok[0], "expect"))
			cmd_expect(tok, n, desc);
		else
			die("unknown command");
	}
}

int main(int argc, char **argv)
{
	int i, first = 1;

	if (argc > 1 && !strcmp(argv[1], "--tap")) {
		tap = 1;
		first = 2;
	}
	if (first >= argc) {
		cur_file = "<stdin>";
		sim_init(&S);
		run(stdin);
		if (tap)
			check_faults();
		sim_free(&S);
	}
	for (i = first; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");

		cur_file = argv[i];
		if (!f) {
			perror(argv[i]);
			return 2;
		}
		sim_init(&S);
		snap.valid = 0;
		have_last = 0;
		run(f);
		fclose(f);
		cur_line = 0;
		if (tap)
			check_faults();
		sim_free(&S);
	}
	if (tap)
		printf("1..%u\n", tap_n);
	return tap_fail ? 1 : 0;
}
