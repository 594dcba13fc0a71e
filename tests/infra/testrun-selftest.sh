#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# scripts/testrun.py must count what test programs report and must turn every
# way a program can go wrong without saying "not ok" into a failure.
set -u
. tests/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fixture() {	# fixture NAME BODY: an executable test program
	printf '#!/bin/sh\n%s\n' "$2" >"$tmp/$1"
	chmod +x "$tmp/$1"
}
fixture pass   'echo "ok 1 - a"; echo "ok 2 - b"; echo "1..2"'
fixture fail   'echo "ok 1 - a"; echo "not ok 2 - b"; echo "1..2"; exit 1'
fixture crash  'echo "ok 1 - a"; kill -SEGV $$'
fixture status 'echo "ok 1 - a"; echo "1..1"; exit 3'
fixture plan   'echo "1..3"; echo "ok 1 - a"; echo "ok 2 - b"'
fixture silent 'exit 0'
fixture skip   'echo "1..0 # SKIP no hardware"'
fixture skipone 'echo "ok 1 - a # SKIP not here"; echo "ok 2 - b"; echo "1..2"'
fixture todo   'echo "not ok 1 - known gap # TODO firmware lacks it"; echo "1..1"'
fixture bail   'echo "ok 1 - a"; echo "Bail out! broken"; echo "1..1"'
fixture hang   'echo "ok 1 - a"; sleep 30'

# expect NAME STATUS SUMMARY: running the fixture gives that exit status and
# that last line.
expect() {
	local out status last
	out=$(scripts/testrun.py --log-dir "$tmp/logs" --timeout 2 "$tmp/$1" 2>&1)
	status=$?
	last=$(printf '%s\n' "$out" | tail -n 1)
	[ "$status" -eq "$2" ] && [ "$last" = "$3" ]
	ok $? "$1: exit $2, '$3'"
	[ "$status" -eq "$2" ] && [ "$last" = "$3" ] || diag "got exit $status:" "$out"
}
expect pass    0 '2 passed, 0 failed, 0 skipped'
expect fail    1 '1 passed, 1 failed, 0 skipped'
expect crash   1 '1 passed, 1 failed, 0 skipped'
expect status  1 '1 passed, 1 failed, 0 skipped'
expect plan    1 '2 passed, 1 failed, 0 skipped'
expect silent  1 '0 passed, 1 failed, 0 skipped'
expect skip    0 '0 passed, 0 failed, 1 skipped'
expect skipone 0 '1 passed, 0 failed, 1 skipped'
expect todo    0 '0 passed, 0 failed, 1 skipped'
expect bail    1 '1 passed, 1 failed, 0 skipped'
expect hang    1 '1 passed, 1 failed, 0 skipped'

# Totals add up over several programs, and a NAME= prefix names a test.
out=$(scripts/testrun.py --log-dir "$tmp/logs" "$tmp/pass" "$tmp/skip" \
	"named=$tmp/fail" 2>&1)
[ $? -eq 1 ]
ok $? "one failing program among three fails the run"
[ "$(printf '%s\n' "$out" | tail -n 1)" = '3 passed, 1 failed, 1 skipped' ]
ok $? "totals add up over three programs"
printf '%s\n' "$out" | grep -q '^FAIL named ' 
ok $? "a NAME= prefix names the test"
printf '%s\n' "$out" | grep -q '^  FAIL b$'
ok $? "a failing check is shown by its description"

# --jobs: two at once, lines in the order given; alone: runs after the
# others, by itself.  Each fixture writes when it starts and ends.
fixture slow  "echo start-slow >>$tmp/order; sleep 2; echo end-slow >>$tmp/order; echo 'ok 1 - slow'"
fixture quick "echo start-quick >>$tmp/order; echo end-quick >>$tmp/order; echo 'ok 1 - quick'"
fixture solo  "echo start-solo >>$tmp/order; echo end-solo >>$tmp/order; echo 'ok 1 - solo'"
out=$(scripts/testrun.py --log-dir "$tmp/logs" --jobs 2 "alone:solo=$tmp/solo" \
	"slow=$tmp/slow" "quick=$tmp/quick" 2>&1)
[ "$(printf '%s\n' "$out" | sed -n 's/^PASS \([a-z]*\) .*/\1/p' | tr '\n' ' ')" = 'solo slow quick ' ]
ok $? "with --jobs 2 the lines come in the order given"
line() { grep -n "^$1\$" "$tmp/order" | cut -d: -f1; }
[ "$(line start-quick)" -lt "$(line end-slow)" ]
ok $? "with --jobs 2 two tests run at once"
[ "$(tail -n 2 "$tmp/order" | tr '\n' ' ')" = 'start-solo end-solo ' ]
ok $? "an alone: test runs after the others, by itself"
tap_done
