#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The N-Trace decoder fuzzer, briefly (FUZZ_BRIEF_SECONDS, default 20):
# any sanitizer report, crash or broken invariant fails the check.  The
# corpus lives in $O and grows from run to run; it starts from encoded
# traces of the fuzzer's own code (gen-seeds).
. "$(dirname "$0")/../tap.sh"
O=${O:-build}
fuzzer=$O/tests/nexus/fuzz-decode
secs=${FUZZ_BRIEF_SECONDS:-20}
if [ ! -x "$fuzzer" ]; then
	echo "ok 1 - N-Trace decoder fuzzer # SKIP clang with libFuzzer not installed"
	echo "1..1"
	exit 0
fi
corpus=$O/tests/nexus/fuzz-corpus
mkdir -p "$corpus"
"$O/tests/nexus/gen-seeds" "$corpus"
ok $? "seed traces written"
log=$O/tests/nexus/fuzz-brief.log
"$fuzzer" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-artifact_prefix="$O/tests/nexus/" "$corpus" >"$log" 2>&1
status=$?
ok $status "N-Trace decoder fuzzer ran $secs s under ASan/UBSan with every invariant holding"
[ $status -eq 0 ] || tail -n 30 "$log" | diag
runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log")
[ -n "$runs" ] && diag "$runs inputs run"
tap_done
