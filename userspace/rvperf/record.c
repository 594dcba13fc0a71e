// SPDX-License-Identifier: BSD-2-Clause
/*
 * record.c - `rvperf record`: runs a riscv64 Linux program under
 * qemu-riscv64 with the CTR plugin (qemu-model/plugin/) and writes the
 * perf.data that `perf record -b` would have written on hardware with CTR:
 * COMM and MMAP2 (with the build id) for the program, the loader and every
 * library, then the samples with IP, TID, TIME, PERIOD and the branch
 * stack.  The plugin writes the samples, mappings and forks into the file
 * itself (perf=, ctr_branch.h's mapping); this writes the header and the
 * attribute before them, the program's COMM and MMAP2 records just before
 * them, the build ids into the plugin's MMAP2 records, forked children's
 * records after them, and the feature sections at the end, from what the
 * plugin's trace (rvp_trace.h) says of each process.
 */
#include "record.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "userspace/perfdata/ctr_branch.h"
#include "userspace/elf/elf_syms.h"
#include "userspace/perfdata/perf_records.h"
#include "qemu-model/plugin/filter.h"
#include "qemu-model/plugin/rvp_trace.h"
#include "rvperf/ctr.h"

#define EXIT_BAD_DATA	1
#define EXIT_USAGE	2
/* Where in the recording the plugin's records start: the file's header
 * and attribute before, then the program's COMM and MMAP2 records, written
 * once the program ran, just before this. */
#define PERF_DATA_AT	(64 << 10)

unsigned int ctr_cycles(uint64_t data)
{
	return ctr_branch_cycles(data);
}

void ctr_to_branch(uint64_t source, uint64_t target, uint64_t data,
		   int has_misp, unsigned int priv, struct pd_branch *out)
{
	uint64_t table[2][16];

	ctr_branch_flag_table(table, has_misp, priv);
	ctr_branch_entry((const uint64_t (*)[16])table, source, target, data,
			 out);
}

/* ---- the command line */

struct record_options {
	const char *output;
	const char *event;
	const char *filter;
	const char *qemu;
	const char *plugin;
	const char *layout;
	const char *ctl_arg;	/* --ctl: a raw control value instead of -j */
	uint64_t ctl;
	uint64_t period;
	unsigned int depth;
	int misp;		/* --misp: run the predictor model */
	int whole;		/* --whole-stacks: the plugin's gate=off */
	int call_graph;		/* -g, --call-graph lbr */
	const char *branch_given;	/* -b or -j, as given */
	int count_given;	/* -c */
	uint64_t freq;		/* -F */
	char **prog_argv;
};

struct event_name {
	const char *perf, *model;
	uint32_t type;
	uint64_t config;
};

/* perf's names for the generic events the counter model has, and the
 * model's own (as raw events: config is the mhpmevent encoding). */
static const struct event_name events[] = {
	{ "instructions", "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "branches", "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", "mispredicted-branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "taken-branches", "taken-branches", PERF_TYPE_RAW, 0x04 },
	{ "calls", "calls", PERF_TYPE_RAW, 0x06 },
	{ "returns", "returns", PERF_TYPE_RAW, 0x07 },
	{ "other-jumps", "other-jumps", PERF_TYPE_RAW, 0x08 },
};

struct branch_word {
	const char *name;
	uint64_t bit;
};

static const struct branch_word branch_words[] = {
	{ "u", PERF_SAMPLE_BRANCH_USER }, { "k", PERF_SAMPLE_BRANCH_KERNEL },
	{ "hv", PERF_SAMPLE_BRANCH_HV }, { "any", PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
	{ "cond", PERF_SAMPLE_BRANCH_COND },
	{ "call_stack", PERF_SAMPLE_BRANCH_CALL_STACK },
	{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "call", PERF_SAMPLE_BRANCH_CALL },
	{ "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
	{ "hw_index", PERF_SAMPLE_BRANCH_HW_INDEX },
	{ "priv", PERF_SAMPLE_BRANCH_PRIV_SAVE },
};

static int fail(const char *fmt, const char *arg)
{
	fprintf(stderr, "rvperf record: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return EXIT_BAD_DATA;
}

static int usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "rvperf record: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see 'rvperf record --help')\n");
	return EXIT_USAGE;
}

/* The perf branch_sample_type the filter words stand for (the plugin
 * checks the words themselves). */
static uint64_t branch_sample_type(const char *filter)
{
	uint64_t bits = PERF_SAMPLE_BRANCH_TYPE_SAVE | PERF_SAMPLE_BRANCH_PRIV_SAVE;
	const char *p = filter;

	while (*p) {
		size_t len = strcspn(p, ",");

		for (size_t i = 0; i < sizeof(branch_words) / sizeof(branch_words[0]); i++)
			if (strlen(branch_words[i].name) == len &&
			    !strncmp(p, branch_words[i].name, len))
				bits |= branch_words[i].bit;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!(bits & (PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |
		      PERF_SAMPLE_BRANCH_HV)))
		bits |= PERF_SAMPLE_BRANCH_USER;
	return bits;
}

void rvperf_temp_template(char *buf, size_t size, const char *name)
{
	const char *dir = getenv("TMPDIR");

	if (!dir || !*dir || strchr(dir, ','))
		dir = "/tmp";
	snprintf(buf, size, "%s/%s-XXXXXX", dir, name);
}

const char *rvperf_plugin_path(const char *env_var, const char *name,
			       char *buf, size_t size)
{
	const char *env = getenv(env_var);
	char exe[PATH_MAX - 64];
	ssize_t n;
	char *slash;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	snprintf(buf, size, "%s/../qemu-model/%s", exe, name);
	return buf;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end || *s == '-';
}

/*
 * perf record's options that cannot apply under qemu-user, refused with
 * the reason before anything runs (whether or not a value follows).
 */
static const struct {
	const char *names[3];
	const char *why;
} refused[] = {
	{ { "-p", "--pid" }, "user-mode QEMU cannot attach to a running process: "
	  "rvperf record runs the program it is given (-- PROG [ARGS])" },
	{ { "-t", "--tid" }, "user-mode QEMU cannot attach to a running thread: "
	  "rvperf record runs the program it is given (-- PROG [ARGS])" },
	{ { "-a", "--all-cpus" }, "system-wide recording needs a kernel, and "
	  "user-mode QEMU runs one program (on a CTR hart: perf record -a -b)" },
	{ { "-C", "--cpu" }, "CPUs are a kernel's to choose, and user-mode QEMU "
	  "runs one program (on a CTR hart: perf record -C)" },
};

/* perf record -F N: instructions between samples, taking an instruction
 * for a nanosecond, as the recording's time stamps do. */
static uint64_t freq_to_period(uint64_t freq)
{
	return freq >= 1000000000 ? 1 : 1000000000 / freq;
}

static int parse_options(int argc, char **argv, struct record_options *o)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val, *eq = NULL;
		char name[64];
		uint64_t v;
		size_t k;

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1])
			break;
		for (k = 0; k < sizeof(refused) / sizeof(refused[0]); k++) {
			size_t len = strlen(refused[k].names[1]);

			if (!strcmp(a, refused[k].names[0]) ||
			    (!strncmp(a, refused[k].names[1], len) &&
			     (!a[len] || a[len] == '='))) {
				fprintf(stderr, "rvperf record: %s: %s\n", a,
					refused[k].why);
				return EXIT_USAGE;
			}
		}
		if (!strcmp(a, "--misp")) {
			o->misp = 1;
			continue;
		}
		if (!strcmp(a, "--whole-stacks")) {
			o->whole = 1;
			continue;
		}
		/* perf's -b: every taken branch, -j any */
		if (!strcmp(a, "-b") || !strcmp(a, "--branch-any")) {
			o->branch_given = a;
			o->filter = "any";
			continue;
		}
		/* -g is perf's --call-graph with its default mode; here the
		 * only mode there is, lbr (CTR's call stack). */
		if (!strcmp(a, "-g")) {
			o->call_graph = 1;
			continue;
		}
		/* --long=VALUE as well as --long VALUE, as perf takes them */
		if (a[1] == '-' && (eq = strchr(a, '=')) &&
		    (size_t)(eq - a) < sizeof(name)) {
			snprintf(name, sizeof(name), "%.*s", (int)(eq - a), a);
			a = name;
			val = eq + 1;
		} else {
			val = i + 1 < argc ? argv[i + 1] : NULL;
		}
		if (strcmp(a, "-o") && strcmp(a, "--output") &&
		    strcmp(a, "-e") && strcmp(a, "--event") &&
		    strcmp(a, "-j") && strcmp(a, "--branch-filter") &&
		    strcmp(a, "-c") && strcmp(a, "--count") &&
		    strcmp(a, "-F") && strcmp(a, "--freq") &&
		    strcmp(a, "--call-graph") && strcmp(a, "--depth") &&
		    strcmp(a, "--layout") && strcmp(a, "--ctl") &&
		    strcmp(a, "--qemu") && strcmp(a, "--plugin"))
			return usage("unknown option '%s'", a);
		if (!val)
			return usage("option '%s' needs a value", a);
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			o->output = val;
		} else if (!strcmp(a, "-e") || !strcmp(a, "--event")) {
			o->event = val;
		} else if (!strcmp(a, "-j") || !strcmp(a, "--branch-filter")) {
			o->branch_given = a;
			o->filter = val;
		} else if (!strcmp(a, "-c") || !strcmp(a, "--count")) {
			if (parse_u64(val, &v) || !v || v >> 47)
				return usage("bad period '%s'", val);
			o->period = v;
			o->count_given = 1;
		} else if (!strcmp(a, "-F") || !strcmp(a, "--freq")) {
			if (parse_u64(val, &v) || !v || v > 1000000000)
				return usage("-F wants samples per second, 1 to "
					     "1000000000 (an instruction taken "
					     "for a nanosecond), not '%s'", val);
			o->freq = v;
		} else if (!strcmp(a, "--call-graph")) {
			if (strcmp(val, "lbr"))
				return usage("--call-graph %s: call chains come "
					     "from CTR's call stack only, as perf's "
					     "from LBR: --call-graph lbr (or -g); "
					     "user-mode QEMU has no kernel to walk "
					     "frame pointers or copy stacks", val);
			o->call_graph = 1;
		} else if (!strcmp(a, "--depth")) {
			if (parse_u64(val, &v) || v < 16 || v > 256 || (v & (v - 1)))
				return usage("depth '%s' is not 16, 32, 64, 128 or 256", val);
			o->depth = v;
		} else if (!strcmp(a, "--layout")) {
			if (strcmp(val, "ratified") && strcmp(val, "draft"))
				return usage("layout '%s' is not ratified or draft", val);
			o->layout = val;
		} else if (!strcmp(a, "--ctl")) {
			if (parse_u64(val, &v))
				return usage("bad control value '%s'", val);
			o->ctl_arg = val;
			o->ctl = v;
		} else if (!strcmp(a, "--qemu")) {
			o->qemu = val;
		} else if (!strcmp(a, "--plugin")) {
			o->plugin = val;
		}
		if (!eq)
			i++;
	}
	if (o->freq && o->count_given)
		return usage("-c and -F both given%s: a period or a frequency, "
			     "not both", "");
	if (o->call_graph && (o->branch_given || o->ctl_arg))
		return usage("-g records CTR's call stack (-j call_stack) in the "
			     "branch stack: it cannot go with %s", o->ctl_arg ?
			     "--ctl" : o->branch_given);
	if (o->call_graph)
		o->filter = "call_stack,u";
	if (o->freq)
		o->period = freq_to_period(o->freq);
	if (i >= argc)
		return usage("no program to run%s", "");
	o->prog_argv = argv + i;
	return 0;
}

/* ---- checks before anything runs */

/* The QEMU to run, as execvp would find it: 0, or -1 after one line. */
static int check_qemu(const char *qemu, int given)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(qemu, '/')) {
		if (access(qemu, X_OK) == 0)
			return 0;
		fprintf(stderr, "rvperf record: %s%s: %s\n",
			given ? "--qemu " : "", qemu, strerror(errno));
		return -1;
	}
	while (path && *path) {
		size_t len = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, path, qemu);
		if (len && access(buf, X_OK) == 0)
			return 0;
		path += len + (path[len] == ':');
	}
	fprintf(stderr, "rvperf record: %s%s: not found in PATH%s\n",
		given ? "--qemu " : "", qemu,
		given ? "" : " (install qemu-user, or pass --qemu)");
	return -1;
}

/* Whether the output can be written where it is to go, so that a typo
 * costs nothing instead of the whole run: 0, or -1 after one line. */
static int check_output(const char *output)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(output, '/');
	struct stat st;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s",
			 slash == output ? 1 : (int)(slash - output), output);
	if (stat(dir, &st)) {
		fprintf(stderr, "rvperf record: -o %s: %s: %s\n", output, dir,
			strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK)) {
		fprintf(stderr, "rvperf record: -o %s: %s: %s\n", output, dir,
			S_ISDIR(st.st_mode) ? strerror(errno) :
			"not a directory");
		return -1;
	}
	if (stat(output, &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "rvperf record: -o %s: a directory\n", output);
		return -1;
	}
	return 0;
}

/* Whether the recording can be renamed into OUTPUT at the end: OUTPUT is
 * absent or a regular file.  Anything else (a device such as /dev/null, a
 * FIFO, a symlink) gets the finished recording copied into it, as a file
 * opened for writing would, and is never replaced. */
static int output_renamable(const char *output)
{
	struct stat st;

	return lstat(output, &st) ? errno == ENOENT : S_ISREG(st.st_mode);
}

/* LEN bytes of IN from its start (UINT64_MAX: all it has) to OUT at OFF
 * (UINT64_MAX: where OUT stands, which a FIFO allows). */
static int copy_bytes(int in, int out, uint64_t len, uint64_t off)
{
	char *buf = malloc(1 << 16);
	uint64_t done = 0;
	ssize_t n = 0;
	int rc;

	while (buf && done < len) {
		n = pread(in, buf, len - done < (1 << 16) ? (size_t)(len - done) :
			  1 << 16, (off_t)done);
		if (n <= 0 || (off == UINT64_MAX ? write(out, buf, (size_t)n) :
			       pwrite(out, buf, (size_t)n, (off_t)(off + done))) != n)
			break;
		done += (uint64_t)n;
	}
	rc = buf && (done == len || (len == UINT64_MAX && n == 0)) ? 0 : -1;
	free(buf);
	return rc;
}

static int copy_into(const char *from, const char *to)
{
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, rc = -1;

	if (in >= 0)
		out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (out >= 0) {
		rc = copy_bytes(in, out, UINT64_MAX, UINT64_MAX);
		if (close(out))
			rc = -1;
	}
	if (in >= 0)
		close(in);
	return rc;
}

/* ---- running QEMU */

/* A dynamically linked program runs with Debian's riscv64 libraries
 * (qemu-riscv64 -L), where they are installed. */
static const char *ld_prefix(const struct elf_syms *es)
{
	static const char prefix[] = "/usr/riscv64-linux-gnu";

	return es->interp && access(prefix, F_OK) == 0 ? prefix : NULL;
}

/* The program's PT_INTERP. */
static int interp_path(const char *prog, char *buf, size_t size)
{
	Elf *e;
	size_t i, n;
	int fd = open(prog, O_RDONLY), ok = 0;

	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && elf_getphdrnum(e, &n) == 0) {
		for (i = 0; i < n && !ok; i++) {
			GElf_Phdr ph;
			Elf_Data *d;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_INTERP)
				continue;
			d = elf_getdata_rawchunk(e, ph.p_offset, ph.p_filesz,
						 ELF_T_BYTE);
			if (d && d->d_size && d->d_size < size) {
				memcpy(buf, d->d_buf, d->d_size);
				buf[d->d_size] = '\0';
				ok = buf[0] == '/';
			}
		}
	}
	elf_end(e);
	close(fd);
	return ok;
}

/* perf record's habit: an interrupt (^C, which the terminal sends QEMU
 * too) or a request to terminate stops the program, and what was recorded
 * until then is still converted.  The signal is passed on to QEMU, as
 * perf passes one to its workload, so that a kill of rvperf alone stops
 * the program too. */
static volatile sig_atomic_t record_stop;

static void record_on_signal(int sig)
{
	record_stop = sig;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* SRC as a QEMU option value: QEMU splits -plugin's at commas, and reads
 * ",," as one. */
static void escape_commas(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	for (; *src && n + 2 < size; src++) {
		if (*src == ',')
			dst[n++] = ',';
		dst[n++] = *src;
	}
	dst[n] = '\0';
}

static int run_qemu(const struct record_options *o, const struct elf_syms *es,
		    const char *model_event, const char *trace_path,
		    const char *data_path, uint64_t bst, int *status)
{
	struct sigaction sa = { .sa_handler = record_on_signal }, old_int,
			 old_term;
	int passed = 0, err;
	pid_t got;
	char plugin_arg[6 * PATH_MAX + 1024];
	char data_arg[2 * PATH_MAX], comm_arg[2 * PATH_MAX];
	char *args[64 + 256];
	int n = 0, i;
	pid_t pid;

	escape_commas(data_arg, sizeof(data_arg), data_path);
	escape_commas(comm_arg, sizeof(comm_arg), base_name(o->prog_argv[0]));
	snprintf(plugin_arg, sizeof(plugin_arg),
		 "%s,out=%s,ctl=0x%" PRIx64 ",event=%s,period=%" PRIu64
		 ",depth=%u,layout=%s%s%s,perf=%s,perf_at=%u,perf_bst=%" PRIu64
		 ",comm=%s", o->plugin, trace_path, o->ctl, model_event,
		 o->period, o->depth, o->layout, o->misp ? ",misp=on" : "",
		 o->whole ? ",gate=off" : "", data_arg, PERF_DATA_AT, bst,
		 comm_arg);
	args[n++] = (char *)o->qemu;
	if (ld_prefix(es)) {
		args[n++] = "-L";
		args[n++] = (char *)ld_prefix(es);
	}
	args[n++] = "-plugin";
	args[n++] = plugin_arg;
	for (i = 0; o->prog_argv[i] && n < (int)(sizeof(args) / sizeof(args[0])) - 1; i++)
		args[n++] = o->prog_argv[i];
	args[n] = NULL;

	/* Caught, not ignored: exec gives QEMU the default actions back. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	pid = fork();
	if (pid < 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		return fail("cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		execvp(o->qemu, args);
		fprintf(stderr, "rvperf record: cannot run %s: %s\n", o->qemu,
			strerror(errno));
		_exit(127);
	}
	while ((got = waitpid(pid, status, 0)) < 0 && errno == EINTR) {
		if (record_stop && !passed) {
			kill(pid, record_stop);
			passed = 1;
		}
	}
	err = errno;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (got < 0)
		return fail("waitpid: %s", strerror(err));
	return 0;
}

/* ---- trace to perf.data */

/*
 * One thread's records in its process's trace (the plugin writes one
 * file per process, its threads' records interleaved as they were
 * written), read one record ahead so that all threads' records can be
 * merged by time.  Each thread's time is its own instruction count, going
 * on from its creator's at the clone.  The trace is read mapped; the
 * plugin writes 64-bit words only, so every record and payload in the map
 * is aligned.
 */
struct trace_stream {
	const unsigned char *map;
	size_t size, off;
	char path[PATH_MAX + 32];
	uint64_t tid;			/* the thread whose records these are */
	int main;			/* the process's first thread: its
					 * totals, its end */
	struct rvp_trace_header h;
	struct rvp_trace_record r;	/* the next record, when have */
	const uint64_t *payload;	/* its entries or its event's words */
	int have, ended, exec_last;
	struct rvp_trace_totals t;	/* END's, or the last EXEC's */
};

#define MAX_EVENT_WORDS	1024	/* a path of 4096 bytes and its struct */

/* The next SIZE bytes of the trace, or NULL where it ends first. */
static const void *stream_take(struct trace_stream *st, size_t size)
{
	const void *p = st->map + st->off;

	if (size > st->size - st->off)
		return NULL;
	st->off += size;
	return p;
}

static int stream_copy(struct trace_stream *st, void *buf, size_t size)
{
	const void *p = stream_take(st, size);

	if (!p)
		return -1;
	memcpy(buf, p, size);
	return 0;
}

static void stream_next(struct trace_stream *st)
{
	size_t words;

	st->have = 0;
again:
	if (stream_copy(st, &st->r, sizeof(st->r)))
		return;
	if (st->r.kind == RVP_TRACE_END) {
		st->ended = stream_copy(st, &st->t, sizeof(st->t)) == 0;
		st->exec_last = 0;
		return;
	}
	if (st->r.kind == RVP_TRACE_MMAP || st->r.kind == RVP_TRACE_FORK ||
		   st->r.kind == RVP_TRACE_EXEC) {
		if (st->r.nr > MAX_EVENT_WORDS)
			return;
		words = st->r.nr;
	} else {
		return;		/* damaged: the trace ends here */
	}
	st->payload = stream_take(st, words * 8);
	if (!st->payload)
		return;
	if (st->r.tid != st->tid)	/* another thread's */
		goto again;
	if (st->r.kind == RVP_TRACE_EXEC &&
	    words * 8 >= sizeof(struct rvp_trace_totals))
		memcpy(&st->t, st->payload, sizeof(st->t));
	st->exec_last = st->r.kind == RVP_TRACE_EXEC;
	st->have = 1;
}

/* The records of thread tid in the trace at path (0: the process's first
 * thread, whose tid is its pid). */
static void stream_close(struct trace_stream *st)
{
	if (st->map)
		munmap((void *)st->map, st->size);
	st->map = NULL;
}

static int stream_open(struct trace_stream *st, const char *path, uint64_t tid)
{
	struct stat sb;
	void *map;
	int fd;

	memset(st, 0, sizeof(*st));
	snprintf(st->path, sizeof(st->path), "%s", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) || sb.st_size < (off_t)sizeof(st->h)) {
		close(fd);
		return -1;
	}
	map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	madvise(map, (size_t)sb.st_size, MADV_SEQUENTIAL);
	st->map = map;
	st->size = (size_t)sb.st_size;
	if (stream_copy(st, &st->h, sizeof(st->h)) ||
	    st->h.magic != RVP_TRACE_MAGIC) {
		stream_close(st);
		return -1;
	}
	st->main = !tid || tid == st->h.pid;
	st->tid = tid ? tid : st->h.pid;
	stream_next(st);
	return 0;
}

/* Build ids of the mapped files, each read once. */
struct mapped_file {
	char *path;
	unsigned char build_id[20];
	unsigned int build_id_size;
};

struct mapped_files {
	struct mapped_file *v;
	size_t n;
};

static const struct mapped_file *mapped_file(struct mapped_files *mf,
					     const char *path)
{
	struct mapped_file *f;
	struct elf_syms es = { 0 };
	size_t i;

	for (i = 0; i < mf->n; i++)
		if (!strcmp(mf->v[i].path, path))
			return &mf->v[i];
	f = realloc(mf->v, (mf->n + 1) * sizeof(*f));
	if (!f)
		return NULL;
	mf->v = f;
	f += mf->n;
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return NULL;
	if (elf_syms_load_headers(&es, path) == 0) {
		memcpy(f->build_id, es.build_id, es.build_id_size);
		f->build_id_size = es.build_id_size;
	}
	elf_syms_free(&es);
	mf->n++;
	return f;
}

/* MMAP2 for the executable segments of an ELF file loaded with bias, as
 * the kernel reports the mappings of its PT_LOADs (page-aligned). */
static int write_elf_mmaps(struct pd_writer *w, uint32_t pid,
			   const struct elf_syms *es, uint64_t bias,
			   const char *path)
{
	int rc = 0;
	size_t i;

	for (i = 0; i < es->nr_segments; i++) {
		const struct elf_segment *s = &es->segments[i];
		uint64_t start = (s->vaddr + bias) & ~0xfffULL;

		if (!(s->flags & ELF_PF_X))
			continue;
		rc |= pd_write_mmap2(w, pid, pid, start,
				     s->vaddr + bias + s->memsz - start,
				     s->offset & ~0xfffULL, path, es->build_id,
				     es->build_id_size, 0);
	}
	return rc;
}

/* Where the program and its dynamic loader went.  QEMU's start_code is
 * the lowest executable address of the program itself (its entry_code is
 * the loader's, for a dynamically linked one). */
static int write_program_mmaps(struct pd_writer *w, uint32_t pid,
			       const struct elf_syms *es, const char *prog,
			       const struct rvp_trace_header *h)
{
	uint64_t lo = UINT64_MAX, bias = 0;
	struct elf_syms ld = { 0 };
	char interp[PATH_MAX], ld_path[PATH_MAX + 64];
	const char *prefix = ld_prefix(es);
	int rc = 0;
	size_t i;

	for (i = 0; i < es->nr_segments; i++)
		if ((es->segments[i].flags & ELF_PF_X) &&
		    es->segments[i].vaddr < lo)
			lo = es->segments[i].vaddr;
	if (es->pie && h->start_code && lo != UINT64_MAX)
		bias = h->start_code - lo;
	else if (es->pie && h->entry_code && !es->interp)
		bias = h->entry_code - es->entry;
	rc |= write_elf_mmaps(w, pid, es, bias, prog);
	if (!es->interp || !h->entry_code || !interp_path(prog, interp,
							  sizeof(interp)))
		return rc;
	/* qemu-user looks the loader up under -L first, as it does every
	 * path the program opens. */
	snprintf(ld_path, sizeof(ld_path), "%s%s", prefix ? prefix : "", interp);
	if (!prefix || access(ld_path, F_OK))
		snprintf(ld_path, sizeof(ld_path), "%s", interp);
	if (!realpath(ld_path, interp) || elf_syms_load_headers(&ld, interp)) {
		fprintf(stderr, "rvperf record: warning: the dynamic loader "
			"%s is not readable: its code stays unnamed\n", ld_path);
		elf_syms_free(&ld);
		return rc;
	}
	rc |= write_elf_mmaps(w, pid, &ld, h->entry_code - ld.entry, interp);
	elf_syms_free(&ld);
	return rc;
}

/* Deletes the files of forked children, PATH.PID (their traces, and their
 * perf records that did not make it into the recording). */
static void remove_child_files(const char *trace_path)
{
	const char *slash = strrchr(trace_path, '/');
	char dir[PATH_MAX], path[PATH_MAX + 300];
	const char *base = slash ? slash + 1 : trace_path;
	size_t len = strlen(base);
	struct dirent *d;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - trace_path) : 1,
		 slash ? trace_path : ".");
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp)))
		if (!strncmp(d->d_name, base, len) && d->d_name[len] == '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
			unlink(path);
		}
	closedir(dp);
}

/* The perf file of a process: the recording itself for the first, and
 * RECORDING.PID for a forked child, which the plugin's child writes. */
struct perf_file {
	uint64_t pid;
	int fd;
	int cut;		/* its trace ends early: the last record may be
				 * a part */
	char path[PATH_MAX + 96];
};

struct perf_files {
	struct perf_file *v;
	size_t n;
};

static struct perf_file *perf_file(struct perf_files *pf, uint64_t pid)
{
	for (size_t i = 0; i < pf->n; i++)
		if (pf->v[i].pid == pid)
			return &pf->v[i];
	return NULL;
}

static struct perf_file *add_perf_file(struct perf_files *pf, uint64_t pid,
				       const char *path)
{
	struct perf_file *f = realloc(pf->v, (pf->n + 1) * sizeof(*f));

	if (!f)
		return NULL;
	pf->v = f;
	f += pf->n;
	memset(f, 0, sizeof(*f));
	f->pid = pid;
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->fd = open(path, O_RDWR | O_CLOEXEC);
	if (f->fd < 0)
		return NULL;
	pf->n++;
	return f;
}

/* The plugin's MMAP2 record at OFF names the file by device and inode:
 * with a build id it names it as perf record's do. */
static int patch_build_id(int fd, uint64_t off, const struct mapped_file *mf)
{
	uint16_t misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID;
	unsigned char ident[24];

	pd_build_id_ident(ident, mf->build_id, mf->build_id_size);
	if (pwrite(fd, &misc, sizeof(misc), (off_t)(off +
		   offsetof(struct perf_event_header, misc))) != sizeof(misc) ||
	    pwrite(fd, ident, sizeof(ident), (off_t)(off + PD_MMAP2_IDENT_AT)) !=
	    sizeof(ident))
		return -1;
	return 0;
}

/* Where the whole records from START to END end: a file the plugin did not
 * finish (QEMU killed while writing) may end inside one. */
static uint64_t whole_records_end(int fd, uint64_t start, uint64_t end)
{
	struct perf_event_header h;

	while (end - start >= sizeof(h) &&
	       pread(fd, &h, sizeof(h), (off_t)start) == sizeof(h) &&
	       h.size >= sizeof(h) && h.size <= end - start)
		start += h.size;
	return start;
}

static uint64_t file_size(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : (uint64_t)st.st_size;
}

/* The records of a forked child's file, appended at *END of the
 * recording's: after the parent's, as perf record's per-CPU buffers leave
 * records of different times; readers order them by time. */
static int append_child(int to, uint64_t *end, const struct perf_file *f)
{
	uint64_t size = file_size(f->fd);

	if (f->cut)
		size = whole_records_end(f->fd, 0, size);
	if (copy_bytes(f->fd, to, size, *end))
		return -1;
	*end += size;
	return 0;
}

/*
 * perf record --call-graph lbr's samples carry PERF_SAMPLE_CALLCHAIN as
 * well as the branch stack: the kernel's part of the chain, then
 * PERF_CONTEXT_USER and the user IP (and what frame pointers give, which
 * perf's tools ignore when the branch stack is a call stack: they take the
 * call stack's records instead, each call's source, newest first).
 * User-mode QEMU has no kernel part, so each sample's chain is
 * [PERF_CONTEXT_USER, ip], put after PERIOD here: the plugin writes the
 * samples of every recording alike.  The records from START to *END of FD
 * are rewritten through a temporary file; *END moves.
 */
static int add_callchains(int fd, uint64_t start, uint64_t *end)
{
	static unsigned char buf[1 << 16];
	struct perf_event_header h;
	char tmpl[PATH_MAX];
	uint64_t pos = start, out_len = 0;
	int tfd, in_fd, rc = -1;
	FILE *in = NULL, *out = NULL;

	rvperf_temp_template(tmpl, sizeof(tmpl), "rvperf-callchain");
	tfd = mkstemp(tmpl);
	if (tfd < 0)
		return -1;
	unlink(tmpl);
	in_fd = dup(fd);
	if (in_fd >= 0 && !(in = fdopen(in_fd, "rb")))
		close(in_fd);
	out = fdopen(dup(tfd), "wb");
	if (!in || !out || fseeko(in, (off_t)start, SEEK_SET))
		goto done;
	while (*end - pos >= sizeof(h) && fread(&h, sizeof(h), 1, in) == 1) {
		size_t body = h.size - sizeof(h);
		uint64_t chain[3] = { 2, PERF_CONTEXT_USER, 0 };
		size_t at = PD_SAMPLE_CALLCHAIN_AT - sizeof(h);

		if (h.size < sizeof(h) || h.size > *end - pos ||
		    fread(buf, 1, body, in) != body)
			goto done;
		pos += h.size;
		if (h.type == PERF_RECORD_SAMPLE && body >= at) {
			if (h.size + sizeof(chain) > UINT16_MAX)
				goto done;
			memcpy(&chain[2], buf, 8);	/* the IP */
			h.size = (uint16_t)(h.size + sizeof(chain));
			if (fwrite(&h, sizeof(h), 1, out) != 1 ||
			    fwrite(buf, 1, at, out) != at ||
			    fwrite(chain, sizeof(chain), 1, out) != 1 ||
			    fwrite(buf + at, 1, body - at, out) != body - at)
				goto done;
		} else if (fwrite(&h, sizeof(h), 1, out) != 1 ||
			   fwrite(buf, 1, body, out) != body) {
			goto done;
		}
		out_len += h.size;
	}
	if (pos != *end || fflush(out) ||
	    copy_bytes(tfd, fd, out_len, start))
		goto done;
	*end = start + out_len;
	rc = 0;
done:
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	close(tfd);
	return rc;
}

/*
 * After QEMU: the plugin's trace of each process (its header, its
 * mappings, forks, exec and totals; the samples are in the recording
 * already) finishes the recording W, whose records the plugin wrote from
 * PERF_DATA_AT of DATA_PATH on.  *CUT is set when a process's trace ends
 * early (QEMU killed): the recording then holds the records before.
 */
static int finish(const struct record_options *o, const struct elf_syms *es,
		  const char *prog, const char *trace_path,
		  const char *data_path, struct pd_writer *w, int *cut)
{
	struct rvp_trace_totals t = { 0 };
	struct mapped_files files = { 0 };
	struct perf_files pf = { 0 };
	struct trace_stream *streams;
	struct perf_file *main_file;
	size_t nr_streams = 1, cap_streams = 8, i;
	uint64_t end;
	int rc = 0;
	const char *comm = base_name(o->prog_argv[0]);

	streams = calloc(cap_streams, sizeof(*streams));
	if (!streams)
		return fail("out of memory%s", "");
	if (stream_open(&streams[0], trace_path, 0)) {
		free(streams);
		return fail("the plugin wrote no trace (did QEMU load %s?)",
			    o->plugin);
	}
	if (!add_perf_file(&pf, streams[0].h.pid, data_path)) {
		stream_close(&streams[0]);
		free(streams);
		return fail("cannot open '%s'", data_path);
	}
	rc |= pd_write_comm(w, streams[0].h.pid, streams[0].h.pid, comm, 0);
	rc |= write_program_mmaps(w, streams[0].h.pid, es, prog, &streams[0].h);
	/* Each thread's records in turn: the samples are in the recording
	 * already, and what is left (build ids, children) does not depend on
	 * the order.  A fork adds the new thread's or process's trace. */
	i = 0;
	while (!rc && i < nr_streams) {
		struct trace_stream *st = &streams[i];
		const struct rvp_trace_record *r = &st->r;

		if (!st->have) {
			i++;
			continue;
		}
		if (r->kind == RVP_TRACE_MMAP &&
		    r->nr * 8 > sizeof(struct rvp_trace_mmap)) {
			const struct rvp_trace_mmap *m =
				(const struct rvp_trace_mmap *)st->payload;
			const char *path = (const char *)(m + 1);
			const struct perf_file *f = perf_file(&pf, st->h.pid);
			const struct mapped_file *mf;

			if (m->path_len < r->nr * 8 - sizeof(*m) &&
			    !path[m->path_len] && m->perf_off != UINT64_MAX &&
			    f && (mf = mapped_file(&files, path)) &&
			    mf->build_id_size) {
				rc |= patch_build_id(f->fd, m->perf_off, mf);
				rc |= pd_writer_add_build_id(w, (uint32_t)st->h.pid,
							     path, mf->build_id,
							     mf->build_id_size);
			}
		} else if (r->kind == RVP_TRACE_FORK &&
			   r->nr * 8 >= sizeof(struct rvp_trace_fork)) {
			const struct rvp_trace_fork *f =
				(const struct rvp_trace_fork *)st->payload;
			char child[PATH_MAX + 96];

			if (nr_streams == cap_streams) {
				size_t si = (size_t)(st - streams);
				struct trace_stream *p = realloc(streams,
					2 * cap_streams * sizeof(*p));

				if (!p) {
					rc = -1;
					break;
				}
				streams = p;
				st = &streams[si];	/* moved */
				r = &st->r;
				cap_streams *= 2;
			}
			if (f->pid == f->ppid)	/* a thread */
				snprintf(child, sizeof(child), "%s", st->path);
			else
				snprintf(child, sizeof(child), "%s.%" PRIu64,
					 trace_path, f->pid);
			if (stream_open(&streams[nr_streams], child, f->tid) == 0) {
				nr_streams++;
				snprintf(child, sizeof(child), "%s.%" PRIu64,
					 data_path, f->pid);
				if (f->pid != f->ppid &&
				    !add_perf_file(&pf, f->pid, child))
					fprintf(stderr, "rvperf record: warning: "
						"no records of child process %"
						PRIu64 "\n", f->pid);
			} else {
				fprintf(stderr, "rvperf record: warning: "
					"no trace of child process %"
					PRIu64 "\n", f->pid);
			}
		}
		stream_next(st);
	}
	for (i = 0; i < nr_streams; i++) {
		struct trace_stream *st = &streams[i];
		struct perf_file *f;

		if (!st->main) {	/* the process's end is its main's */
			stream_close(st);
			continue;
		}
		if (st->exec_last && !st->ended) {
			fprintf(stderr, "rvperf record: warning: process %" PRIu64
				" ran execve: the new image is not followed "
				"(qemu-user runs it without the plugin)\n",
				st->h.pid);
		} else if (!st->ended) {
			*cut = 1;
			if ((f = perf_file(&pf, st->h.pid)))
				f->cut = 1;
		}
		t.instructions += st->t.instructions;
		t.transfers += st->t.transfers;
		t.dropped += st->t.dropped;
		t.samples += st->t.samples;
		stream_close(st);
	}
	main_file = &pf.v[0];
	end = file_size(main_file->fd);
	if (end < PERF_DATA_AT)
		end = PERF_DATA_AT;
	if (main_file->cut)
		end = whole_records_end(main_file->fd, PERF_DATA_AT, end);
	for (i = 1; i < pf.n && !rc; i++)
		rc |= append_child(main_file->fd, &end, &pf.v[i]);
	/* Forked children's files, and anything after the last whole
	 * record, go: the feature sections follow the data. */
	if (!rc && ftruncate(main_file->fd, (off_t)end))
		rc = -1;
	if (!rc && o->call_graph)
		rc = add_callchains(main_file->fd, PERF_DATA_AT, &end);
	for (i = 0; i < pf.n; i++) {
		close(pf.v[i].fd);
		if (i)
			unlink(pf.v[i].path);
	}
	if (!rc)
		rc = pd_writer_external_data(w, PERF_DATA_AT, end - PERF_DATA_AT);
	for (i = 0; i < files.n; i++)
		free(files.v[i].path);
	free(files.v);
	free(pf.v);
	free(streams);
	if (rc)
		return fail("cannot write '%s'", o->output);
	if (*cut)
		return 0;	/* said by the caller, once the file is there */
	fprintf(stderr, "[ rvperf record: %" PRIu64 " samples, %" PRIu64
		" instructions, %" PRIu64 " transfers (%" PRIu64
		" dropped: a signal or fault came between), written to %s ]\n",
		t.samples, t.instructions, t.transfers, t.dropped, o->output);
	return 0;
}

int rvperf_record(int argc, char **argv)
{
	struct record_options o = {
		.output = "perf.data", .event = "instructions", .filter = "any",
		.layout = "ratified", .period = 10007, .depth = 16,
	};
	char plugin_buf[PATH_MAX], trace_path[PATH_MAX];
	char prog[PATH_MAX], data_path[PATH_MAX + 64];
	const struct event_name *ev = NULL;
	struct elf_syms es = { 0 };
	struct pd_writer_config cfg = {
		.exclude_kernel = 1, .exclude_hv = 1, .arch = "riscv64",
		.osrelease = "qemu-riscv64 (rvperf plugin)", .nr_cpus = 1,
	};
	struct pd_writer w;
	enum ctrhw_layout lay;
	struct stat st;
	int rc, status, fd, qemu_given, cut = 0, renamable;
	const char *mod;
	size_t i, len;

	rc = parse_options(argc, argv, &o);
	if (rc)
		return rc;
	/* perf's modifiers after a colon: u (user mode, all there is here)
	 * is taken; a modifier asking for anything else is refused. */
	mod = strchr(o.event, ':');
	if (mod && strspn(mod + 1, "u") != strlen(mod + 1))
		return usage("event modifier '%s': only u applies (user-mode QEMU "
			     "runs no kernel or hypervisor, and counts exactly)",
			     mod);
	len = mod ? (size_t)(mod - o.event) : strlen(o.event);
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (strlen(events[i].perf) == len &&
		    !strncmp(o.event, events[i].perf, len))
			ev = &events[i];
	if (!ev)
		return usage("unknown event '%s' (instructions, cycles, branches, "
			     "branch-misses, taken-branches, calls, returns, "
			     "other-jumps)", o.event);
	lay = strcmp(o.layout, "draft") ? CTRHW_LAYOUT_RATIFIED
					: CTRHW_LAYOUT_DRAFT;
	if (!o.ctl_arg) {
		char err[200];

		if (rvp_branch_filter_parse(o.filter, lay,
				rvp_branch_filter_mode_bit(lay, 'u'), &o.ctl,
				err, sizeof(err))) {
			fprintf(stderr, "rvperf record: %s\n", err);
			return EXIT_USAGE;
		}
	}
	/* qemu-riscv64 runs the program in U-mode alone: with U off, the
	 * only records are the traps into the emulated kernel, from and to
	 * nowhere (0x0 -> 0x0). */
	if (!(o.ctl & rvp_branch_filter_mode_bit(lay, 'u')))
		return usage(o.ctl_arg ? "--ctl %s leaves U-mode off: user-mode "
			     "QEMU runs no kernel, so nothing real would be "
			     "recorded" : "-j %s has no u: user-mode QEMU runs "
			     "no kernel, so nothing real would be recorded",
			     o.ctl_arg ? o.ctl_arg : o.filter);
	if (check_output(o.output))
		return EXIT_USAGE;
	qemu_given = o.qemu != NULL;
	if (!o.qemu)
		o.qemu = getenv("RVPERF_QEMU") && *getenv("RVPERF_QEMU") ?
			 getenv("RVPERF_QEMU") : "qemu-riscv64";
	if (check_qemu(o.qemu, qemu_given))
		return EXIT_USAGE;
	if (!o.plugin)
		o.plugin = rvperf_plugin_path("RVPERF_PLUGIN", "librvperf-ctr.so",
					      plugin_buf, sizeof(plugin_buf));
	if (!o.plugin || stat(o.plugin, &st))
		return fail("no CTR plugin at '%s' (build it, or pass --plugin)",
			    o.plugin ? o.plugin : "?");
	if (stat(o.prog_argv[0], &st) || !S_ISREG(st.st_mode))
		return fail("no program '%s'", o.prog_argv[0]);
	if (elf_syms_load_headers(&es, o.prog_argv[0])) {
		fprintf(stderr, "rvperf record: %s: %s\n", o.prog_argv[0], es.error);
		elf_syms_free(&es);
		return EXIT_BAD_DATA;
	}
	if (es.machine != ELF_MACHINE_RISCV || es.elf_class != 64) {
		elf_syms_free(&es);
		return fail("'%s' is not a riscv64 program", o.prog_argv[0]);
	}
	/* MMAP2 names the program as the kernel does, by its absolute path:
	 * a relative one would mean nothing to a report run elsewhere. */
	if (!realpath(o.prog_argv[0], prog)) {
		elf_syms_free(&es);
		return fail("cannot resolve '%s'", o.prog_argv[0]);
	}
	rvperf_temp_template(trace_path, sizeof(trace_path), "rvperf-trace");
	fd = mkstemp(trace_path);
	if (fd < 0) {
		elf_syms_free(&es);
		return fail("cannot create a temporary file: %s", strerror(errno));
	}
	close(fd);
	/* The recording is written beside the output, into which it is
	 * renamed at the end: the plugin writes its records there.  An
	 * output that is not a regular file has it copied in (from $TMPDIR):
	 * -o /dev/null must not replace /dev/null. */
	renamable = output_renamable(o.output);
	if (renamable) {
		const char *slash = strrchr(o.output, '/');

		snprintf(data_path, sizeof(data_path), "%.*s.%s.rvperf-XXXXXX",
			 slash ? (int)(slash + 1 - o.output) : 0, o.output,
			 base_name(o.output));
	} else {
		rvperf_temp_template(data_path, sizeof(data_path), "rvperf-data");
	}
	fd = mkstemp(data_path);
	cfg.type = ev->type;
	cfg.config = ev->config;
	cfg.sample_period = o.period;
	cfg.sample_freq = o.freq;
	cfg.callchain = o.call_graph;
	cfg.branch_sample_type = branch_sample_type(o.filter);
	if (fd < 0 || (close(fd), pd_writer_open(&w, data_path, &cfg))) {
		rc = fail("cannot write '%s'", o.output);
		if (fd >= 0)
			unlink(data_path);
		unlink(trace_path);
		elf_syms_free(&es);
		return rc;
	}
	rc = run_qemu(&o, &es, ev->model, trace_path, data_path,
		      cfg.branch_sample_type, &status);
	if (!rc) {
		if (WIFSIGNALED(status))
			fprintf(stderr, "rvperf record: %s killed by signal %d\n",
				o.prog_argv[0], WTERMSIG(status));
		else if (WEXITSTATUS(status))
			fprintf(stderr, "rvperf record: %s exited with status %d\n",
				o.prog_argv[0], WEXITSTATUS(status));
		rc = finish(&o, &es, prog, trace_path, data_path, &w, &cut);
	}
	if (pd_writer_close(&w) && !rc)
		rc = fail("cannot write '%s'", o.output);
	if (!rc && (renamable ? rename(data_path, o.output) :
		    copy_into(data_path, o.output)))
		rc = fail("cannot write '%s'", o.output);
	if (rc || !renamable)
		unlink(data_path);
	unlink(trace_path);
	remove_child_files(trace_path);
	remove_child_files(data_path);
	elf_syms_free(&es);
	if (!rc && cut)
		return fail("the plugin's trace ends early (QEMU killed?); %s "
			    "holds the samples before the cut", o.output);
	return rc;
}
