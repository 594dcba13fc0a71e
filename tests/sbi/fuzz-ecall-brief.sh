#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The PMU ecall fuzzer, briefly (FUZZ_BRIEF_SECONDS, default 20): any broken
# invariant, sanitizer report or crash fails the check.  The corpus lives in
# $O and grows from run to run; it starts from a few seeds written here.
. "$(dirname "$0")/../tap.sh"
O=${O:-build}
fuzzer=$O/opensbi-ext/fuzz-ecall
secs=${FUZZ_BRIEF_SECONDS:-20}
if [ ! -x "$fuzzer" ]; then
	echo "ok 1 - PMU ecall fuzzer # SKIP clang with libFuzzer not installed"
	echo "1..1"
	exit 0
fi
corpus=$O/opensbi-ext/fuzz-corpus
mkdir -p "$corpus"
# Seeds: config bytes, then ecalls (op byte = FID, six argument selectors).
printf '\001\002\000\000\002\022\000\000\000\000\000' >"$corpus/seed-config"
printf '\001\002\000\000\002\001\002\001\000\000\000\003\001\003\000\000\000\000' >"$corpus/seed-start"
printf '\001\006\020\000\007\035\000\000\000\000\000\004\000\001\002\000\000\000' >"$corpus/seed-snapshot"
printf '\000\003\000\000\010\036\000\003\000\000\000' >"$corpus/seed-info"
log=$O/opensbi-ext/fuzz-brief.log
"$fuzzer" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-artifact_prefix="$O/opensbi-ext/" "$corpus" >"$log" 2>&1
status=$?
ok $status "PMU ecall fuzzer ran $secs s under ASan/UBSan with every invariant holding"
[ $status -eq 0 ] || tail -n 30 "$log" | diag
runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log")
[ -n "$runs" ] && diag "$runs inputs run"
tap_done
