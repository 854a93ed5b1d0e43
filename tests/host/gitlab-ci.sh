#!/usr/bin/env bash
# tests/host/gitlab-ci.sh: KTAP on .gitlab-ci.yml, the GitLab pipeline of
# the sharded suite: the YAML parses (python3-yaml), the test job's
# parallel:matrix names exactly the shards of tests/data/shards, each on
# its boot path ("boot" through U-Boot, every other shard direct), and
# every "./build.sh COMMAND" its jobs run is a command "./build.sh help"
# lists. An argument checks another file instead (to see a check fail).
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
ci=${1:-$TOP/.gitlab-ci.yml}
# shellcheck source=tests/host/ktap-ok.sh
. "$TOP/tests/host/ktap-ok.sh"

# the jobs' matrix ("matrix PATH SHARD") and commands ("command JOB LINE")
facts=$(/usr/bin/python3 - "$ci" 2>&1 <<'PY'
import re, sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
for name, job in doc.items():
    if not isinstance(job, dict):
        continue
    for entry in (job.get("parallel") or {}).get("matrix", []) if isinstance(job.get("parallel"), dict) else []:
        paths = entry.get("N900_BOOT_PATHS", [])
        shards = entry.get("N900_TEST_SHARDS", [])
        for p in paths if isinstance(paths, list) else [paths]:
            for s in shards if isinstance(shards, list) else [shards]:
                print("matrix", p, s)
    for key in ("before_script", "script", "after_script"):
        for entry in job.get(key, []) or []:
            for cmd in re.findall(r"\./build\.sh(?:\s+(\S+))?", str(entry)):
                print("command", name, cmd or "(none)")
PY
) || true
echo "KTAP version 1"
echo "1..4"
if ! grep -q '^matrix ' <<<"$facts"; then
	ok gitlab_ci_yaml_parses "$(tail -n 3 <<<"$facts")"
	for t in matrix_is_the_shard_list matrix_boot_paths commands_exist; do
		echo "not ok $((n += 1)) gitlab_ci_$t # no matrix read from $ci"
	done
	exit 0
fi
ok gitlab_ci_yaml_parses ""

want=$("$TOP/tests/host/test.sh" shard-names | sort)
got=$(awk '$1 == "matrix" { print $3 }' <<<"$facts" | sort)
ok gitlab_ci_matrix_is_the_shard_list "$([ "$want" = "$got" ] ||
	diff <(echo "$want") <(echo "$got") | sed -e 's/^</tests\/data\/shards only:/' -e 's/^>/.gitlab-ci.yml only:/' | grep -v '^[0-9]')"

ok gitlab_ci_matrix_boot_paths "$(awk '$1 == "matrix" {
	want = ($3 == "boot") ? "uboot" : "direct"
	if ($2 != want) printf "shard %s runs on %s; its boot path is %s\n", $3, $2, want }' <<<"$facts")"

help=$("$TOP/build.sh" help)
bad=$(awk '$1 == "command" { print $3 }' <<<"$facts" | sort -u | while read -r c; do
	case $c in
	'(none)') ;;
	*[!a-z-]* | '') echo "./build.sh $c: not a command name (a variable or quoting hides what runs)" ;;
	*) grep -qE "^  $c( |$)|^  \(none\), $c " <<<"$help" || echo "./build.sh $c is not in ./build.sh help" ;;
	esac
done)
ok gitlab_ci_commands_exist "$bad"
