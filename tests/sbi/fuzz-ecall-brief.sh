#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The PMU ecall fuzzer, briefly (FUZZ_BRIEF_SECONDS, default 20): any broken
# invariant, sanitizer report or crash fails the check.  The corpus lives in
# $O and grows from run to run; it starts from a few seeds written here.
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/../fuzz-brief-run.sh"
O=${O:-build}
fuzzer=$O/opensbi-ext/fuzz-ecall
fuzz_brief_skip_unless "$fuzzer" "PMU ecall fuzzer"
corpus=$O/opensbi-ext/fuzz-corpus
mkdir -p "$corpus"
# Seeds: config bytes, then ecalls (op byte = FID, six argument selectors).
printf '\001\002\000\000\002\022\000\000\000\000\000' >"$corpus/seed-config"
printf '\001\002\000\000\002\001\002\001\000\000\000\003\001\003\000\000\000\000' >"$corpus/seed-start"
printf '\001\006\020\000\007\035\000\000\000\000\000\004\000\001\002\000\000\000' >"$corpus/seed-snapshot"
printf '\000\003\000\000\010\036\000\003\000\000\000' >"$corpus/seed-info"
fuzz_brief_run "PMU ecall fuzzer" "every invariant holds" \
	"$fuzzer" "$corpus" "$O/opensbi-ext"
tap_done
