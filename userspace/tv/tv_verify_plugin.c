// SPDX-License-Identifier: BSD-2-Clause
/*
 * tv_verify_plugin.c - rvperf tv verify's plugin path: QEMU runs the
 * program with the trace plugin in its verifier mode
 * (qemu-model/plugin/tv_verify.c), which reads the trace from a
 * descriptor it inherits and sends its reports back on a pipe
 * (tv_verify_plugin.h's records); here they become tv_divergence reports,
 * as the gdbstub path gives them.
 */
#define _GNU_SOURCE	/* execvpe, pipe2 */
#include "userspace/tv/tv_verify_plugin.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Descriptors the plugin inherits sit here or above, where a user-mode
 * guest's open() (which shares QEMU's) does not reach. */
#define PLUGIN_FD_MIN 512
/* How long the probe may take (QEMU loading, the plugin saying yes). */
#define PROBE_SECONDS 30

const char *tv_vrec_what_text(unsigned int what)
{
	switch (what) {
	case TV_VWHAT_EXITED:
		return "QEMU's program exited here";
	case TV_VWHAT_NO_IRQ:
		return "an interrupt in the trace: the plugin path cannot give it to QEMU";
	case TV_VWHAT_QEMU_IRQ:
		return "QEMU took an interrupt here, the trace does not";
	default:
		return NULL;
	}
}

/* In the child: FD moved up out of a guest's reach, kept over exec. */
static int lift_fd(int fd)
{
	int high = fcntl(fd, F_DUPFD, PLUGIN_FD_MIN);

	if (high < 0)
		_exit(127);
	return high;
}

bool tv_verify_plugin_probe(const char *plugin, const struct tv_verify_opts *o)
{
	char arg[4200], *args[40 + 64], answer[16] = "";
	int p[2], status;
	size_t got = 0;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return false;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return false;
	}
	if (pid == 0) {
		int fd = lift_fd(p[1]);
		int devnull = open("/dev/null", O_RDWR);

		/* QEMU's complaints (no -plugin option, a plugin it refuses)
		 * are the answer "no", not the user's concern. */
		if (devnull > 2) {
			dup2(devnull, 2);
			close(devnull);
		}
		char *how[2] = { "-plugin", arg };

		snprintf(arg, sizeof(arg), "%s,probe=%d", plugin, fd);
		if (tv_qemu_args(o, how, 2, args, (int)(sizeof(args) / sizeof(args[0]))) < 0)
			_exit(127);
		tv_qemu_exec(o, args, true);
	}
	close(p[1]);
	for (;;) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		ssize_t k;
		int r = poll(&pf, 1, PROBE_SECONDS * 1000);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		k = read(p[0], answer + got, sizeof(answer) - 1 - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
		if (got == sizeof(answer) - 1)
			break;
	}
	close(p[0]);
	if (waitpid(pid, &status, WNOHANG) == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	answer[got] = 0;
	return !strcmp(answer, TV_VERIFY_PROBE_YES);
}

static int read_rec(int fd, struct tv_vrec *r)
{
	size_t got = 0;

	while (got < sizeof(*r)) {
		ssize_t k = read(fd, (char *)r + got, sizeof(*r) - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return got ? -1 : 0;
		got += (size_t)k;
	}
	return 1;
}

int tv_verify_plugin(int trace_fd, const char *plugin, const struct tv_verify_opts *o,
		     struct tv_verify_result *res)
{
	char arg[4200], nondet[1024], *args[40 + 64];
	struct tv_vrec r;
	int p[2], status, rc = -1;
	bool ended = false;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	/* QEMU splits plugin arguments at commas: the names go with ';'. */
	snprintf(nondet, sizeof(nondet), "%s", o->nondet_names ? o->nondet_names : "");
	for (char *c = nondet; *c; c++)
		if (*c == ',')
			*c = ';';
	if (pipe2(p, O_CLOEXEC)) {
		snprintf(res->error, sizeof(res->error), "pipe: %s", strerror(errno));
		return -1;
	}
	signal(SIGPIPE, SIG_IGN);
	pid = fork();
	if (pid < 0) {
		snprintf(res->error, sizeof(res->error), "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		int tfd = lift_fd(trace_fd), rfd = lift_fd(p[1]);
		char *how[2] = { "-plugin", arg };

		if (trace_fd > 2)
			close(trace_fd);

		/* A trace on standard input is not the program's input. */
		if (trace_fd == 0) {
			int devnull = open("/dev/null", O_RDONLY);

			/* Not left open: the guest's open()s get the
			 * descriptors they got when recorded. */
			if (devnull > 0) {
				dup2(devnull, 0);
				close(devnull);
			}
		}
		snprintf(arg, sizeof(arg),
			 "%s,verify=%d,report=%d,xlen=%u,flen=%u,mlen=%u,absent=%u,max=%llu,"
			 "resync=%s,mode=%s%s%s%s",
			 plugin, tfd, rfd, o->cfg.xlen, o->cfg.flen, o->cfg.mlen, o->cfg.absent,
			 (unsigned long long)o->max,
			 o->resync_from_reference ? "reference" : "trace",
			 o->mode == TV_LENIENT ? "lenient" : "strict",
			 *nondet ? ",nondet=" : "", nondet,
			 *nondet && o->user ? ",inputs=user" : "");
		if (tv_qemu_args(o, how, 2, args, (int)(sizeof(args) / sizeof(args[0]))) < 0)
			_exit(127);
		tv_qemu_exec(o, args, true);
	}
	close(p[1]);
	for (;;) {
		int k = read_rec(p[0], &r);

		if (k <= 0)
			break;
		if (r.type == TV_VREC_DIVERGENCE) {
			struct tv_divergence d = { 0 };

			d.group = r.group;
			d.offset_a = d.offset_b = r.offset;
			d.pc = r.pc;
			d.insn = r.insn;
			d.has_insn = r.has_insn;
			d.elem.kind = r.kind;
			d.elem.size = r.size;
			d.elem.reg = r.reg;
			d.elem.addr = r.addr;
			d.a = r.a;
			d.a_known = r.a_known;
			d.b = r.b;
			d.b_known = r.b_known;
			d.what = tv_vrec_what_text(r.what);
			if (o->report)
				o->report(o->ctx, &d);
		} else if (r.type == TV_VREC_END) {
			res->groups = r.group;
			res->steps = r.a;
			res->divergences = r.b;
			ended = true;
			rc = res->divergences ? 1 : 0;
		} else if (r.type == TV_VREC_ERROR) {
			r.msg[sizeof(r.msg) - 1] = 0;
			snprintf(res->error, sizeof(res->error), "%s", r.msg);
			ended = true;
			rc = -1;
		}
	}
	close(p[0]);
	waitpid(pid, &status, 0);
	if (!ended) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			snprintf(res->error, sizeof(res->error), "cannot run %s", o->qemu);
		else if (WIFSIGNALED(status))
			snprintf(res->error, sizeof(res->error),
				 "%s killed by signal %d before the verifier's summary", o->qemu,
				 WTERMSIG(status));
		else
			snprintf(res->error, sizeof(res->error),
				 "%s exited (status %d) before the verifier's summary", o->qemu,
				 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		rc = -1;
	}
	return rc;
}
