// SPDX-License-Identifier: BSD-2-Clause
/*
 * config.c - the encoder options, and the header that carries them in an
 * encoded file so that decoding needs no flags.
 *
 * The header is text: the magic line, one "key=value" line per option (the
 * keys nx_config_set() takes, which are also the CLI's option names), and
 * "end".  Unknown keys are refused: a decoder that ignored an option would
 * rebuild the wrong path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nexus.h"

void nx_config_default(struct nx_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->mode = NX_MODE_HTM;
	cfg->xlen = 64;
	cfg->ret_depth = 32;
	/* The reference encoder's limits: I-CNT overflows past 0x10000,
	 * HIST keeps 30 bits (five MDOs) with its stop bit. */
	cfg->icnt_bits = 16;
	cfg->hist_bits = 30;
	cfg->start_sync = NX_SYNC_EXIT_RESET;
}

int nx_config_check(const struct nx_config *cfg, char *err, size_t errlen)
{
	const char *why = NULL;

	if (cfg->mode != NX_MODE_BTM && cfg->mode != NX_MODE_HTM)
		why = "mode is neither btm nor htm";
	else if (cfg->xlen != 32 && cfg->xlen != 64)
		why = "xlen is neither 32 nor 64";
	else if (cfg->src_bits > 12)
		why = "SRC is at most 12 bits";
	else if (cfg->src_bits && cfg->src_id >> cfg->src_bits)
		why = "SRC id does not fit its width";
	else if (cfg->ret_mode > NX_RETURN_STACK)
		why = "bad implicit return mode";
	else if (cfg->ret_mode && (cfg->ret_depth < 1 || cfg->ret_depth > 32))
		why = "call stack depth is 1 to 32";
	else if (cfg->repeat > (NX_REPEAT_BRANCH | NX_REPEAT_HISTORY))
		why = "bad repeat value";
	else if (cfg->sync_mode > NX_SYNC_ICNT)
		why = "bad sync mode";
	else if (cfg->sync_mode && !cfg->sync_period)
		why = "periodic sync needs a period";
	else if (cfg->icnt_bits < 4 || cfg->icnt_bits > 22)
		why = "I-CNT is 4 to 22 bits";
	else if (cfg->hist_bits < 2 || cfg->hist_bits > 32)
		why = "HIST is 2 to 32 bits";
	else if (cfg->start_sync > 15)
		why = "SYNC is 4 bits";
	if (why && err)
		snprintf(err, errlen, "%s", why);
	return why ? -1 : 0;
}

static int parse_uint(const char *s, unsigned long long max,
		      unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return (errno || end == s || *end || *out > max) ? -1 : 0;
}

int nx_config_set(struct nx_config *cfg, const char *key, const char *value)
{
	unsigned long long v;

	if (!strcmp(key, "mode")) {
		if (!strcmp(value, "btm"))
			cfg->mode = NX_MODE_BTM;
		else if (!strcmp(value, "htm"))
			cfg->mode = NX_MODE_HTM;
		else
			return -1;
		return 0;
	}
	if (!strcmp(key, "sync-mode")) {
		if (!strcmp(value, "off"))
			cfg->sync_mode = NX_SYNC_OFF;
		else if (!strcmp(value, "messages"))
			cfg->sync_mode = NX_SYNC_MESSAGES;
		else if (!strcmp(value, "icnt"))
			cfg->sync_mode = NX_SYNC_ICNT;
		else
			return -1;
		return 0;
	}
	if (parse_uint(value, UINT32_MAX, &v))
		return -1;
	if (!strcmp(key, "xlen"))
		cfg->xlen = v;
	else if (!strcmp(key, "src-bits"))
		cfg->src_bits = v;
	else if (!strcmp(key, "src-id"))
		cfg->src_id = v;
	else if (!strcmp(key, "timestamps"))
		cfg->tstamp = v != 0;
	else if (!strcmp(key, "ext-addr-msb"))
		cfg->ext_addr_msb = v != 0;
	else if (!strcmp(key, "callstack")) {
		cfg->ret_mode = v ? NX_RETURN_STACK : NX_RETURN_OFF;
		if (v)
			cfg->ret_depth = v;
	} else if (!strcmp(key, "partial-callstack")) {
		cfg->ret_mode = v ? NX_RETURN_PARTIAL : NX_RETURN_OFF;
		if (v)
			cfg->ret_depth = v;
	} else if (!strcmp(key, "return-counter")) {
		cfg->ret_mode = v ? NX_RETURN_COUNTER : NX_RETURN_OFF;
		if (v)
			cfg->ret_depth = v;
	} else if (!strcmp(key, "repeat")) {
		/* 0: none, 1: RepeatBranch, 2: and repeated history, 3:
		 * repeated history alone, found as NexRv finds it (also
		 * patterns of 30 and 28 bits). */
		if (v > 3)
			return -1;
		cfg->repeat = v == 0 ? 0 : v == 1 ? NX_REPEAT_BRANCH :
			      v == 2 ? NX_REPEAT_BRANCH | NX_REPEAT_HISTORY :
			      NX_REPEAT_HISTORY;
	} else if (!strcmp(key, "seq-jump"))
		cfg->seq_jump = v != 0;
	else if (!strcmp(key, "all-jumps"))
		cfg->all_jumps = v != 0;
	else if (!strcmp(key, "sync"))
		cfg->sync_period = v;
	else if (!strcmp(key, "ownership"))
		cfg->ownership = v != 0;
	else if (!strcmp(key, "icnt-bits"))
		cfg->icnt_bits = v;
	else if (!strcmp(key, "icnt-sync"))
		cfg->icnt_sync = v != 0;
	else if (!strcmp(key, "hist-bits"))
		cfg->hist_bits = v;
	else if (!strcmp(key, "start-sync"))
		cfg->start_sync = v;
	else if (!strcmp(key, "exts"))
		cfg->exts = v;
	else
		return -1;
	if (!strcmp(key, "sync") && v && !cfg->sync_mode)
		cfg->sync_mode = NX_SYNC_MESSAGES;
	return 0;
}

size_t nx_header_format(const struct nx_config *cfg, char *buf, size_t len)
{
	static const char *const ret_key[] = {
		"callstack", "return-counter", "partial-callstack", "callstack",
	};
	static const char *const sync_name[] = { "off", "messages", "icnt" };
	int n;

	n = snprintf(buf, len,
		     NX_HEADER_MAGIC
		     "mode=%s\nxlen=%u\nsrc-bits=%u\nsrc-id=%u\ntimestamps=%d\n"
		     "ext-addr-msb=%d\n%s=%u\nrepeat=%u\nseq-jump=%d\n"
		     "all-jumps=%d\nsync-mode=%s\nsync=%u\nownership=%d\n"
		     "icnt-bits=%u\nicnt-sync=%d\nhist-bits=%u\nstart-sync=%u\nexts=%u\n"
		     "end\n",
		     cfg->mode == NX_MODE_BTM ? "btm" : "htm", cfg->xlen,
		     cfg->src_bits, cfg->src_id, cfg->tstamp, cfg->ext_addr_msb,
		     ret_key[cfg->ret_mode], cfg->ret_mode ? cfg->ret_depth : 0,
		     cfg->repeat == NX_REPEAT_HISTORY ? 3 :
		     cfg->repeat & NX_REPEAT_HISTORY ? 2 : cfg->repeat ? 1 : 0,
		     cfg->seq_jump, cfg->all_jumps, sync_name[cfg->sync_mode],
		     cfg->sync_period, cfg->ownership, cfg->icnt_bits,
		     cfg->icnt_sync, cfg->hist_bits, cfg->start_sync, cfg->exts);
	return n < 0 ? 0 : (size_t)n;
}

long nx_header_parse(const uint8_t *data, size_t len, struct nx_config *cfg,
		     char *err, size_t errlen)
{
	size_t magic = strlen(NX_HEADER_MAGIC), pos;

	if (len < magic || memcmp(data, NX_HEADER_MAGIC, magic))
		return 0;
	nx_config_default(cfg);
	pos = magic;
	for (;;) {
		char line[128], *eq;
		size_t end = pos;

		while (end < len && data[end] != '\n' && end - pos < sizeof(line) - 1)
			end++;
		if (end >= len || data[end] != '\n') {
			snprintf(err, errlen, "header line at byte %zu is cut or too long",
				 pos);
			return -1;
		}
		memcpy(line, data + pos, end - pos);
		line[end - pos] = '\0';
		pos = end + 1;
		if (!strcmp(line, "end"))
			break;
		eq = strchr(line, '=');
		if (!eq) {
			snprintf(err, errlen, "header line '%s' is not key=value", line);
			return -1;
		}
		*eq = '\0';
		if (nx_config_set(cfg, line, eq + 1)) {
			snprintf(err, errlen, "header option '%s=%s' is unknown or bad",
				 line, eq + 1);
			return -1;
		}
	}
	if (nx_config_check(cfg, err, errlen))
		return -1;
	return (long)pos;
}
