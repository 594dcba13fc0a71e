#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The trace decoder fuzzer, briefly (FUZZ_BRIEF_SECONDS, default 20): a
# broken invariant, sanitizer report or crash fails the check.  The corpus
# lives in $O and grows from run to run; it starts from seeds written here
# (the first byte picks XLEN/FLEN/MLEN, mode and chunk size).
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/../fuzz-brief-run.sh"
O=${O:-build}
fuzzer=$O/tests/tv/fuzz-decode
fuzz_brief_skip_unless "$fuzzer" "trace decoder fuzzer"
corpus=$O/tests/tv/fuzz-corpus
mkdir -p "$corpus"
# add gp,t0,t1 (C.1); a store with its response; an orphan end (lenient).
printf '\000\001\003\021\263\201\142\000\004\003\020\064\022\000\000\000\000\000\000\002' >"$corpus/seed-add"
printf '\000\001\010\000\020\000\000\000\000\000\000\041\170\126\064\022\011\002\002' >"$corpus/seed-store"
printf '\020\002\001\013\007\012\000\020\000\000\000\000\000\000\002' >"$corpus/seed-lenient"
# A pc item with every byte set, then enough groups that the whole-buffer
# decode takes its fast path there while the byte-by-byte one does not.
{ printf '\000\001\020\001\000\007\012\021\042\063\104\125\146\167\210\002'
  for _ in 1 2 3 4 5 6 7 8; do printf '\001\003\020\001\000\002'; done; } >"$corpus/seed-fast-path"
fuzz_brief_run "trace decoder fuzzer" "every invariant holds" \
	"$fuzzer" "$corpus" "$O/tests/tv"
tap_done
