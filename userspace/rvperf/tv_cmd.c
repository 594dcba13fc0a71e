// SPDX-License-Identifier: BSD-2-Clause
/*
 * tv_cmd.c - `rvperf tv`: the tandem-verification trace tools (dump,
 * from-elf, diff, record, verify) on top of userspace/tv/.
 *
 * A trace's configuration (XLEN, FLEN, MLEN, absent elements) lives next
 * to it in FILE.cfg, one line (tv_config_format); --config TEXT overrides.
 * Every failure prints one line "rvperf tv <sub>: <reason>"; exit status
 * 0 success, 1 divergences or bad data, 2 bad command line.
 */
#define _GNU_SOURCE	/* execvpe */
#include "tv_cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record.h"
#include "userspace/tv/tv.h"
#include "userspace/tv/tv_disas.h"
#include "userspace/tv/tv_dump.h"
#include "userspace/tv/tv_gdb.h"
#include "userspace/tv/tv_verify_plugin.h"

#define EXIT_DATA 1
#define EXIT_USAGE 2

static const char *sub = "";

static int fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rvperf tv%s%s: ", *sub ? " " : "", sub);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (code == EXIT_USAGE)
		fprintf(stderr, " (see 'rvperf tv%s%s --help')", *sub ? " " : "", sub);
	fputc('\n', stderr);
	return code;
}

static bool is_help(const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-h");
}

/* ------------------------------------------------------------ files */

struct blob {
	uint8_t *data;
	size_t len;
};

static int read_file(const char *path, struct blob *b)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : fdopen(dup(0), "rb");
	size_t cap = 1 << 20, n;

	b->len = 0;
	b->data = NULL;
	if (!f)
		return -1;
	for (;;) {
		uint8_t *p = realloc(b->data, cap);

		if (!p) {
			fclose(f);
			errno = ENOMEM;
			return -1;
		}
		b->data = p;
		n = fread(b->data + b->len, 1, cap - b->len, f);
		b->len += n;
		if (b->len < cap)
			break;
		cap *= 2;
	}
	fclose(f);
	return 0;
}

/* FILE.cfg when it exists, then TEXT (--config) on top. */
static int load_config(const char *trace, const char *text, struct tv_config *cfg)
{
	char path[PATH_MAX], line[256], err[120];
	FILE *f;

	tv_config_default(cfg);
	snprintf(path, sizeof(path), "%s.cfg", trace);
	f = fopen(path, "r");
	if (f) {
		if (fgets(line, sizeof(line), f) &&
		    tv_config_parse(cfg, line, err, sizeof(err))) {
			fclose(f);
			return fail(EXIT_DATA, "%s: %s", path, err);
		}
		fclose(f);
	}
	if (text && tv_config_parse(cfg, text, err, sizeof(err)))
		return fail(EXIT_USAGE, "--config: %s", err);
	return 0;
}

static int write_config(const char *trace, const struct tv_config *cfg)
{
	char path[PATH_MAX], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s.cfg", trace);
	f = fopen(path, "w");
	if (!f)
		return -1;
	tv_config_format(cfg, line, sizeof(line));
	fprintf(f, "%s\n", line);
	return fclose(f);
}

/* ------------------------------------------------------------ dump */

static int tv_dump(int argc, char **argv)
{
	const char *path = NULL, *cfg_text = NULL;
	struct tv_config cfg;
	struct tv_decoder d;
	struct tv_group g;
	struct tv_dump dp;
	enum tv_mode mode = TV_STRICT;
	uint8_t chunk[1 << 16];
	FILE *f;
	uint64_t errors = 0;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--lenient"))
			mode = TV_LENIENT;
		else if (!strcmp(argv[i], "--config") && i + 1 < argc)
			cfg_text = argv[++i];
		else if (argv[i][0] == '-')
			return fail(EXIT_USAGE, "unknown option '%s'", argv[i]);
		else if (!path)
			path = argv[i];
		else
			return fail(EXIT_USAGE, "unexpected argument '%s'", argv[i]);
	}
	if (!path)
		return fail(EXIT_USAGE, "no trace file given");
	rc = load_config(path, cfg_text, &cfg);
	if (rc)
		return rc;
	f = fopen(path, "rb");
	if (!f)
		return fail(EXIT_DATA, "cannot open %s: %s", path, strerror(errno));
	{
		char line[200];

		tv_config_format(&cfg, line, sizeof(line));
		printf("# %s: %s, %s decoding\n", path, line,
		       mode == TV_STRICT ? "strict" : "lenient");
	}
	tv_dec_init(&d, &cfg, mode);
	if (tv_dump_init(&dp, &cfg, stdout)) {
		fclose(f);
		return fail(EXIT_DATA, "out of memory");
	}
	/* Streaming: the file goes through in chunks, whatever its size. */
	for (;;) {
		enum tv_status st = tv_dec_next(&d, &g);

		if (st == TV_MORE) {
			size_t n = fread(chunk, 1, sizeof(chunk), f);

			if (n)
				tv_dec_feed(&d, chunk, n);
			else
				tv_dec_finish(&d);
			continue;
		}
		if (st == TV_END)
			break;
		if (st == TV_ERROR) {
			errors++;
			tv_dump_error(&dp, &d.err);
			continue;
		}
		tv_dump_group(&dp, &g);
	}
	fclose(f);
	tv_dec_free(&d);
	tv_dump_flush(&dp);
	tv_dump_free(&dp);
	if (errors)
		return fail(EXIT_DATA, "%" PRIu64 " decoding error%s in %s", errors,
			    errors == 1 ? "" : "s", path);
	return 0;
}

/* ------------------------------------------------------------ from-elf */

static int tv_from_elf(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *cfg_text = NULL;
	struct tv_config cfg;
	struct tv_buf b = { 0 };
	Elf *e;
	GElf_Ehdr eh;
	size_t nph;
	int fd, rc = 0;
	FILE *f;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--config") && i + 1 < argc)
			cfg_text = argv[++i];
		else if (argv[i][0] == '-')
			return fail(EXIT_USAGE, "unknown option '%s'", argv[i]);
		else if (!in)
			in = argv[i];
		else
			return fail(EXIT_USAGE, "unexpected argument '%s'", argv[i]);
	}
	if (!in || !out)
		return fail(EXIT_USAGE, "usage: rvperf tv from-elf ELF -o FILE");
	if (elf_version(EV_CURRENT) == EV_NONE)
		return fail(EXIT_DATA, "libelf: %s", elf_errmsg(-1));
	fd = open(in, O_RDONLY);
	if (fd < 0)
		return fail(EXIT_DATA, "cannot open %s: %s", in, strerror(errno));
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) ||
	    elf_getphdrnum(e, &nph)) {
		if (e)
			elf_end(e);
		close(fd);
		return fail(EXIT_DATA, "%s is not an ELF file", in);
	}
	if (eh.e_machine != EM_RISCV) {
		elf_end(e);
		close(fd);
		return fail(EXIT_DATA, "%s is not a RISC-V ELF file", in);
	}
	tv_config_default(&cfg);
	if (gelf_getclass(e) == ELFCLASS32)
		cfg.xlen = cfg.mlen = 32;
	if (cfg_text) {
		char err[120];

		if (tv_config_parse(&cfg, cfg_text, err, sizeof(err))) {
			elf_end(e);
			close(fd);
			return fail(EXIT_USAGE, "--config: %s", err);
		}
	}
	/* Each loadable segment, in groups of up to 4 KiB of stores. */
	for (size_t i = 0; i < nph && !rc; i++) {
		GElf_Phdr ph;
		Elf_Data *data;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || !ph.p_memsz)
			continue;
		data = elf_getdata_rawchunk(e, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_BYTE);
		if (ph.p_filesz && !data) {
			rc = fail(EXIT_DATA, "%s: segment %zu: %s", in, i, elf_errmsg(-1));
			break;
		}
		for (uint64_t off = 0; off < ph.p_memsz;) {
			uint64_t end = off + 4096 < ph.p_memsz ? off + 4096 : ph.p_memsz;

			tv_enc_op(&b, TV_OP_BEGIN_GROUP);
			tv_enc_op(&b, TV_OP_STATE_INIT);
			while (off < end) {
				uint64_t addr = ph.p_paddr + off, v = 0;
				unsigned int size = 3;

				/* The widest aligned store that fits. */
				while (size && ((addr & ((1u << size) - 1)) ||
						off + (1u << size) > end))
					size--;
				for (unsigned int k = 0; k < 1u << size; k++)
					if (off + k < ph.p_filesz)
						v |= (uint64_t)((uint8_t *)data->d_buf)[off + k] << (8 * k);
				tv_enc_mem_req(&b, &cfg, addr, TV_MEM_STORE, size, v);
				off += 1u << size;
			}
			tv_enc_op(&b, TV_OP_END_GROUP);
		}
	}
	if (!rc) {
		tv_enc_op(&b, TV_OP_BEGIN_GROUP);
		tv_enc_op(&b, TV_OP_STATE_INIT);
		tv_enc_addl(&b, &cfg, TV_AS_PC, eh.e_entry);
		tv_enc_op(&b, TV_OP_END_GROUP);
	}
	elf_end(e);
	close(fd);
	if (rc)
		goto out;
	if (b.oom) {
		rc = fail(EXIT_DATA, "out of memory");
		goto out;
	}
	f = fopen(out, "wb");
	if (!f || fwrite(b.data, 1, b.len, f) != b.len || fclose(f) ||
	    write_config(out, &cfg)) {
		rc = fail(EXIT_DATA, "cannot write %s: %s", out, strerror(errno));
		goto out;
	}
out:
	tv_buf_free(&b);
	return rc;
}

/* ------------------------------------------------------------ diff */

struct report_ctx {
	unsigned int xlen;
	const char *a_name, *b_name;
};

static int print_divergence(void *ctx, const struct tv_divergence *d)
{
	const struct report_ctx *r = ctx;
	char name[40], dis[96] = "";

	if (d->has_insn)
		tv_disas(d->insn, d->pc, r->xlen, dis, sizeof(dis));
	if (d->what) {
		printf("group %" PRIu64 ": %s\n", d->group, d->what);
		return 0;
	}
	printf("group %" PRIu64 " (bytes 0x%" PRIx64 "/0x%" PRIx64 ") pc 0x%" PRIx64 " %s: %s: ",
	       d->group, d->offset_a, d->offset_b, d->pc, d->has_insn ? dis : "(no instruction)",
	       tv_elem_ref_name(&d->elem, name, sizeof(name)));
	if (d->a_known)
		printf("%s 0x%" PRIx64, r->a_name, d->a);
	else
		printf("%s -", r->a_name);
	if (d->b_known)
		printf(", %s 0x%" PRIx64 "\n", r->b_name, d->b);
	else
		printf(", %s -\n", r->b_name);
	return 0;
}

static const char default_nondet[] = "mtime,time,timeh,cycle,cycleh,mcycle,mcycleh,mip,sip";

static int parse_nondet(struct tv_nondet *nd, const char *list)
{
	char *copy, *save = NULL;

	memset(nd, 0, sizeof(*nd));
	if (!strcmp(list, "none"))
		return 0;
	copy = strdup(list);
	if (!copy)
		return -1;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (tv_nondet_add(nd, t)) {
			fail(EXIT_USAGE, "--nondet: unknown element '%s'", t);
			free(copy);
			return -1;
		}
	free(copy);
	return 0;
}

static int tv_diff_cmd(int argc, char **argv)
{
	const char *pa = NULL, *pb = NULL, *cfg_text = NULL, *nondet = default_nondet;
	struct tv_diff_opts o = { 0 };
	struct tv_diff_result res;
	struct tv_nondet nd;
	struct blob a, b;
	struct report_ctx rctx = { .a_name = "A", .b_name = "B" };
	bool strict = false;
	int rc;

	o.mode = TV_STRICT;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--strict")) {
			strict = true;
		} else if (!strcmp(argv[i], "--max") && i + 1 < argc) {
			char *end;

			o.max = strtoull(argv[++i], &end, 0);
			if (*end || !o.max)
				return fail(EXIT_USAGE, "--max wants a positive number, not '%s'", argv[i]);
		} else if (!strcmp(argv[i], "--nondet") && i + 1 < argc) {
			nondet = argv[++i];
		} else if (!strcmp(argv[i], "--lenient")) {
			o.mode = TV_LENIENT;
		} else if (!strcmp(argv[i], "--config") && i + 1 < argc) {
			cfg_text = argv[++i];
		} else if (argv[i][0] == '-') {
			return fail(EXIT_USAGE, "unknown option '%s'", argv[i]);
		} else if (!pa) {
			pa = argv[i];
		} else if (!pb) {
			pb = argv[i];
		} else {
			return fail(EXIT_USAGE, "unexpected argument '%s'", argv[i]);
		}
	}
	if (!pb)
		return fail(EXIT_USAGE, "two traces wanted");
	/* --strict declares nothing by default: every difference is told. */
	if (parse_nondet(&nd, strict && nondet == default_nondet ? "none" : nondet))
		return EXIT_USAGE;
	o.user_inputs = !strict;
	if ((rc = load_config(pa, cfg_text, &o.cfg_a)) || (rc = load_config(pb, cfg_text, &o.cfg_b)))
		return rc;
	if (o.cfg_a.xlen != o.cfg_b.xlen)
		return fail(EXIT_DATA, "XLEN %u against XLEN %u", o.cfg_a.xlen, o.cfg_b.xlen);
	if (read_file(pa, &a))
		return fail(EXIT_DATA, "cannot read %s: %s", pa, strerror(errno));
	if (read_file(pb, &b)) {
		free(a.data);
		return fail(EXIT_DATA, "cannot read %s: %s", pb, strerror(errno));
	}
	o.nondet = &nd;
	o.report = print_divergence;
	rctx.xlen = o.cfg_a.xlen;
	o.ctx = &rctx;
	rc = tv_diff(a.data, a.len, b.data, b.len, &o, &res);
	free(a.data);
	free(b.data);
	if (rc < 0)
		return fail(EXIT_DATA, "%s: byte 0x%" PRIx64 ": %s", res.err_trace == 1 ? pa : pb,
			    res.err.offset, res.err.msg);
	printf("%" PRIu64 " groups compared, %" PRIu64 " divergence%s%s", res.groups,
	       res.divergences, res.divergences == 1 ? "" : "s",
	       o.max && res.divergences >= o.max ? " (stopped at --max)" : "");
	if (res.skipped)
		printf(", %" PRIu64 " groups of interrupt handlers one trace ran alone", res.skipped);
	putchar('\n');
	return rc ? EXIT_DATA : 0;
}

/* ------------------------------------------------------------ record */

/* record -o -: where QEMU's child finds our standard output. */
#define TRACE_STDOUT_FD 511

static int tv_record(int argc, char **argv)
{
	const char *out = "trace.tv", *qemu = NULL, *plugin = NULL, *machine = NULL;
	char plugin_buf[PATH_MAX], arg[PATH_MAX + 256];
	unsigned int xlen = 64;
	int i, status;
	pid_t pid;
	struct stat st;
	char *args[64 + 16];
	int n = 0;
	bool to_stdout;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--xlen") && i + 1 < argc) {
			xlen = (unsigned int)atoi(argv[++i]);
			if (xlen != 32 && xlen != 64)
				return fail(EXIT_USAGE, "--xlen is 32 or 64, not '%s'", argv[i]);
		} else if (!strcmp(argv[i], "--qemu") && i + 1 < argc)
			qemu = argv[++i];
		else if (!strcmp(argv[i], "--plugin") && i + 1 < argc)
			plugin = argv[++i];
		else if (!strcmp(argv[i], "--system") && i + 1 < argc)
			machine = argv[++i];
		else
			return fail(EXIT_USAGE, "unknown option '%s'", argv[i]);
	}
	if (i >= argc - 1)
		return fail(EXIT_USAGE, "no program given (rvperf tv record [options] -- PROG [ARGS])");
	i++;
	if (argc - i > 64)
		return fail(EXIT_USAGE, "too many arguments");
	if (!plugin)
		plugin = rvperf_plugin_path("RVPERF_TV_PLUGIN", "librvperf-tv.so",
					    plugin_buf, sizeof(plugin_buf));
	if (!plugin || stat(plugin, &st))
		return fail(EXIT_DATA, "no trace plugin at '%s' (build it, or pass --plugin)",
			    plugin ? plugin : "?");
	if (!qemu)
		qemu = machine ? (xlen == 32 ? "qemu-system-riscv32" : "qemu-system-riscv64")
			       : (xlen == 32 ? "qemu-riscv32" : "qemu-riscv64");
	/* -o -: the trace on standard output, through a descriptor of its
	 * own (the plugin lifts it out of a guest's reach); the program's
	 * output and the serial console go to /dev/null, as verify's do. */
	to_stdout = !strcmp(out, "-");
	if (to_stdout)
		snprintf(arg, sizeof(arg), "%s,out=fd:%d,xlen=%u", plugin, TRACE_STDOUT_FD, xlen);
	else
		snprintf(arg, sizeof(arg), "%s,out=%s,xlen=%u", plugin, out, xlen);
	args[n++] = (char *)qemu;
	if (machine) {
		/* A bare-metal image: -M MACHINE -bios none -kernel PROG. */
		static char *const sys[] = { "-display", "none", "-bios", "none",
					     "-serial", "stdio", "-monitor", "none" };

		args[n++] = "-M";
		args[n++] = (char *)machine;
		for (size_t k = 0; k < sizeof(sys) / sizeof(sys[0]); k++)
			args[n++] = sys[k];
		args[n++] = "-kernel";
		args[n++] = argv[i++];
	} else {
		/* The layout verify's gdbstub run will have (tv_gdb.h). */
		args[n++] = "-R";
		args[n++] = TV_USER_RESERVE;
		if (access(TV_USER_LD_PREFIX, F_OK) == 0) {
			args[n++] = "-L";
			args[n++] = TV_USER_LD_PREFIX;
		}
	}
	args[n++] = "-plugin";
	args[n++] = arg;
	while (i < argc)
		args[n++] = argv[i++];
	args[n] = NULL;
	pid = fork();
	if (pid < 0)
		return fail(EXIT_DATA, "fork: %s", strerror(errno));
	if (pid == 0) {
		static char *const no_env[] = { NULL };

		if (to_stdout) {
			int devnull = open("/dev/null", O_WRONLY);

			if (dup2(1, TRACE_STDOUT_FD) < 0 || devnull < 0 || dup2(devnull, 1) < 0)
				_exit(127);
		}

		/* User mode: the guest's environment is on its stack; an empty
		 * one is what verify can give it again. */
		if (machine)
			execvp(qemu, args);
		else
			execvpe(qemu, args, no_env);
		fprintf(stderr, "rvperf tv record: cannot run %s: %s\n", qemu, strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return fail(EXIT_DATA, "waitpid: %s", strerror(errno));
	if (!to_stdout && stat(out, &st))
		return fail(EXIT_DATA, "the plugin wrote no trace (did %s load %s?)", qemu, plugin);
	if (WIFSIGNALED(status))
		return fail(EXIT_DATA, "%s killed by signal %d", qemu, WTERMSIG(status));
	/* The program's own exit status is not ours to judge. */
	return WIFEXITED(status) && WEXITSTATUS(status) == 127 ? EXIT_DATA : 0;
}

/* ------------------------------------------------------------ verify */

enum verify_via { VIA_PROBE, VIA_PLUGIN, VIA_GDBSTUB };

static int tv_verify_cmd(int argc, char **argv)
{
	struct tv_verify_opts o = { 0 };
	struct tv_verify_result res;
	const char *path = NULL, *cfg_text = NULL, *nondet = default_nondet, *plugin = NULL;
	char plugin_buf[PATH_MAX];
	enum verify_via via = VIA_PROBE;
	struct tv_nondet nd;
	struct blob t;
	struct report_ctx rctx = { .a_name = "trace", .b_name = "qemu" };
	struct timespec t0, t1;
	struct stat st;
	double secs;
	int rc, trace_fd = -1;

	o.machine = "virt";
	o.mode = TV_STRICT;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			/* user mode: the arguments the recorded run had */
			o.args = argv + i + 1;
			o.n_args = argc - i - 1;
			break;
		}
		if (!strcmp(argv[i], "--qemu") && i + 1 < argc)
			o.qemu = argv[++i];
		else if (!strcmp(argv[i], "--elf") && i + 1 < argc)
			o.elf = argv[++i];
		else if (!strcmp(argv[i], "--user"))
			o.user = true;
		else if (!strcmp(argv[i], "--machine") && i + 1 < argc)
			o.machine = argv[++i];
		else if (!strcmp(argv[i], "--max") && i + 1 < argc) {
			char *end;

			o.max = strtoull(argv[++i], &end, 0);
			if (*end || !o.max || argv[i][0] == '-')
				return fail(EXIT_USAGE, "--max wants a positive number, not '%s'", argv[i]);
		} else if (!strcmp(argv[i], "--nondet") && i + 1 < argc)
			nondet = argv[++i];
		else if (!strcmp(argv[i], "--resync") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "trace"))
				o.resync_from_reference = false;
			else if (!strcmp(argv[i], "reference"))
				o.resync_from_reference = true;
			else
				return fail(EXIT_USAGE, "--resync is trace or reference, not '%s'", argv[i]);
		} else if (!strcmp(argv[i], "--via") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "plugin"))
				via = VIA_PLUGIN;
			else if (!strcmp(argv[i], "gdbstub"))
				via = VIA_GDBSTUB;
			else
				return fail(EXIT_USAGE, "--via is plugin or gdbstub, not '%s'", argv[i]);
		} else if (!strcmp(argv[i], "--plugin") && i + 1 < argc)
			plugin = argv[++i];
		else if (!strcmp(argv[i], "--config") && i + 1 < argc)
			cfg_text = argv[++i];
		else if (!strcmp(argv[i], "--lenient"))
			o.mode = TV_LENIENT;
		else if (argv[i][0] == '-' && argv[i][1])
			return fail(EXIT_USAGE, "unknown option '%s'", argv[i]);
		else if (!path)
			path = argv[i];
		else
			return fail(EXIT_USAGE, "unexpected argument '%s'", argv[i]);
	}
	if (!path)
		return fail(EXIT_USAGE, "no trace file given");
	if (!o.qemu)
		return fail(EXIT_USAGE, "no --qemu given (the reference: qemu-system-riscv64 or, with --user, qemu-riscv64)");
	if (!o.elf)
		return fail(EXIT_USAGE, "no --elf given (the program the trace ran)");
	if (stat(o.elf, &st) || !S_ISREG(st.st_mode))
		return fail(EXIT_DATA, "no program '%s'", o.elf);
	if (parse_nondet(&nd, nondet))
		return EXIT_USAGE;
	/* A trace on standard input has no FILE.cfg: --config, or the default. */
	if (!strcmp(path, "-")) {
		char err[120];

		tv_config_default(&o.cfg);
		if (cfg_text && tv_config_parse(&o.cfg, cfg_text, err, sizeof(err)))
			return fail(EXIT_USAGE, "--config: %s", err);
	} else if ((rc = load_config(path, cfg_text, &o.cfg))) {
		return rc;
	}
	if (via != VIA_GDBSTUB) {
		if (!plugin)
			plugin = rvperf_plugin_path("RVPERF_TV_PLUGIN", "librvperf-tv.so",
						    plugin_buf, sizeof(plugin_buf));
		if (!plugin || stat(plugin, &st)) {
			if (via == VIA_PLUGIN)
				return fail(EXIT_DATA, "no trace plugin at '%s' (build it, or pass --plugin)",
					    plugin ? plugin : "?");
			via = VIA_GDBSTUB;
		}
	}
	trace_fd = strcmp(path, "-") ? open(path, O_RDONLY) : 0;
	if (trace_fd < 0)
		return fail(EXIT_DATA, "cannot read %s: %s", path, strerror(errno));
	o.nondet = &nd;
	o.nondet_names = !strcmp(nondet, "none") ? "" : nondet;
	o.report = print_divergence;
	rctx.xlen = o.cfg.xlen;
	o.ctx = &rctx;
	/* The plugin path where this QEMU can write registers and memory. */
	if (via == VIA_PROBE) {
		via = tv_verify_plugin_probe(plugin, &o) ? VIA_PLUGIN : VIA_GDBSTUB;
	} else if (via == VIA_PLUGIN && !tv_verify_plugin_probe(plugin, &o)) {
		if (trace_fd > 0)
			close(trace_fd);
		return fail(EXIT_DATA, "%s cannot run the verifier plugin (it needs plugin API 5, "
			    "which writes registers and memory): --via gdbstub", o.qemu);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (via == VIA_PLUGIN) {
		rc = tv_verify_plugin(trace_fd, plugin, &o, &res);
	} else {
		if (trace_fd > 0)
			close(trace_fd);
		trace_fd = -1;
		if (read_file(path, &t))
			return fail(EXIT_DATA, "cannot read %s: %s", path, strerror(errno));
		rc = tv_verify(t.data, t.len, &o, &res);
		free(t.data);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (trace_fd > 0)
		close(trace_fd);
	if (rc < 0)
		return fail(EXIT_DATA, "%s", res.error);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("%" PRIu64 " groups, %" PRIu64 " instructions %s, %" PRIu64
	       " divergence%s (%.0f instructions/s)", res.groups, res.steps,
	       via == VIA_PLUGIN ? "compared in the plugin" : "stepped", res.divergences,
	       res.divergences == 1 ? "" : "s", secs > 0 ? (double)res.steps / secs : 0.0);
	if (res.empty_steps)
		printf("; QEMU ran nothing on %" PRIu64 " step%s, stepped again",
		       res.empty_steps, res.empty_steps == 1 ? "" : "s");
	printf("\n");
	return rc ? EXIT_DATA : 0;
}

/* ------------------------------------------------------------ dispatch */

static const struct {
	const char *name;
	int (*run)(int, char **);
	const char *usage;
} subs[] = {
	{ "dump", tv_dump,
	  "rvperf tv dump [--lenient] [--config TEXT] FILE\n"
	  "  The trace as text: one group per paragraph with its byte offset, the\n"
	  "  instruction disassembled (RV64GC), each item with register names.\n"
	  "  FILE.cfg (or --config \"xlen=32 mlen=34 absent=gpr,...\") gives the\n"
	  "  widths; --lenient forgives what Bluespec's dump tool forgave." },
	{ "from-elf", tv_from_elf,
	  "rvperf tv from-elf ELF -o FILE [--config TEXT]\n"
	  "  A state-initialisation trace that loads ELF's segments and sets pc to\n"
	  "  its entry (writes FILE and FILE.cfg)." },
	{ "diff", tv_diff_cmd,
	  "rvperf tv diff [--max N] [--nondet LIST|none] [--strict] [--lenient]\n"
	  "               [--config TEXT] A B\n"
	  "  Compares two traces of the same program with a shadow state each,\n"
	  "  group by group; reports each divergence (group, pc, instruction,\n"
	  "  element, both values) and resynchronises B from A.  LIST: register\n"
	  "  or element names, or device memory mem:ADDR[+LEN], not to compare;\n"
	  "  what an instruction reads from them is an input (default mtime,\n"
	  "  time,timeh,cycle,cycleh,mcycle,mcycleh,mip,sip; mtime includes the\n"
	  "  virt machine's ACLINT mtime register; with mip, an interrupt one\n"
	  "  trace takes alone is an input: its handler runs uncompared).\n"
	  "  A user-mode run's inputs are declared too: the results of system\n"
	  "  calls that read the thread or process id, the clock or random bytes,\n"
	  "  the AT_RANDOM bytes, and what the program computes from them (the\n"
	  "  stack canary, the TCB's tid).  --strict declares nothing by default\n"
	  "  and reports every difference.  Exit 0 same, 1 divergences." },
	{ "record", tv_record,
	  "rvperf tv record [-o FILE|-] [--xlen 32|64] [--qemu QEMU] [--plugin SO]\n"
	  "                 [--system MACHINE] -- PROG [ARGS]\n"
	  "  Runs PROG under qemu-riscv64 (or, with --system, the bare-metal image\n"
	  "  PROG on qemu-system-riscv64 -M MACHINE -bios none) with the trace\n"
	  "  plugin (user mode: an empty environment, a reserved address space,\n"
	  "  as verify runs it) and writes FILE (default trace.tv) and FILE.cfg,\n"
	  "  which names what this QEMU's plugin API could not give (QEMU 7.2:\n"
	  "  registers, memory data and, in system mode, privilege).  -o -: the\n"
	  "  trace on standard output (no FILE.cfg; the program's output goes to\n"
	  "  /dev/null)." },
	{ "verify", tv_verify_cmd,
	  "rvperf tv verify TRACE|- --qemu QEMU --elf PROG [--user] [--machine M]\n"
	  "                 [--max N] [--nondet LIST|none] [--resync trace|reference]\n"
	  "                 [--via plugin|gdbstub] [--plugin SO] [--config TEXT] [-- ARGS]\n"
	  "  Tandem verification with QEMU as the reference model.  Where QEMU's\n"
	  "  plugin API can write registers and memory (level 5: QEMU 10.2; probed,\n"
	  "  or --via), QEMU runs PROG with the trace plugin, which streams the\n"
	  "  trace in (- : standard input, e.g. from rvperf tv record -o -; its\n"
	  "  configuration from --config) and compares at each retired instruction\n"
	  "  the pc, the registers it writes, the memory it stores and privilege.\n"
	  "  QEMU runs freely: a pc difference resyncs the trace to QEMU (the API\n"
	  "  cannot move QEMU's pc), and an interrupt QEMU does not take where the\n"
	  "  trace has it is reported.  Otherwise through its gdbstub: loads PROG\n"
	  "  (system mode: -M M -bios none -kernel PROG; with --user, qemu-riscv64\n"
	  "  -g PROG ARGS, ARGS as recorded), applies the trace's state-\n"
	  "  initialisation groups, then per group copies the non-deterministic\n"
	  "  state into QEMU, single-steps, compares QEMU with the trace's shadow\n"
	  "  state and reports each divergence (--nondet as for diff; interrupts in\n"
	  "  the trace are written into QEMU, not stepped).  --resync trace (the\n"
	  "  spec's way) copies the shadow state into QEMU after a divergence;\n"
	  "  reference copies QEMU's state into the shadow (for a trace with an\n"
	  "  isolated corruption)." },
};

int rvperf_tv(int argc, char **argv)
{
	if (argc < 2 || is_help(argv[1])) {
		printf("usage: rvperf tv SUBCOMMAND [ARGS]\n");
		for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
			printf("%s\n", subs[i].usage);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		if (strcmp(argv[1], subs[i].name))
			continue;
		sub = subs[i].name;
		if (argc > 2 && is_help(argv[2])) {
			printf("usage: %s\n", subs[i].usage);
			return 0;
		}
		return subs[i].run(argc - 1, argv + 1);
	}
	return fail(EXIT_USAGE, "'%s' is not a tv subcommand", argv[1]);
}
