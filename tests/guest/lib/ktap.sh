# shellcheck shell=sh
# KTAP output for the guest test suites (tests/guest/*.sh, busybox sh).
# Installed in the guest as /usr/lib/n900/tests/lib/ktap.sh; a suite
# sources it and prints one KTAP document:
#
#	. /usr/lib/n900/tests/lib/ktap.sh
#	ktap_plan 2
#	ktap_result "$ok" first_check "what it saw"
#	ktap_skip second_check "why it could not run"
#
# Results are numbered in order (KTAP_COUNT, the number of the last one
# printed). The harness (tests/host/harness.sh) compares results by name
# across runs: a result's NAME is its identity. A NAME may end in
# " # COMMENT", KTAP's diagnostic on the result line itself.
#
# Counting happens in this shell: a result printed inside a pipeline
# ("... | while read") is counted in a subshell and lost to the caller;
# loop over a file or a here-document instead. Its variables start with
# KTAP_ or ktap_ (POSIX sh has no "local").

KTAP_COUNT=0

# ktap_plan N: the document's header, for N results
ktap_plan() {
	KTAP_COUNT=0
	echo "KTAP version 1"
	echo "1..$1"
}

# ktap_diag LINE...: each non-empty LINE as a diagnostic line, "# LINE"
ktap_diag() {
	for ktap_d in "$@"; do
		[ -z "$ktap_d" ] || echo "# $ktap_d"
	done
}

# ktap_result OK NAME [DIAG...]: the next result, "ok" when OK is 1 and
# "not ok" otherwise, after its diagnostic lines (ktap_diag). A shell
# status gives OK as $(($? == 0)).
ktap_result() {
	ktap_ok=$1 ktap_name=$2
	shift 2
	KTAP_COUNT=$((KTAP_COUNT + 1))
	ktap_diag "$@"
	if [ "$ktap_ok" = 1 ]; then
		echo "ok $KTAP_COUNT $ktap_name"
	else
		echo "not ok $KTAP_COUNT $ktap_name"
	fi
}

# ktap_skip NAME REASON: the next result, skipped; REASON says why
ktap_skip() {
	KTAP_COUNT=$((KTAP_COUNT + 1))
	echo "ok $KTAP_COUNT $1 # SKIP $2"
}

# ktap_no_leak: the result "no_leak": kmemleak has nothing to report
# (n900_leaks of /etc/n900/functions); skipped, saying why, on a kernel
# without kmemleak
ktap_no_leak() {
	if ktap_leaks=$(n900_leaks); then
		ktap_ok=0
		[ "$ktap_leaks" = 0 ] && ktap_ok=1
		ktap_result $ktap_ok no_leak "kmemleak: $ktap_leaks unreferenced objects"
	else
		ktap_skip no_leak "this kernel has no kmemleak"
	fi
}
