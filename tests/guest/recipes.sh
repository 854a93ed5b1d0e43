#!/bin/sh
# Run the README's media-ctl recipes verbatim, one KTAP result per command.
# build.sh extracts them from README.md into /etc/n900/recipes.
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
recipes=${1:-/etc/n900/recipes}
cd /tmp || exit 1
if [ ! -r "$recipes" ]; then
	ktap_plan 1
	ktap_result 0 "readme_recipes # $recipes missing"
	exit 1
fi

grep -v -e '^#' -e '^[[:space:]]*$' "$recipes" >/tmp/recipes.txt
ktap_plan "$(wc -l </tmp/recipes.txt)"
while IFS= read -r cmd; do
	out=$(sh -c "$cmd" 2>&1 </dev/null)
	rc=$?
	# v4l2-ctl exits 0 after some failed ioctls; it reports them, though
	if [ $rc -eq 0 ] && echo "$out" | grep -qE 'returned -1|failed|[Ee]rror'; then
		rc=1
	fi
	echo "$out" | tail -n 5 | sed 's/^/# /'
	if [ $rc -eq 0 ]; then
		ktap_result 1 "readme_recipe: $cmd"
	else
		ktap_result 0 "readme_recipe: $cmd # exit $rc"
	fi
done </tmp/recipes.txt
