#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-report - `rvperf report` on a recording of more than 1 GB against
# perf 6.12's `perf report -b` (bookworm-backports' linux-perf, the one
# tests/userspace/perf612.sh unpacks) on the same file, in this run: CPU
# seconds (user + system), wall seconds and the largest resident set of
# each, best of ROUNDS (default 1: perf takes minutes).
# The recording: the sample workload (branchy) under `rvperf record -c
# 1009`, so a sample every 1009 instructions with its 16 records; about
# half a minute to make, so it is kept in $RVPERF_CACHE/bench-report/,
# named by what it depends on (branchy, the plugin, record.c and the
# perf.data writer), and only the newest is kept.
# Goal (issue 19): rvperf report takes at most half of perf report -b's
# CPU time and at most half of its memory; exits 1 after printing
# everything when it does not.
set -u
O=${O:-build}
RVPERF_CACHE=${RVPERF_CACHE:-$HOME/.cache/rvperf}
rounds=${ROUNDS:-1}
rvperf=$O/userspace/rvperf
plugin=$O/qemu-model/librvperf-ctr.so
prog=$O/guest/bin/branchy
arg=2200000
[ -x "$rvperf" ] || make -s O="$O" "$rvperf" >/dev/null
[ -f "$plugin" ] || make -s O="$O" "$plugin" >/dev/null
[ -x "$prog" ] || make -s O="$O" "$prog" >/dev/null
if ! command -v qemu-riscv64 >/dev/null; then
	echo "bench-report: SKIP qemu-riscv64 missing (make deps)"
	exit 0
fi
if ! perf=$(tests/userspace/perf612.sh 2>&1); then
	echo "bench-report: SKIP no perf 6.12: $(echo "$perf" | tail -n 1)"
	exit 0
fi
key=$(cat "$prog" "$plugin" userspace/rvperf/record.c userspace/perfdata/writer.c |
	sha256sum | cut -c1-16)
dir=$RVPERF_CACHE/bench-report
data=$dir/branchy-$key.data
if [ ! -s "$data" ]; then
	mkdir -p "$dir"
	rm -f "$dir"/branchy-*.data
	echo "recording branchy $arg with a sample every 1009 instructions into $data ..."
	if ! "$rvperf" record -c 1009 -o "$data.tmp" -- "$prog" "$arg" >/dev/null 2>"$dir/record.err"; then
		echo "bench-report: rvperf record failed: $(tail -n 1 "$dir/record.err")"
		rm -f "$data.tmp"
		exit 1
	fi
	mv "$data.tmp" "$data"
fi

# run CMD...: "cpu-seconds wall-seconds max-rss-kB status" of one run, its
# output thrown away (os.wait4: the child's own rusage).
run() {
	python3 - "$@" <<'PY'
import os, sys, time
t = time.monotonic()
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, ru = os.wait4(pid, 0)
print("%.2f %.2f %d %d" % (ru.ru_utime + ru.ru_stime, time.monotonic() - t,
                           ru.ru_maxrss, os.waitstatus_to_exitcode(status)))
PY
}
best() {	# best "cpu wall rss status"...: the least of each column
	printf '%s\n' "$@" | awk 'NR == 1 || $1 < c {c = $1} NR == 1 || $2 < w {w = $2}
		NR == 1 || $3 < m {m = $3} $4 != 0 {s = $4} END {print c, w, m, s + 0}'
}
ours=() theirs=()
for _ in $(seq "$rounds"); do
	ours+=("$(run "$rvperf" report -i "$data")")
	theirs+=("$(run "$perf" report -b --stdio -i "$data")")
done
set -- $(best "${ours[@]}")
oc=$1 ow=$2 om=$3 os=$4
set -- $(best "${theirs[@]}")
pc=$1 pw=$2 pm=$3 ps=$4
size=$(stat -c %s "$data")
calc() { awk "BEGIN { print $* }"; }
echo "report of a $(calc "$size / 1e9") GB recording (branchy, a sample every 1009 instructions), best of $rounds"
printf '  %-26s cpu %8.2f s   wall %8.2f s   max RSS %8.1f MB   exit %d\n' \
	"rvperf report:" "$oc" "$ow" "$(calc "$om / 1024")" "$os" \
	"perf 6.12 report -b:" "$pc" "$pw" "$(calc "$pm / 1024")" "$ps"
failed=0
cr=$(calc "$oc / $pc")
mr=$(calc "$om / $pm")
for what in "cpu time:$cr" "memory:$mr"; do
	r=${what#*:}
	met=$(calc "($r <= 0.5) ? \"met\" : \"NOT met\"")
	[ "$met" = met ] || failed=1
	printf '  rvperf / perf, %-10s %.3f   (goal <= 0.5: %s)\n' "${what%%:*}" "$r" "$met"
done
[ "$os" = 0 ] && [ "$ps" = 0 ] || { echo "bench-report: a report failed"; failed=1; }
exit "$failed"
