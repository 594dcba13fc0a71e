#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The scenario-language fuzzer, briefly (FUZZ_BRIEF_SECONDS, default 20):
# a sanitizer report, crash, timeout or broken output rule fails the check.
# The corpus lives in $O and grows from run to run; it starts from the
# scenarios under tests/ctr/.
. "$(dirname "$0")/../../tests/tap.sh"
O=${O:-build}
fuzzer=$O/qemu-model/fuzz-scenario
secs=${FUZZ_BRIEF_SECONDS:-20}
if [ ! -x "$fuzzer" ]; then
	echo "ok 1 - scenario fuzzer # SKIP clang with libFuzzer not installed"
	echo "1..1"
	exit 0
fi
corpus=$O/qemu-model/fuzz-scenario-corpus
mkdir -p "$corpus"
for f in tests/ctr/*.scn tests/ctr/bad/*.scn; do
	[ -f "$f" ] && cp "$f" "$corpus/seed-$(basename "$f")"
done
log=$O/qemu-model/fuzz-scenario-brief.log
nice -n 10 "$fuzzer" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-max_len=4096 -dict=qemu-model/verify/scenario.dict -artifact_prefix="$O/qemu-model/" "$corpus" >"$log" 2>&1
status=$?
ok $status "scenario fuzzer ran $secs s under ASan/UBSan: no crash, UB or malformed error"
[ $status -eq 0 ] || tail -n 30 "$log" | diag
runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log")
[ -n "$runs" ] && diag "$runs inputs run"
tap_done
