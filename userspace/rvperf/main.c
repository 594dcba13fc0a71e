// SPDX-License-Identifier: BSD-2-Clause
/*
 * rvperf - the command people run.  git/perf style: `rvperf help`,
 * `rvperf <command> --help`.
 *
 * Every failure prints one line, "rvperf <command>: <reason>", and exits
 * non-zero: 1 for bad input data, 2 for a bad command line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "userspace/autofdo/afdo.h"
#include "nexus_cmd.h"
#include "userspace/perfdata/perf_data.h"
#include "record.h"
#include "report.h"
#include "script.h"
#include "tv_cmd.h"
#include "rvperf_config.h"

#define EXIT_BAD_DATA	1
#define EXIT_USAGE	2

struct command {
	const char *name;
	const char *summary;
	const char *usage;
	int (*run)(int argc, char **argv);
};

static const struct command *find_command(const char *name);

static int usage_error(const char *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "rvperf %s: ", cmd);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see 'rvperf %s --help')\n", cmd);
	return EXIT_USAGE;
}

static int wants_help(int argc, char **argv)
{
	return argc > 1 && (strcmp(argv[1], "--help") == 0 ||
			    strcmp(argv[1], "-h") == 0);
}

/* ---- rvperf config */

static int cmd_config(int argc, char **argv)
{
	if (argc > 1)
		return usage_error("config", "unexpected argument '%s'", argv[1]);
#ifdef CONFIG_CTR_LAYOUT_DRAFT
	puts("ctr-layout: draft-0.1.4");
#else
	puts("ctr-layout: ratified-1.0");
#endif
	printf("ctr-depth: %d\n", CONFIG_CTR_DEPTH);
	return 0;
}

/* ---- rvperf report */

static int cmd_report(int argc, char **argv)
{
	static const char *const default_input[] = { "perf.data" };
	struct report_options opt = { .top = 10 };
	const char **inputs;
	char *end;
	int i, rc, stdio = 0;

	/* -i FILE, as often as given: at most one per two arguments. */
	inputs = calloc((size_t)argc / 2 + 1, sizeof(*inputs));
	if (!inputs) {
		fprintf(stderr, "rvperf report: out of memory\n");
		return 1;
	}
	opt.inputs = inputs;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-i") == 0 && i + 1 < argc) {
			inputs[opt.nr_inputs++] = argv[++i];
		} else if (strcmp(argv[i], "--elf") == 0 && i + 1 < argc) {
			opt.elf = argv[++i];
		} else if (strcmp(argv[i], "--symfs") == 0 && i + 1 < argc) {
			opt.symfs = argv[++i];
		} else if (strcmp(argv[i], "--html") == 0 && i + 1 < argc) {
			opt.html = argv[++i];
		} else if (strcmp(argv[i], "--force") == 0) {
			opt.force = 1;
		} else if ((!strcmp(argv[i], "--sort") || !strcmp(argv[i], "-s")) &&
			   i + 1 < argc) {
			opt.sort = argv[++i];
		} else if (!strncmp(argv[i], "--sort=", 7)) {
			opt.sort = argv[i] + 7;
		} else if (!strcmp(argv[i], "--sort") || !strcmp(argv[i], "-s")) {
			free(inputs);
			return usage_error("report", "%s wants keys (comm, pid, "
					   "tid, tgid, dso, sym, srcline, ...)",
					   argv[i]);
		} else if (!strcmp(argv[i], "-n") ||
			   !strcmp(argv[i], "--show-nr-samples")) {
			opt.show_samples = 1;
		} else if (!strcmp(argv[i], "-g")) {
			opt.call_graph = 1;
		} else if (!strcmp(argv[i], "--stdio")) {
			stdio = 1;	/* text, which it is unless --html */
		} else if (!strcmp(argv[i], "--no-branch-stack")) {
			opt.no_branch_stack = 1;
		} else if (strcmp(argv[i], "--top") == 0 && i + 1 < argc) {
			/* strtoul takes "-3" as a huge number */
			opt.top = strtoul(argv[++i], &end, 10);
			if (*end || !opt.top || argv[i][0] == '-' ||
			    opt.top > 1000000) {
				free(inputs);
				return usage_error("report", "--top wants a positive number (at most 1000000), not '%s'",
						   argv[i]);
			}
		} else {
			free(inputs);
			return usage_error("report", "unexpected argument '%s'",
					   argv[i]);
		}
	}
	if (stdio && opt.html) {
		free(inputs);
		return usage_error("report", "%s", "--stdio and --html: one "
				   "or the other");
	}
	if (opt.call_graph && !opt.sort)	/* perf's default keys */
		opt.sort = "comm,dso,sym";
	if (opt.sort && opt.html) {
		free(inputs);
		return usage_error("report", "%s", "--sort is a table of text "
				   "(perf report --stdio's), not of the HTML page");
	}
	if (!opt.nr_inputs) {
		opt.inputs = default_input;
		opt.nr_inputs = 1;
	}
	rc = report_run(&opt);
	free(inputs);
	return rc;
}

/* ---- rvperf autofdo */

static int cmd_autofdo(int argc, char **argv)
{
	struct afdo_options opt = { .perf_data = "perf.data" };
	const char *inputs[256];
	struct afdo_stats st;
	char err[512];
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-i") == 0 && i + 1 < argc) {
			if (opt.nr_inputs == sizeof(inputs) / sizeof(inputs[0]))
				return usage_error("autofdo", "%s",
						   "at most 256 -i FILE");
			inputs[opt.nr_inputs++] = argv[++i];
			opt.inputs = inputs;
		}
		else if (strcmp(argv[i], "--elf") == 0 && i + 1 < argc)
			opt.elf = argv[++i];
		else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			opt.output = argv[++i];
		else if (strcmp(argv[i], "--dump") == 0)
			opt.dump = stdout;
		else if (strcmp(argv[i], "--force") == 0)
			opt.force = 1;
		else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc &&
			 (!strcmp(argv[i + 1], "gcc") || !strcmp(argv[i + 1], "llvm")))
			opt.llvm = !strcmp(argv[++i], "llvm");
		else if (strcmp(argv[i], "--format") == 0)
			return usage_error("autofdo", "%s", "--format is gcc or llvm");
		else
			return usage_error("autofdo", "unexpected argument '%s'",
					   argv[i]);
	}
	if (!opt.elf)
		return usage_error("autofdo", "%s", "--elf ELF is required");
	if (!opt.output && !opt.dump)
		return usage_error("autofdo", "%s", "give -o FILE, --dump or both");
	if (afdo_create(&opt, &st, err, sizeof(err))) {
		fprintf(stderr, "rvperf autofdo: %s\n", err);
		return EXIT_BAD_DATA;
	}
	if (st.warning[0])
		fprintf(stderr, "rvperf autofdo: warning: %s\n", st.warning);
	/* Samples, none of them in the binary's functions: most likely
	 * a recording of another program that carries no build ids. */
	if (!st.functions)
		fprintf(stderr, "rvperf autofdo: warning: no function of %s has "
			"a sample: the profile is empty (is it the recorded "
			"program?)\n", opt.elf);
	fprintf(stderr,
		"rvperf autofdo: %" PRIu64 " samples, %" PRIu64 " branches, %"
		PRIu64 " ranges (%" PRIu64 " dropped), %u functions%s%s\n",
		st.samples, st.branches, st.ranges, st.bad_ranges,
		st.functions, opt.output ? " -> " : "",
		opt.output ? opt.output : "");
	return 0;
}

/* ---- rvperf help */

static int cmd_help(int argc, char **argv);

static const struct command commands[] = {
	{ "help", "show the commands, or one command's usage",
	  "rvperf help [COMMAND]", cmd_help },
	{ "config", "show the build configuration (CTR layout, default depth)",
	  "rvperf config", cmd_config },
	{ "record", "run a riscv64 program under QEMU and record CTR branch stacks",
	  "rvperf record [-b | -j FILTER | -g] [-e EVENT] [-c PERIOD | -F FREQ]\n"
	  "              [-o FILE] [--depth N] [--layout ratified|draft] [--ctl VALUE]\n"
	  "              [--misp] [--qemu QEMU] [--plugin SO] [--whole-stacks]\n"
	  "              [--] PROG [ARGS]\n"
	  "  Runs PROG under qemu-riscv64 (or QEMU, or $RVPERF_QEMU) with the CTR\n"
	  "  plugin and writes FILE (default perf.data), as perf record -b would.\n"
	  "  perf record's options, with perf's meaning:\n"
	  "  -b, --branch-any        every taken branch (-j any; the default)\n"
	  "  -j, --branch-filter F   perf's -j words: any, any_call, any_ret, call,\n"
	  "                          ind_call, ind_jmp, cond, call_stack, u\n"
	  "  -g, --call-graph lbr    call chains from CTR's call stack (-j call_stack),\n"
	  "                          as perf builds them from LBR (perf report -g)\n"
	  "  -e, --event EVENT       instructions (default), cycles, branches,\n"
	  "                          branch-misses, taken-branches, calls, returns,\n"
	  "                          other-jumps; modifier :u only\n"
	  "  -c, --count PERIOD      events between samples (default 10007)\n"
	  "  -F, --freq FREQ         samples per second, an instruction taken for a\n"
	  "                          nanosecond (period 1000000000 / FREQ)\n"
	  "  -o, --output FILE       the recording (default perf.data)\n"
	  "  Refused, as user-mode QEMU runs one program and no kernel: -a, -C,\n"
	  "  -p, -t; --call-graph fp or dwarf.\n"
	  "  --ctl VALUE programs the CTR control register (mctrctl, or draft\n"
	  "  mctrcontrol) directly instead of -j.  --misp runs the branch-predictor\n"
	  "  model, so entries say mispredicted or predicted (M/P); without it they\n"
	  "  say neither (-).  The plugin sees only the blocks shortly before each\n"
	  "  sample (on QEMU 9.1 and later the others do not even call back), and\n"
	  "  about 1 sample in 1,000 keeps only its newest records; --whole-stacks\n"
	  "  sees every block: every stack whole, at a higher cost.",
	  rvperf_record },
	{ "script", "print the samples of a perf.data file with their branch stacks",
	  "rvperf script [-i FILE] [-F FIELD,...]\n"
	  "  Reads FILE (default perf.data), ours or one recorded by perf record.\n"
	  "  FIELDs, printed as perf 6.12's perf script -F prints them: comm, tid,\n"
	  "  pid, time, period, addr, ip, sym, symoff, dso, brstack, brstacksym\n"
	  "  (default comm,tid,ip,brstack).  A truncated file prints every\n"
	  "  complete sample, then fails.", rvperf_script },
	{ "report", "hottest branch edges, hot loops with trip counts, call edges",
	  "rvperf report [-i FILE]... [--elf ELF [--force]] [--symfs DIR] [--top N]\n"
	  "              [--html OUT | --stdio] [-s|--sort KEYS [-n] [-g] [--no-branch-stack]]\n"
	  "  perf report's options, with perf's meaning:\n"
	  "  -s, --sort KEYS         perf report --stdio's table instead of the\n"
	  "                          report: a row per value of KEYS (comm, pid,\n"
	  "                          tid, tgid, dso, sym, srcline; and on branch\n"
	  "                          stacks dso_from, dso_to, symbol_from,\n"
	  "                          symbol_to, srcline_from, srcline_to).  pid is\n"
	  "                          perf's: the task (TID:COMM); tgid is the\n"
	  "                          process.  On a recording with branch stacks\n"
	  "                          the rows count branch records (dso, sym and\n"
	  "                          srcline: the target's), as in perf\n"
	  "  -n, --show-nr-samples   the table's Samples column\n"
	  "  --no-branch-stack       rows of samples, on branch stacks too\n"
	  "  -g                      under each row its call chains (callee first),\n"
	  "                          from a recording made with -g (the call stack,\n"
	  "                          as perf from LBR) or with perf's call chains;\n"
	  "                          without --sort, the keys comm,dso,sym\n"
	  "  --stdio                 text (the default unless --html)\n"
	  "  Symbols come from the files the recording mapped (under DIR when\n"
	  "  given), or from ELF for the mappings whose build id is ELF's\n"
	  "  (--force: for every mapping).  --html writes one self-contained\n"
	  "  page with the hot paths as a graph.  Several -i: one report of all\n"
	  "  the recordings (a file mapped elsewhere in another is moved onto\n"
	  "  its first place).", cmd_report },
	{ "autofdo", "an AutoFDO profile for gcc or clang from branch stacks",
	  "rvperf autofdo [-i FILE]... --elf ELF [--force] [--format gcc|llvm] -o OUT.afdo [--dump]\n"
	  "       rvperf autofdo [-i FILE] --elf ELF [--force] [--format gcc|llvm] --dump\n"
	  "  ELF is the profiled binary, built with -g, whose build id the\n"
	  "  recording must have (--force: use it anyway); the recording's\n"
	  "  branch filter must be any (-b, -j any).  OUT.afdo is GCC's\n"
	  "  AutoFDO format (gcc -fauto-profile=OUT.afdo); --dump prints the\n"
	  "  profile as text: function:total:head, then line offsets and counts.\n"
	  "  --format llvm writes LLVM's text sample profile instead\n"
	  "  (clang -fprofile-sample-use=OUT.afdo), discriminators as LLVM keys them.\n"
	  "  Several -i: one profile of all the recordings, as if of one run.",
	  cmd_autofdo },
	{ "tv", "tandem-verification traces: dump, from-elf, diff, record, verify",
	  "rvperf tv dump|from-elf|diff|record|verify [ARGS]\n"
	  "  (rvperf tv SUBCOMMAND --help: that one's usage)", rvperf_tv },
	{ "nexus", "N-Trace: record, encode, decode, dump, stat, inject",
	  "rvperf nexus record|decode|encode|dump|stat|inject [ARGS]\n"
	  "  (rvperf nexus SUBCOMMAND --help: that one's usage)",
	  rvperf_nexus },
};

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static int cmd_help(int argc, char **argv)
{
	size_t i;

	if (argc > 1) {
		const struct command *c = find_command(argv[1]);

		if (!c)
			return usage_error("help", "no command '%s'", argv[1]);
		printf("usage: %s\n", c->usage);
		return 0;
	}
	puts("usage: rvperf COMMAND [ARGS]\n\ncommands:");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		printf("  %-8s %s\n", commands[i].name, commands[i].summary);
	puts("\n'rvperf COMMAND --help' shows a command's usage.");
	return 0;
}

int main(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2)
		return cmd_help(1, argv);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return cmd_help(1, argv);
	c = find_command(argv[1]);
	if (!c) {
		fprintf(stderr, "rvperf: '%s' is not a command (see 'rvperf help')\n",
			argv[1]);
		return EXIT_USAGE;
	}
	if (wants_help(argc - 1, argv + 1)) {
		printf("usage: %s\n", c->usage);
		return 0;
	}
	return c->run(argc - 1, argv + 1);
}
