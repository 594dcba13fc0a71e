// SPDX-License-Identifier: BSD-2-Clause
/*
 * ctr-perf-tool - branch stacks through the real perf tool on a hart with
 * CTR: `perf record -j any,u,save_type` and `perf script -F ip,brstack` on
 * e2e-known.S's code (this program runs it when called as "ctr-perf-tool
 * loop-for MS"; it is static and not position independent, so the
 * addresses are the same in both processes), checked entry by entry; then
 * `perf record --call-graph lbr` and the call chains perf script builds
 * from the RAS-emulated stacks.  Skips as a whole without CTR.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e-known.h"
#include "perf_util.h"
#include "tap.h"

#define PERF		"/bin/perf"
#define SELF		"/bin/ctr-perf-tool"
#define DATA		"/tmp/ctr-perf-tool.data"
#define SCRIPT		"/tmp/ctr-perf-tool.txt"
/*
 * The known code runs for a given time (guest time: instructions under
 * -icount shift=0, wall time without -icount, where the overflow interrupt
 * comes at host-time intervals and perf throttles the slow handler to a
 * few samples per tick), first RUN_FIRST_MS, then four times longer each
 * round, until a round's recording has SLED_WANT samples in the sled or
 * RUN_LIMIT_MS of runs were spent.
 */
#define RUN_FIRST_MS	50
#define RUN_LIMIT_MS	60000
#define SLED_WANT	8

static char output[1 << 14];
static char line[1 << 16];

static void show_output(void)
{
	char *l, *save = NULL;

	for (l = strtok_r(output, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		tap_diag("  | %s", l);
}

/* perf script's branch type name for an edge of the known code. */
static const char *kind_type(const struct edge *e)
{
	if (e->kind == 'b')
		return "COND";
	if (e->kind == 'r')
		return "RET";
	return e->from == A(kr_ind_call) ? "IND_CALL" : "CALL";
}

struct brstack_result {
	unsigned int samples, entries, kernel, foreign, bad_type;
	unsigned int sled, exact, prefix_bad;
};

/*
 * One sample line of `perf script -F ip,brstack`: the ip in hex, then
 * entries "0xFROM/0xTO/M|P|-/X|-/A|-/CYCLES/TYPE/..." newest first.
 */
static void check_brstack_line(char *text, const struct edge *hist,
			       unsigned int hist_len, struct brstack_result *r)
{
	char *tok, *save = NULL;
	uint64_t ip;
	unsigned int n = 0, matched = 0;
	int prefix_ok = 1;

	tok = strtok_r(text, " \t\n", &save);
	if (!tok)
		return;
	ip = strtoull(tok, NULL, 16);
	r->samples++;
	while ((tok = strtok_r(NULL, " \t\n", &save))) {
		uint64_t from, to;
		char type[32] = "";
		const struct edge *e;
		char *p;

		if (strncmp(tok, "0x", 2) || !strchr(tok, '/'))
			continue;
		from = strtoull(tok, &p, 16);
		if (*p != '/')
			continue;
		to = strtoull(p + 1, &p, 16);
		/* skip M/X/A/cycles: the type is the 7th field */
		for (int f = 0; f < 4 && p; f++)
			p = strchr(p + 1, '/');
		if (p)
			sscanf(p + 1, "%31[^/ ]", type);
		r->entries++;
		if ((int64_t)from < 0 || (int64_t)to < 0)
			r->kernel++;
		e = find_edge(from, to);
		if (in_known(from) && !e && !r->foreign++)
			tap_diag("first entry from the known code that is not one of its edges: %s",
				 tok);
		if (e && strcmp(type, kind_type(e)) && !r->bad_type++)
			tap_diag("first misnamed entry: %s (want %s)", tok, kind_type(e));
		if (n < hist_len && prefix_ok) {
			if (from == hist[n].from && to == hist[n].to)
				matched++;
			else
				prefix_ok = 0;
		}
		n++;
	}
	if (ip < A(kl_sled) || ip >= A(kl_sled_end))
		return;
	r->sled++;
	if (matched == hist_len)
		r->exact++;
	else if (matched < n && matched < hist_len)
		r->prefix_bad++;
}

static int record(char **argv)
{
	int status = perf_run(argv, output, sizeof(output));

	if (status)
		show_output();
	return status;
}

static FILE *script(char **argv)
{
	int status = perf_run_to(argv, SCRIPT, output, sizeof(output));

	if (status) {
		show_output();
		return NULL;
	}
	return fopen(SCRIPT, "r");
}

/* perf record ARGS... -o DATA SELF loop-for MS; 0 when it ran. */
static int record_for(const char *const *args, unsigned int ms)
{
	char *argv[24], msbuf[16];
	unsigned int n = 0;

	snprintf(msbuf, sizeof(msbuf), "%u", ms);
	argv[n++] = PERF;
	argv[n++] = "record";
	argv[n++] = "-q";
	while (*args)
		argv[n++] = (char *)*args++;
	argv[n++] = "-o";
	argv[n++] = DATA;
	argv[n++] = SELF;
	argv[n++] = "loop-for";
	argv[n++] = msbuf;
	argv[n] = NULL;
	return record(argv);
}

static void test_brstack(void)
{
	static const char *const rec[] = { "-e", "instructions:u", "-c", "2003",
					   "-j", "any,u,save_type", NULL };
	char *scr[] = { PERF, "script", "-F", "ip,brstack", "-i", DATA, NULL };
	struct brstack_result r = { 0 };
	struct edge hist[16];
	unsigned int hist_len = sled_history(hist);
	unsigned int ms, spent = 0;
	int ran = 1, read = 1;
	FILE *f;

	for (ms = RUN_FIRST_MS; ran && read && r.sled < SLED_WANT &&
	     spent < RUN_LIMIT_MS; spent += ms, ms *= 4) {
		ran = record_for(rec, ms) == 0;
		f = ran ? script(scr) : NULL;
		read = f != NULL;
		while (f && fgets(line, sizeof(line), f))
			check_brstack_line(line, hist, hist_len, &r);
		if (f)
			fclose(f);
	}
	if (!tap_ok(ran, "perf record -j any,u,save_type runs the known code"))
		return;
	if (!tap_ok(read, "perf script -F ip,brstack reads it"))
		return;
	tap_diag("perf script: %u samples, %u entries, %u in the sled, %u exact (runs of %u ms in all)",
		 r.samples, r.entries, r.sled, r.exact, spent);
	tap_ok(r.samples > 0 && r.entries > 0, "perf script shows branch stacks");
	tap_ok(r.kernel == 0, "-j any,u: no kernel address in perf script (%u)", r.kernel);
	tap_ok(r.foreign == 0, "every entry from the known code is one of its edges (%u are not)",
	       r.foreign);
	tap_ok(r.bad_type == 0, "save_type: calls, returns and branches are named CALL/IND_CALL, RET, COND (%u are not)",
	       r.bad_type);
	tap_ok(r.sled >= SLED_WANT && r.prefix_bad == 0 && r.exact > 0,
	       "samples in the sled show known_run's %u transfers, newest first (%u of %u exact, %u wrong; %u wanted)",
	       hist_len, r.exact, r.sled, r.prefix_bad, SLED_WANT);
}

/*
 * `perf script -F ip` with call chains prints a sample as its lines of
 * addresses, samples separated by a blank line.  For a sample in depth3's
 * sled the chain built from the LBR call stack must hold the four call
 * sites, innermost first.
 */
struct chain_result {
	unsigned int samples, in_depth3, exact, shown;
};

/* The samples of one call-graph recording, as perf script -F ip prints them. */
static void check_chains(FILE *f, struct chain_result *r)
{
	const uint64_t sites[4] = { A(kr_call_depth3), A(kr_call_depth2),
				    A(kr_call_depth1), A(kl_call_run) };
	uint64_t chain[64];
	unsigned int n = 0;
	int more = 1;

	while (more) {
		char *p;

		more = fgets(line, sizeof(line), f) != NULL;
		p = more ? line + strspn(line, " \t") : line;
		if (more && *p && *p != '\n') {
			if (n < 64)
				chain[n++] = strtoull(p, NULL, 16);
			continue;
		}
		if (!n)
			continue;
		r->samples++;
		if (chain[0] >= A(kr_depth3_sled) && chain[0] < A(kr_depth3_ret)) {
			unsigned int i, s = 0;

			r->in_depth3++;
			for (i = 1; i < n && s < 4; i++)
				if (chain[i] == sites[s])
					s++;
			if (s == 4)
				r->exact++;
			else if (r->shown++ < 2)
				for (i = 0; i < n; i++)
					tap_diag("  chain[%u] %#" PRIx64, i, chain[i]);
		}
		n = 0;
	}
}

static void test_call_graph_lbr(void)
{
	static const char *const rec[] = { "-e", "instructions:u", "-c", "2003",
					   "--call-graph", "lbr", NULL };
	char *scr[] = { PERF, "script", "-F", "ip", "-i", DATA, NULL };
	struct chain_result r = { 0 };
	unsigned int ms, spent = 0;
	int ran = 1, read = 1;
	FILE *f;

	for (ms = RUN_FIRST_MS; ran && read && r.in_depth3 < SLED_WANT &&
	     spent < RUN_LIMIT_MS; spent += ms, ms *= 4) {
		ran = record_for(rec, ms) == 0;
		f = ran ? script(scr) : NULL;
		read = f != NULL;
		if (f) {
			check_chains(f, &r);
			fclose(f);
		}
	}
	if (!tap_ok(ran, "perf record --call-graph lbr runs the known code"))
		return;
	if (!tap_ok(read, "perf script reads the call-graph recording"))
		return;
	tap_diag("call graph: %u samples, %u in depth3, %u with the four call sites (runs of %u ms in all)",
		 r.samples, r.in_depth3, r.exact, spent);
	tap_ok(r.in_depth3 >= SLED_WANT && r.exact == r.in_depth3,
	       "--call-graph lbr: in depth3 the chain holds depth3, depth2, depth1 and known_run's call sites in order (%u of %u; %u wanted)",
	       r.exact, r.in_depth3, SLED_WANT);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "loop-for")) {
		double t0 = perf_now_s(), ms = strtod(argv[2], NULL);

		do
			known_loop(1000);
		while ((perf_now_s() - t0) * 1000 < ms);
		return 0;
	}
	if (!perf_hart_has_ctr()) {
		printf("1..0 # SKIP the hart has no Smctr/Ssctr (device tree)\n");
		return 0;
	}
	known_edges();
	test_brstack();
	test_call_graph_lbr();
	unlink(DATA);
	unlink(SCRIPT);
	return tap_done();
}
