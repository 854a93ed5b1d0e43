# shellcheck shell=bash
# tests/host/ktap-ok.sh - sourced by the host self-tests that print a KTAP
# document (merge-selftest.sh, gitlab-ci.sh, guest-packages.sh).
#
# ok NAME FINDINGS: the next result, "ok" when FINDINGS is empty, else its
# lines as diagnostics and "not ok"; the count is in $n
n=0
ok() {
	n=$((n + 1))
	if [ -z "$2" ]; then
		echo "ok $n $1"
	else
		printf '%s\n' "$2" | sed 's/^/# /'
		echo "not ok $n $1"
	fi
}
