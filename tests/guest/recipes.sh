#!/bin/sh
# Run the README's media-ctl recipes verbatim, one KTAP result per command.
# build.sh extracts them from README.md into /etc/n900/recipes.
recipes=${1:-/etc/n900/recipes}
cd /tmp || exit 1
if [ ! -r "$recipes" ]; then
	printf 'KTAP version 1\n1..1\nnot ok 1 readme_recipes # %s missing\n' "$recipes"
	exit 1
fi

n=$(grep -cv -e '^#' -e '^[[:space:]]*$' "$recipes")
echo "KTAP version 1"
echo "1..$n"
i=0
grep -v -e '^#' -e '^[[:space:]]*$' "$recipes" | while IFS= read -r cmd; do
	i=$((i + 1))
	out=$(sh -c "$cmd" 2>&1)
	rc=$?
	# v4l2-ctl exits 0 after some failed ioctls; it reports them, though
	if [ $rc -eq 0 ] && echo "$out" | grep -qE 'returned -1|failed|[Ee]rror'; then
		rc=1
	fi
	echo "$out" | tail -n 5 | sed 's/^/# /'
	if [ $rc -eq 0 ]; then
		echo "ok $i readme_recipe: $cmd"
	else
		echo "not ok $i readme_recipe: $cmd # exit $rc"
	fi
done
