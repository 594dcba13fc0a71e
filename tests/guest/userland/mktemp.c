// SPDX-License-Identifier: BSD-2-Clause
/*
 * mktemp - the guest's mktemp(1) for Linux's perf shell tests.
 *
 * Usage: mktemp [-d] [-q] [-p DIR | -t] [TEMPLATE]
 *
 * busybox's mktemp hands the template to glibc's mkdtemp()/mkstemp(), which
 * refuse anything but exactly six trailing X's; perf's tests use five
 * (mktemp -d /tmp/__perf_test.program.XXXXX), which GNU mktemp accepts.
 * This one accepts, as GNU's does, three or more trailing X's, replaces them
 * with random letters and digits, and creates the directory (-d, mode 0700)
 * or file (mode 0600) exclusively, retrying on a name already taken.  A
 * template without a '/' goes under $TMPDIR (or /tmp) when -t or -p is
 * given; no template means tmp.XXXXXXXXXX there.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static const char chars[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

int main(int argc, char **argv)
{
	const char *dir = NULL, *tmpl = "tmp.XXXXXXXXXX";
	int make_dir = 0, quiet = 0, under_dir = 0, opt, tries;
	size_t len, xs = 0, i;
	char *path;

	while ((opt = getopt(argc, argv, "dqp:t")) != -1) {
		switch (opt) {
		case 'd':
			make_dir = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'p':
			dir = optarg;
			under_dir = 1;
			break;
		case 't':
			under_dir = 1;
			break;
		default:
			fprintf(stderr, "usage: mktemp [-d] [-q] [-p DIR | -t] [TEMPLATE]\n");
			return 1;
		}
	}
	if (optind < argc)
		tmpl = argv[optind];
	else
		under_dir = 1;
	if (optind + 1 < argc) {
		fprintf(stderr, "mktemp: too many templates\n");
		return 1;
	}
	if (under_dir && !dir) {
		dir = getenv("TMPDIR");
		if (!dir || !*dir)
			dir = "/tmp";
	}
	len = strlen(tmpl) + (under_dir ? strlen(dir) + 1 : 0);
	path = malloc(len + 1);
	if (!path)
		return 1;
	if (under_dir)
		snprintf(path, len + 1, "%s/%s", dir, tmpl);
	else
		snprintf(path, len + 1, "%s", tmpl);
	while (xs < len && path[len - 1 - xs] == 'X')
		xs++;
	if (xs < 3) {
		if (!quiet)
			fprintf(stderr, "mktemp: too few X's in template '%s'\n",
				tmpl);
		return 1;
	}

	for (tries = 0; tries < 1000; tries++) {
		unsigned char rnd[64];
		int fd;

		if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
			for (i = 0; i < sizeof(rnd); i++)
				rnd[i] = (unsigned char)rand();
		for (i = 0; i < xs; i++)
			path[len - xs + i] =
				chars[rnd[i % sizeof(rnd)] % (sizeof(chars) - 1)];
		if (make_dir) {
			if (mkdir(path, 0700) == 0)
				break;
		} else {
			fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
			if (fd >= 0) {
				close(fd);
				break;
			}
		}
		if (errno != EEXIST) {
			if (!quiet)
				fprintf(stderr, "mktemp: cannot create %s: %s\n",
					path, strerror(errno));
			return 1;
		}
	}
	if (tries == 1000) {
		if (!quiet)
			fprintf(stderr, "mktemp: no free name for '%s'\n", tmpl);
		return 1;
	}
	printf("%s\n", path);
	return 0;
}
