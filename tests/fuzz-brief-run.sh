# SPDX-License-Identifier: BSD-2-Clause
# What make check's brief fuzzer runs (*-brief.sh) share; source it after
# tests/tap.sh.  Each run keeps its corpus in $O, growing from run to run.

# fuzz_brief_skip_unless FUZZER LABEL: the whole test is one skip when
# FUZZER was not built (clang with libFuzzer not installed).
fuzz_brief_skip_unless() {
	[ -x "$1" ] && return 0
	echo "ok 1 - $2 # SKIP clang with libFuzzer not installed"
	echo "1..1"
	exit 0
}

# fuzz_brief_run LABEL WHAT FUZZER CORPUS DIR [OPTION...]: FUZZER over
# CORPUS for FUZZ_BRIEF_SECONDS (default 20), at low priority, its log and
# any crashing input in DIR; one check, "LABEL ran N s under ASan/UBSan:
# WHAT", with the log's tail when it fails.
fuzz_brief_run() {
	local label=$1 what=$2 fuzzer=$3 corpus=$4 dir=$5 log status runs
	local secs=${FUZZ_BRIEF_SECONDS:-20}
	shift 5
	log=$dir/$(basename "$fuzzer")-brief.log
	nice "$fuzzer" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$dir/" "$@" "$corpus" >"$log" 2>&1
	status=$?
	ok $status "$label ran $secs s under ASan/UBSan: $what"
	[ $status -eq 0 ] || diag "$(tail -n 30 "$log")"
	runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log")
	[ -n "$runs" ] && diag "$runs inputs run"
	return $status
}
