#!/usr/bin/env bash
# tests/host/merge-selftest.sh: KTAP on "tests/host/test.sh merge", the one
# verdict of shard run directories, fed recorded shard directories.
#
# The shard directories are assembled here from the recorded consoles of
# tests/data/consoles/ (pass.log, not-ok.log), with the files a guest
# leaves beside its console. The artefact's plan has three guests: direct-1,
# direct-2 and uboot-n900. The oracle for the counts is the harness run
# directly on exactly the consoles the merge must take, once each, with the
# host results the merge must give (hand-written here): a merge that counts
# a console twice, drops one or forgets a missing guest disagrees with it.
# Also the isolation check of the shard jobs (each ran from the artefact
# alone) on a job directory with a stray file.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
CONSOLES=$TOP/tests/data/consoles
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/host/ktap-ok.sh
. "$TOP/tests/host/ktap-ok.sh"

# artefact: the plan, a lint result, a state without a KTAP parser (the
# harness's awk counts)
art=$tmp/art
mkdir -p "$art/debug"
cat >"$art/guests" <<EOF
direct 0 direct-1 n900 auto 0 n900.shard=1 kasan_multi_shot
direct 1 direct-2 n900 auto 0 n900.shard=2 kasan_multi_shot
uboot 0 uboot-n900 n900 auto 0 n900.shard=boot kasan_multi_shot
EOF
printf 'KTAP version 1\n1..1\nok 1 lint_recorded\n' >"$art/lint.ktap"
echo "KSRC=@BUILD@/ksrc" >"$art/debug/state"
printf 'busybox-static 1:1.37.0-6 armhf\nv4l-utils 1.30.1-1 armhf\n' >"$art/debug/guest-packages"
echo "n900-isp test artefact (merge-selftest)" >"$art/artefact"

# shard DIR GUEST CONSOLE: a recorded shard run directory that ran GUEST,
# whose console was CONSOLE
shard() {
	local d=$tmp/$1
	mkdir -p "$d/$2"
	cp "$3" "$d/$2.log"
	grep "^[^ ]* [^ ]* $2 " "$art/guests" >>"$d/guests"
	cp "$3" "$d/$2/console.ktap"
	echo "[    0.000000] Booting Linux" >"$d/$2/dmesg.txt"
	printf 'qemu_start 1\nkernel_console 2\ninit 3\nend 9\n' >"$d/$2/boot-timing"
	echo console >"$d/$2/share-expected"
	cp "$art/artefact" "$d/artefact-id"
	echo "$2 7" | sed 's/-[^ ]*//' >"$d/phase-seconds"
}
shard s1 direct-1 "$CONSOLES/pass.log"
shard s1-again direct-1 "$CONSOLES/pass.log"
shard s2-fail direct-2 "$CONSOLES/not-ok.log"
shard s2 direct-2 "$CONSOLES/pass.log"
shard s3 uboot-n900 "$CONSOLES/pass.log"
# a run of another artefact (another build): left out
shard s3-other uboot-n900 "$CONSOLES/pass.log"
echo "n900-isp test artefact (another build)" >"$tmp/s3-other/artefact-id"

# expect RUN MISSING TWICE CONSOLE...: the harness on those consoles, and
# host files, with the results the merge must write: merge.ktap (each guest
# ran in one directory: not ok for MISSING, and for TWICE, a guest in two),
# and artefacts.ktap (the guest package versions, recorded in the artefact;
# ok for the guests given, not ok for MISSING); prints its last line
expect() {
	local run=$1 missing=$2 twice=$3 g i
	shift 3
	mkdir -p "$run"
	{
		echo "KTAP version 1"
		echo "1..3"
		i=0
		for g in direct-1 direct-2 uboot-n900; do
			i=$((i + 1))
			case $g in
			"$missing" | "$twice") echo "not ok $i ${g}_ran_in_one_shard_directory" ;;
			*) echo "ok $i ${g}_ran_in_one_shard_directory" ;;
			esac
		done
	} >"$run/merge.ktap"
	{
		echo "KTAP version 1"
		echo "1..4"
		echo "ok 1 guest_package_versions_recorded"
		i=1
		for g in direct-1 direct-2 uboot-n900; do
			i=$((i + 1))
			if [ "$g" = "$missing" ]; then echo "not ok $i ${g}_artefacts_arrived"; else echo "ok $i ${g}_artefacts_arrived"; fi
		done
	} >"$run/artefacts.ktap"
	"$TOP/tests/host/harness.sh" --host "$art/lint.ktap" --host "$run/merge.ktap" --host "$run/artefacts.ktap" \
		--junit "$run/junit.xml" "$@" 2>&1 | tail -n 1 || true
}

# merge RUN DIR...: the merge's last line and status, "LINE|RC"
merge() {
	local run=$1 rc=0 last
	shift
	last=$("$TOP/tests/host/test.sh" merge "$run" "$art" "$@" 2>&1 |
		tee "$run.out" | tail -n 1) || rc=$?
	# the merge's status is the harness's, through "exit"
	[ -n "$last" ] || last="(no output)"
	echo "$last|$rc"
}

echo "KTAP version 1"
echo "1..8"

# a failing shard, a duplicate, a missing shard (uboot-n900: its only run
# is of another artefact)
want=$(expect "$tmp/want-a" uboot-n900 direct-1 "$CONSOLES/pass.log" "$CONSOLES/not-ok.log" "$tmp/none/uboot-n900.log")
got=$(merge "$tmp/run-a" "$tmp/s1" "$tmp/s2-fail" "$tmp/s1-again" "$tmp/s3-other")
ok merge_counts_each_result_once "$([ "${got%|*}" = "$want" ] || echo "merge: '${got%|*}'; the harness on the three consoles once each: '$want'")"
ok merge_fails_on_a_failure_and_a_missing_shard "$([ "${got#*|}" -ne 0 ] || echo "merge exit status 0 with a not ok and a missing guest")"
ok merge_says_which_guest_no_shard_ran "$(grep -q 'no shard directory ran uboot-n900' "$tmp/run-a.out" || echo "no word of the missing uboot-n900")"
ok merge_says_a_duplicate_counts_once "$(grep -q 'direct-1 ran in 2 shard directories' "$tmp/run-a.out" || echo "no word of direct-1's second directory")"
ok merge_leaves_out_another_artefacts_run "$(grep -q 's3-other did not run from this artefact' "$tmp/run-a.out" || echo "no word of s3-other, another artefact's run")"

# every shard there once and passing: it passes
want=$(expect "$tmp/want-b" '' '' "$CONSOLES/pass.log" "$CONSOLES/pass.log" "$CONSOLES/pass.log")
got=$(merge "$tmp/run-b" "$tmp/s1" "$tmp/s2" "$tmp/s3")
ok merge_passes_when_every_shard_passes "$([ "${got#*|}" -eq 0 ] && [ "${got%|*}" = "$want" ] ||
	echo "merge: '${got%|*}' (exit ${got#*|}); the harness on the three consoles: '$want'")"

# a guest that passed in one directory and failed in another: it fails,
# whichever comes first
got=$(merge "$tmp/run-c" "$tmp/s1" "$tmp/s2" "$tmp/s2-fail" "$tmp/s3")
ok merge_fails_a_guest_two_directories_disagree_on "$([ "${got#*|}" -ne 0 ] ||
	echo "merge: '${got%|*}' (exit 0) with direct-2 passing in s2 and failing in s2-fail")"

# the isolation check of ./build.sh test's shard jobs: a stray file in a
# job's build directory (something of the build beside the artefact)
run=$tmp/run-d
mkdir -p "$run/jobs/direct-1-build/logs" "$run/jobs/direct-1-cache" "$run/jobs/direct-2-build" \
	"$run/jobs/direct-2-cache" "$run/jobs/uboot-boot-build" "$run/jobs/uboot-boot-cache"
for j in direct-1 direct-2 uboot-boot; do
	echo "[build] test guests (from the artefact $art): x" >"$run/jobs/$j.log"
done
touch "$run/jobs/direct-1-build/logs/qemu.log" "$run/jobs/direct-2-build/rootfs.cpio"
N900_BUILD_DIR=$art "$TOP/tests/host/test.sh" isolation "$run" "$art" >"$run/shards.ktap" 2>&1 || true
why=$(
	grep -q '^ok 1 direct-1_ran_from_the_artefact_alone' "$run/shards.ktap" || echo "direct-1 (only logs) not ok"
	grep -q '^not ok 2 direct-2_ran_from_the_artefact_alone' "$run/shards.ktap" || echo "direct-2 (a stray rootfs.cpio) not failed"
	grep -q '^ok 3 uboot-boot_ran_from_the_artefact_alone' "$run/shards.ktap" || echo "uboot-boot not ok"
)
ok isolation_fails_a_job_with_more_than_the_artefact "${why:+$why
$(cat "$run/shards.ktap")}"
