#!/usr/bin/env bash
# tests/host/test.sh - the test step of ./build.sh test, in three parts:
#
#   test.sh plan RUN     which guests to boot, from the one shard list
#                        tests/data/shards and the N900_* knobs, into
#                        RUN/guests: "PATH LANE NAME TOPOLOGY SHARE PICTURES
#                        KERNEL_ARGS...", one guest a line. The direct path
#                        boots every shard but "boot" (the "stress" shard on
#                        each stress topology, after the first shard's
#                        guest); the U-Boot path boots each configuration of
#                        board/n900.its with the "boot" shard. N900_SUITES
#                        keeps only the shards that hold those suites and
#                        passes n900.suites= to the guests.
#   test.sh boot RUN     boots the guests of RUN/guests (board/qemu.sh boot,
#                        the debug kernel), one path after the other, the
#                        lanes of a path side by side (one vCPU each)
#   test.sh verdict RUN  the artefact checks (RUN/artefacts.ktap), the boot
#                        report (RUN/boot-timing.txt) and tests/host/harness.sh
#                        on every console with RUN/lint.ktap; its last line,
#                        "N passed, N failed", and its exit status are the
#                        run's
#
# Sharing one build between machines (CI runners):
#
#   test.sh pack RUN OUT        the artefact: what the guests of RUN/guests
#                               need (kernel, initramfs, FIT, trees, their
#                               expected topologies), the plan, the lint
#                               results and the KTAP parser, into the
#                               directory OUT, or the tarball OUT.tar
#   test.sh shards RUN ART      every shard job of ART's plan (a boot path
#                               and a shard: "direct-1", "uboot-boot"), each
#                               as "./build.sh test" from the artefact ART in
#                               a directory of its own, RUN/shards/JOB (its
#                               work files in RUN/jobs/); the
#                               jobs of different lanes side by side
#   test.sh merge RUN ART DIR...  the one verdict of the shard run
#                               directories DIR: each guest of ART's plan is
#                               taken once, from the first DIR that ran it; a
#                               guest that no DIR ran fails
#
# With N900_BUILD_DIR set to an unpacked artefact (./build.sh test with
# N900_ARTEFACT), plan takes the artefact's plan, only its guests of
# N900_TEST_SHARDS and N900_BOOT_PATHS.
# shellcheck source=board/lib.sh
. "$(dirname "$0")/../../board/lib.sh"

SHARDS=$TOP/tests/data/shards
# from an artefact, its own copy of the list
[ ! -f "$BUILD/artefact" ] || SHARDS=$BUILD/shards
# shard_names: the shards of tests/data/shards (SHARD[@TOPOLOGY] SUITE
# [ARGS...]), in file order
shard_names() { awk '!/^[[:space:]]*(#|$)/ { sub(/@.*/, "", $1); if (!seen[$1]++) print $1 }' "$SHARDS"; }
# suites SHARD TOPOLOGY: the suites that shard runs on that topology
suites() {
	local spec name rest
	while read -r spec name rest; do
		[ "${spec%%@*}" = "$1" ] || continue
		# shellcheck disable=SC2053 # the pattern comes from the list
		[[ $spec != *@* || $2 == ${spec#*@} ]] || continue
		echo "$name"
	done < <(grep -v '^[[:space:]]*\(#\|$\)' "$SHARDS")
}

plan() {
	local run=$1 s known shards=() paths=() stress=() want=() p topo n900=${N900_TOPOLOGY:-n900}
	local args i=0 lane
	if [ -f "$BUILD/artefact" ]; then
		artefact_plan "$run"
		return
	fi
	known=$(shard_names | tr '\n' ' ')
	read -r -a shards <<<"${N900_TEST_SHARDS:-$(shard_names | grep -vx boot | tr '\n' ' ')}"
	for s in "${shards[@]}"; do
		[[ " $known " == *" $s "* ]] || die "N900_TEST_SHARDS: no shard '$s' in tests/data/shards ($known)"
	done
	read -r -a paths <<<"${N900_BOOT_PATHS:-direct uboot}"
	for p in "${paths[@]}"; do
		case $p in direct | uboot) ;; *) die "N900_BOOT_PATHS: no boot path '$p' (direct, uboot)" ;; esac
	done
	read -r -a stress <<<"${N900_STRESS_TOPOLOGIES:-chain-64 mesh-256}"
	for topo in "${stress[@]}"; do
		[[ $topo =~ ^(chain|fan|mesh)-[0-9]+$ ]] ||
			die "N900_STRESS_TOPOLOGIES: '$topo' is not chain-N, fan-N or mesh-N"
	done
	# N900_SUITES=frames,power: those suites (with or without .sh), by
	# their names in tests/data/shards
	SUITES=()
	IFS=, read -r -a want <<<"${N900_SUITES:-}"
	for s in ${want[@]+"${want[@]}"}; do
		p=$(awk -v n="$s" '!/^[[:space:]]*(#|$)/ && ($2 == n || $2 == n ".sh") { print $2; exit }' "$SHARDS")
		[ -n "$p" ] || die "N900_SUITES: no suite '$s'; the suites are: $(awk '!/^[[:space:]]*(#|$)/ { print $2 }' "$SHARDS" | sort -u | tr '\n' ' ')"
		SUITES+=("$p")
	done
	args=kasan_multi_shot
	[ ${#SUITES[@]} -eq 0 ] || args="$args n900.suites=$(IFS=,; echo "${SUITES[*]}")"
	: >"$run/guests"
	for p in "${paths[@]}"; do
		if [ "$p" = uboot ]; then
			fit_configs | grep -qx "$n900" ||
				die "N900_TOPOLOGY=$n900 is not a configuration of board/n900.its; use N900_BOOT_PATHS=direct"
			for topo in $(fit_configs); do
				guest uboot $((i++ % 3)) "uboot-$topo" "$topo" auto boot || true
			done
			continue
		fi
		lane=0
		for s in "${shards[@]}"; do
			if [ "$s" = stress ]; then
				# short guests, after the second shard's (the shorter one)
				for topo in "${stress[@]}"; do
					guest direct "$((lane > 1 ? 1 : 0))" "direct-$topo" "$topo" console stress || true
				done
			elif guest direct "$lane" "direct-$s" "$n900" "$(share_of "$s")" "$s"; then
				lane=$((lane + 1))
			fi
		done
	done
	[ -s "$run/guests" ] || die "no guest to boot (N900_TEST_SHARDS, N900_BOOT_PATHS, N900_SUITES)"
	say "test guests: $(awk '{ print $3 }' "$run/guests" | tr '\n' ' ')${N900_SUITES:+(suites: ${SUITES[*]})}"
}

# share_of SHARD: how a guest of the shard hands its artefacts over: the
# fault guest over the console, because suspend.sh puts it to sleep, and
# virtio resets its devices at resume, which virtio-9p does not survive
# (its requests would wait forever); the others by virtio-9p when QEMU has
# it (auto)
share_of() {
	if [ "$1" = faults ]; then echo console; else echo auto; fi
}

# guest PATH LANE NAME TOPOLOGY SHARE SHARD: a line of RUN/guests, if the
# shard runs a suite (one of N900_SUITES) on that topology
guest() {
	local have pics=0
	have=$(suites "$6" "$4")
	[ ${#SUITES[@]} -eq 0 ] || have=$(grep -xF -f <(printf '%s\n' "${SUITES[@]}") <<<"$have" || true)
	[ -n "$have" ] || return 1
	# pictures to draw: 1, the frames and power log of artefacts.sh; 2,
	# the 3A run of 3a.sh
	! grep -qx artefacts.sh <<<"$have" || pics=1
	! grep -qx 3a.sh <<<"$have" || pics=$((pics | 2))
	echo "$1 $2 $3 $4 $5 $pics n900.shard=$6 $args" >>"$run/guests"
}

# lane RUN PATH LANE: the guests of one lane, one after the other
lane() {
	local p l name topo share pics args opts
	while read -r p l name topo share pics args; do
		if [ "$p" != "$2" ] || [ "$l" != "$3" ]; then continue; fi
		opts=(--append "$args")
		[ "$p" = direct ] || opts+=(--uboot)
		[ "$share" = auto ] || opts+=(--console)
		"$TOP/board/qemu.sh" boot "${opts[@]}" debug test "$topo" "$1" "$name" >/dev/null
	done <"$1/guests"
}

boot() {
	local run=$1 p l pids t0 where g line alive ticks paths lanes names
	mapfile -t paths < <(awk '{ print $1 }' "$run/guests" | uniq)
	for p in "${paths[@]}"; do
		mapfile -t lanes < <(awk -v p="$p" '$1 == p { print $2 }' "$run/guests" | sort -u)
		mapfile -t names < <(awk -v p="$p" '$1 == p { print $3 }' "$run/guests")
		t0=$SECONDS pids=() ticks=0
		say "==> $p boot: $(grep -c "^$p " "$run/guests") test guests (timeout ${N900_BOOT_TIMEOUT:-3600}s each): $(awk -v p="$p" '$1 == p { printf "%s ", $3 }' "$run/guests")"
		for l in "${lanes[@]}"; do
			lane "$run" "$p" "$l" &
			pids+=($!)
		done
		# progress: every minute, the suite each guest is in
		while :; do
			alive=0
			for l in "${pids[@]}"; do ! kill -0 "$l" 2>/dev/null || alive=1; done
			[ $alive = 1 ] || break
			sleep 5
			ticks=$((ticks + 1))
			[ $((ticks % 12)) -eq 0 ] || continue
			where=
			for g in "${names[@]}"; do
				[ -f "$run/$g.log" ] || continue
				if grep -q '^N900-TESTS-END' "$run/$g.log"; then
					line=finished
				else
					line=$(grep -a '^# suite ' "$run/$g.log" | tail -n 1 |
						sed -e 's|.*/||' -e 's| starts.*||' || true)
				fi
				where="$where $g: ${line:-booting};"
			done
			say "    $((SECONDS - t0)) s:$where"
		done
		wait "${pids[@]}" || true
		echo "$p $((SECONDS - t0))" >>"$run/phase-seconds"
		say "    $p boot: the guests took $((SECONDS - t0)) s"
	done
}

# artefacts RUN: a host-side KTAP document on what the guests left in the
# run directory: each guest's files arrived (virtio-9p or the console), and
# the frames and power log of the guests that ran artefacts.sh can be drawn
artefacts() {
	local run=$1 n=0 d want why ok png p l g topo share pics args
	echo "KTAP version 1"
	echo "1..$(awk '{ n += 1 + $6 % 2 + int($6 / 2) } END { print n + 1 }' "$run/guests")"
	# the exact version of every guest package (rootfs/packages.sh
	# manifest), recorded in the run directory
	n=1
	if awk 'NF != 3 { bad = 1 } END { exit bad || NR == 0 }' "$run/guest-packages" 2>/dev/null &&
		grep -q '^v4l-utils ' "$run/guest-packages" && grep -q '^busybox-static ' "$run/guest-packages"; then
		echo "ok $n guest_package_versions_recorded"
	else
		echo "# no $run/guest-packages with a PACKAGE VERSION ARCH line for each guest package"
		echo "not ok $n guest_package_versions_recorded"
	fi
	while read -r p l g topo share pics args; do
		d=$run/$g
		n=$((n + 1))
		why=
		for f in console.ktap dmesg.txt; do
			[ -s "$d/$f" ] || why="$why no $f;"
		done
		grep -q '^N900-TESTS-END' "$d/console.ktap" 2>/dev/null || why="$why console.ktap incomplete;"
		grep -q '^init ' "$d/boot-timing" 2>/dev/null || why="$why never reached /init;"
		# the way the guest says it used must be the one the host gave
		case $(cat "$d/share-expected" 2>/dev/null) in
		9p) want='(virtio-9p)' ;;
		*) want='(console)' ;;
		esac
		tr -d '\r' <"$run/$g.log" 2>/dev/null | grep '^N900-BOOT: mode' | grep -qF "$want" ||
			why="$why the guest did not hand its files over $want;"
		if [ -z "$why" ]; then
			echo "ok $n ${g}_artefacts_arrived"
		else
			echo "# $d:$why"
			echo "not ok $n ${g}_artefacts_arrived"
		fi
		if [ $((pics & 2)) = 2 ]; then
			# the 3A example's run (3a.sh): its frames and plot
			n=$((n + 1))
			if "$TOP/tests/host/render.sh" 3a "$d" >"$d/render-3a.log" 2>&1 &&
				[ -s "$d/3a/before.png" ] && [ -s "$d/3a/after.png" ] &&
				[ -s "$d/3a/convergence.png" ]; then
				echo "ok $n ${g}_3a_pictures_drawn"
			else
				sed 's/^/# /' "$d/render-3a.log" 2>/dev/null || true
				echo "not ok $n ${g}_3a_pictures_drawn"
			fi
		fi
		[ $((pics & 1)) = 1 ] || continue
		n=$((n + 1))
		ok=1
		# drawn once: by the shard job's verdict, not again by the merge
		[ -s "$d/frames/resizer.png" ] && [ -s "$d/power-timeline.png" ] ||
		("$TOP/tests/host/render.sh" frames "$d" &&
			"$TOP/tests/host/render.sh" power "$d/power-events.tsv" "$d/power-timeline.png") \
			>"$d/render.log" 2>&1 || ok=0
		for png in resizer preview raw front; do
			[ -s "$d/frames/$png.png" ] || { ok=0; echo "# no $d/frames/$png.png"; }
		done
		if [ $ok = 1 ]; then
			echo "ok $n ${g}_pictures_drawn"
		else
			sed 's/^/# /' "$d/render.log" 2>/dev/null || true
			echo "not ok $n ${g}_pictures_drawn"
		fi
	done <"$run/guests"
}

# boot_report RUN: what the U-Boot path costs against the direct boot, from
# the guests' boot-timing files and the phases' wall time, as ratios
# inside this run
boot_report() {
	local run=$1 g
	awk '{ print $3 }' "$run/guests" | while read -r g; do
		[ -f "$run/$g/boot-timing" ] || continue
		awk -v g="$g" '{ t[$1] = $2 } END {
			if (t["init"] != "" && t["qemu_start"] != "")
				printf "%s %s %.3f %.3f\n", substr(g, 1, index(g, "-") - 1), g,
					t["kernel_console"] - t["qemu_start"], t["init"] - t["qemu_start"] }' \
			"$run/$g/boot-timing"
	done | awk -v phases="$run/phase-seconds" '
		BEGIN { print "Boot timing (QEMU start to the first kernel console line and to /init):" }
		{ n[$1]++; k[$1] += $3; i[$1] += $4
		  printf "  %-22s kernel console after %6.2f s, /init after %6.2f s\n", $2, $3, $4 }
		END {
			while ((getline line < phases) > 0) { split(line, p, " "); ph[p[1]] = p[2] }
			for (b in n) printf "  %s boot: mean over %d guests: kernel console %.2f s, /init %.2f s; the guests took %s s\n",
				b, n[b], k[b] / n[b], i[b] / n[b], ph[b]
			if (n["direct"] && n["uboot"]) {
				d = i["direct"] / n["direct"]; u = i["uboot"] / n["uboot"]
				printf "  U-Boot against direct: /init reached %.2fx as late (%+.2f s per boot)\n", u / d, u - d
			}
		}'
}

verdict() {
	local run=$1 consoles=() hosts=() f rc=0
	artefacts "$run" >"$run/artefacts.ktap"
	boot_report "$run" | tee "$run/boot-timing.txt"
	mapfile -t consoles < <(awk -v r="$run" '{ print r "/" $3 ".log" }' "$run/guests")
	# the harness's last line, "N passed, N failed", is the last line of
	# the run, and its exit status the run's
	for f in "$run"/lint*.ktap "$run/shards.ktap" "$run/merge.ktap" "$run/artefacts.ktap"; do
		[ ! -f "$f" ] || hosts+=(--host "$f")
	done
	"$TOP/tests/host/harness.sh" "${hosts[@]}" \
		--ksrc "$(state_get debug KSRC)" --junit "$run/junit.xml" "${consoles[@]}" 2>&1 | tee "$run/summary.txt" || rc=$?
	exit "$rc"
}

# guest_shard LINE...: the shard of a line of RUN/guests (its n900.shard=)
guest_shard() { sed -n 's/\(^\|.* \)n900\.shard=\([^ ]*\).*/\2/p'; }

# artefact_plan RUN: RUN/guests from the artefact's plan, the guests of the
# shards and boot paths asked for
artefact_plan() {
	local run=$1 shards paths p l name topo share pics args s known want=()
	[ -z "${N900_SUITES:-}" ] ||
		die "N900_SUITES cannot narrow an artefact's guests: it is fixed when the artefact is packed"
	known=$(guest_shard <"$BUILD/guests" | sort -u | tr '\n' ' ')
	shards=" ${N900_TEST_SHARDS:-$known} " paths=" ${N900_BOOT_PATHS:-direct uboot} "
	read -r -a want <<<"$shards"
	for s in ${want[@]+"${want[@]}"}; do
		[[ " $known " == *" $s "* ]] || die "N900_TEST_SHARDS: the artefact has no shard '$s' (it has: $known)"
	done
	: >"$run/guests"
	while read -r p l name topo share pics args; do
		s=$(guest_shard <<<"$args")
		[[ $paths == *" $p "* && $shards == *" $s "* ]] || continue
		echo "$p $l $name $topo $share $pics $args" >>"$run/guests"
	done <"$BUILD/guests"
	[ -s "$run/guests" ] ||
		die "the artefact has no guest on boot paths${paths% } for shards${shards% }"
	say "test guests (from the artefact $BUILD): $(awk '{ print $3 }' "$run/guests" | tr '\n' ' ')"
}

# pack RUN OUT: the artefact of RUN's plan into the directory OUT, or into
# the tarball OUT when it ends in .tar. Paths in its debug/state are
# "@BUILD@/...": it works wherever it is unpacked.
pack() {
	local run=$1 out=$2 dir topo tar=
	case $out in *.tar) tar=$out dir=$run/artefact.pack ;; *) dir=$out ;; esac
	# OUT is replaced: only if it is an artefact, or empty
	[ -z "$(ls -A "$dir" 2>/dev/null)" ] || [ -f "$dir/artefact" ] ||
		die "pack: $dir exists and is not an artefact; give a new directory or a .tar"
	step "packing the test artefact: ${out#"$TOP"/}"
	rm -rf "$dir"
	mkdir -p "$dir/debug" "$dir/dt" "$dir/ksrc/tools/testing"
	cp "$run/guests" "$SHARDS" "$dir/"
	cp "$run"/lint*.ktap "$dir/" 2>/dev/null || true
	cp "$(state_get debug ZIMAGE)" "$dir/debug/zImage"
	cp "$(state_get debug INITRD)" "$dir/debug/rootfs.cpio"
	{
		echo "ZIMAGE=@BUILD@/debug/zImage"
		echo "INITRD=@BUILD@/debug/rootfs.cpio"
		echo "INITRD_SIZE=$(state_get debug INITRD_SIZE)"
		echo "KVER=$(state_get debug KVER)"
		# the KTAP parser of the verdict (kunit.py parse)
		echo "KSRC=@BUILD@/ksrc"
	} >"$dir/debug/state"
	if grep -q '^uboot ' "$run/guests"; then
		cp -a "$(dirname "$(state_get debug FIT)")" "$dir/debug/fit"
		rm -f "$dir/debug/fit"/*.txt
		echo "FIT=@BUILD@/debug/fit/$(basename "$(state_get debug FIT)")" >>"$dir/debug/state"
	fi
	awk '{ print $4 }' "$run/guests" | sort -u | while read -r topo; do
		cp "$BUILD/dt/$topo.dtb" "$BUILD/dt/$topo.cmdline" "$dir/dt/"
		[ ! -f "$BUILD/dt/$topo.expected" ] || cp "$BUILD/dt/$topo.expected" "$dir/dt/"
	done
	(cd "$(state_get debug KSRC)/tools/testing" &&
		tar -cf - --exclude=test_data --exclude=__pycache__ kunit) | tar -xf - -C "$dir/ksrc/tools/testing"
	cp "$BUILD/debug/guest-packages" "$dir/debug/"
	{
		echo "n900-isp test artefact"
		echo "commit $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo unknown)"
		echo "packed $(date -u +%Y-%m-%dT%H:%M:%SZ) id $(od -An -N8 -tx8 /dev/urandom | tr -d ' ')"
		echo "guests $(awk '{ printf "%s ", $3 }' "$run/guests")"
		echo "shards $(guest_shard <"$run/guests" | sort -u | tr '\n' ' ')"
	} >"$dir/artefact"
	if [ -n "$tar" ]; then
		# --sparse: the U-Boot environment flash images are 64 MiB of holes
		tar --sparse -cf "$tar" -C "$dir" .
		rm -rf "$dir"
	fi
	done_step "$(du -sh "${tar:-$dir}" | cut -f1)"
}

# unpack ART DIR: DIR is ART, a directory, or ART, a tarball, unpacked into
# the empty DIR; dies unless it is an artefact
unpack() {
	if [ -d "$1" ]; then
		[ -f "$1/artefact" ] || die "$1 is not a test artefact (no $1/artefact; see ./build.sh pack)"
		cd "$1" && pwd
		return
	fi
	[ -f "$1" ] || die "no artefact $1 (a directory or a .tar from ./build.sh pack)"
	rm -rf "$2"
	mkdir -p "$2"
	tar -xf "$1" -C "$2" || die "cannot unpack $1"
	[ -f "$2/artefact" ] || die "$1 is not a test artefact (no ./artefact in it; see ./build.sh pack)"
	cd "$2" && pwd
}

# jobs GUESTS: "PATH SHARD LANE" of each shard job, in plan order (the lane
# of its first guest)
jobs() {
	local p l name topo share pics args
	while read -r p l name topo share pics args; do
		echo "$p $(guest_shard <<<"$args") $l"
	done <"$1" | awk '!seen[$1 " " $2]++'
}

# job RUN ART PATH SHARD: one shard job, ./build.sh test from the artefact,
# run from RUN/jobs/src (a copy of the sources, without build/), in
# RUN/shards/PATH-SHARD with an empty build and cache directory of its own
# (RUN/jobs/PATH-SHARD-build, -cache): nothing of this build but the
# artefact. Its progress lines go to the terminal, prefixed with its name;
# all of it to RUN/jobs/PATH-SHARD.log.
job() {
	local run=$1 art=$2 name=$3-$4
	mkdir -p "$run/jobs/$name-cache" "$run/jobs/$name-build"
	env -u N900_SUITES N900_ARTEFACT="$art" N900_RUN_DIR="$run/shards/$name" \
		N900_BUILD_DIR="$run/jobs/$name-build" N900_CACHE_DIR="$run/jobs/$name-cache" \
		N900_TEST_SHARDS="$4" N900_BOOT_PATHS="$3" \
		"$run/jobs/src/build.sh" test 2>&1 | tee "$run/jobs/$name.log" |
		{ grep --line-buffered -E '^\[build\] (    [0-9]+ s:|    .*the guests took|error)' || true; } |
		sed -u "s/^\[build\] /[build] $name: /"
}

# shards RUN ART: every shard job of the artefact ART, the lanes of a boot
# path side by side, one path after the other
shards() {
	local run=$1 art=$2 p s l t0 pids lanes
	mkdir -p "$run/jobs/src"
	# the sources (tracked and new files, as they are now), not the build
	git -C "$TOP" ls-files -co --exclude-standard -z |
		tar -C "$TOP" --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$run/jobs/src" -xf -
	[ -x "$run/jobs/src/build.sh" ] || die "cannot copy the sources into $run/jobs/src (git ls-files)"
	: >"$run/phase-seconds"
	for p in $(awk '{ print $1 }' "$art/guests" | uniq); do
		t0=$SECONDS pids=()
		mapfile -t lanes < <(jobs "$art/guests" | awk -v p="$p" '$1 == p { print $3 }' | sort -u)
		say "==> $p boot: shard jobs $(jobs "$art/guests" | awk -v p="$p" '$1 == p { printf "%s-%s ", $1, $2 }')from ${art#"$TOP"/}"
		for l in "${lanes[@]}"; do
			(jobs "$art/guests" | awk -v p="$p" -v l="$l" '$1 == p && $3 == l { print $2 }' |
				while read -r s; do job "$run" "$art" "$p" "$s" </dev/null || true; done) &
			pids+=($!)
		done
		wait "${pids[@]}" || true
		echo "$p $((SECONDS - t0))" >>"$run/phase-seconds"
		say "    $p boot: the shard jobs took $((SECONDS - t0)) s"
	done
	isolation "$run" "$art" >"$run/shards.ktap"
}

# isolation RUN ART: a host KTAP document: each shard job ran from the
# artefact alone. Its plan came from the artefact, it ran from the copy of
# the sources (which has no build/), and its build and cache directories
# hold nothing but what the job wrote itself (its logs).
isolation() {
	local run=$1 art=$2 p s n=0 why extra
	echo "KTAP version 1"
	echo "1..$(jobs "$art/guests" | wc -l)"
	while read -r p s _; do
		n=$((n + 1)) why=
		grep -qF "test guests (from the artefact $art)" "$run/jobs/$p-$s.log" 2>/dev/null ||
			why="$why its plan did not come from the artefact;"
		[ ! -e "$run/jobs/src/build" ] || why="$why the source copy has a build/;"
		extra=$(cd "$run/jobs" && find "$p-$s-build" "$p-$s-cache" -type f \
			! -path "$p-$s-build/logs/*" 2>/dev/null | awk 'NR <= 3' | tr '\n' ' ')
		[ -z "$extra" ] || why="$why its build or cache directory has $extra;"
		[ -d "$run/jobs/$p-$s-build" ] || why="$why no build directory of its own;"
		if [ -z "$why" ]; then
			echo "ok $n ${p}-${s}_ran_from_the_artefact_alone"
		else
			echo "# $p-$s:$why"
			echo "not ok $n ${p}-${s}_ran_from_the_artefact_alone"
		fi
	done < <(jobs "$art/guests")
}

# merge RUN ART DIR...: RUN gets each guest of ART's plan from the shard
# run directory DIR that ran it (its console RUN/NAME.log and its files
# RUN/NAME/ are copied), the artefact's lint results, and the verdict. A
# DIR that ran from another artefact is left out. RUN/merge.ktap has one
# result a planned guest: it fails when no DIR ran it, or more than one
# did (which of their verdicts would count is not for the merge to guess;
# each console still counts once, the first DIR's).
merge() {
	local run=$1 art=$2 p l g topo share pics args d from n i=0 dirs=() why
	shift 2
	[ -f "$art/guests" ] || die "merge: $art is not an unpacked test artefact (no guests)"
	# the verdict's KTAP parser and state are the artefact's
	BUILD=$(cd "$art" && pwd)
	mkdir -p "$run"
	[ "$(cd "$art" && pwd)/guests" = "$(cd "$run" && pwd)/guests" ] || cp "$art/guests" "$run/guests"
	[ -f "$run/guest-packages" ] || cp "$art/debug/guest-packages" "$run/" 2>/dev/null || true
	for f in "$art"/lint*.ktap; do
		[ ! -f "$f" ] || [ -f "$run/$(basename "$f")" ] || cp "$f" "$run/"
	done
	for d in "$@"; do
		if cmp -s "$d/artefact-id" "$art/artefact"; then
			dirs+=("$(cd "$d" && pwd)")
		else
			say "merge: ${d%/} did not run from this artefact (no $d/artefact-id, or another one's): left out"
		fi
	done
	{
		echo "KTAP version 1"
		echo "1..$(wc -l <"$run/guests")"
		while read -r p l g topo share pics args; do
			i=$((i + 1)) from='' n=0 why=''
			for d in ${dirs[@]+"${dirs[@]}"}; do
				[ -f "$d/$g.log" ] || continue
				n=$((n + 1))
				[ -n "$from" ] || from=$d
				why="$why ${d#"$TOP"/}"
			done
			if [ -z "$from" ]; then
				echo "# no shard directory ran $g (shard $(guest_shard <<<"$args"), $p boot)"
				echo "not ok $i ${g}_ran_in_one_shard_directory"
				continue
			fi
			if [ "$n" -eq 1 ]; then
				echo "ok $i ${g}_ran_in_one_shard_directory"
			else
				echo "# $g ran in $n shard directories:$why; its console counts once, from the first"
				echo "not ok $i ${g}_ran_in_one_shard_directory"
			fi
			[ "$from" != "$(cd "$run" && pwd)" ] || continue
			rm -rf "${run:?}/$g" "$run/$g.log"
			cp -a "$from/$g.log" "$run/$g.log"
			cp -a "$from/$g" "$run/$g"
		done <"$run/guests"
	} >"$run/merge.ktap"
	grep '^# ' "$run/merge.ktap" | sed 's/^# /[build] merge: /' || true
	# the boot paths' wall time: the orchestrator's, or the longest job's
	if [ ! -s "$run/phase-seconds" ]; then
		for d in ${dirs[@]+"${dirs[@]}"}; do cat "$d/phase-seconds" 2>/dev/null || true; done |
			awk '$2 > m[$1] { m[$1] = $2 } END { for (p in m) print p, m[p] }' >"$run/phase-seconds"
	fi
	verdict "$run"
}

case ${1:-} in
plan | boot | verdict) [ $# -eq 2 ] || die "usage: tests/host/test.sh $1 RUN"; "$1" "$2" ;;
pack) [ $# -eq 3 ] || die "usage: tests/host/test.sh pack RUN OUT[.tar]"; pack "$2" "$3" ;;
unpack) [ $# -eq 3 ] || die "usage: tests/host/test.sh unpack ARTEFACT DIR"; unpack "$2" "$3" ;;
shards) [ $# -eq 3 ] || die "usage: tests/host/test.sh shards RUN ARTEFACT_DIR"; shards "$2" "$3" ;;
shard-names) shard_names ;;
isolation) [ $# -eq 3 ] || die "usage: tests/host/test.sh isolation RUN ARTEFACT_DIR"; isolation "$2" "$3" ;;
merge)
	[ $# -ge 3 ] || die "usage: tests/host/test.sh merge RUN ARTEFACT_DIR SHARD_RUN_DIR..."
	merge "${@:2}"
	;;
*) die "usage: tests/host/test.sh plan|boot|verdict RUN, pack RUN OUT, unpack ART DIR, shards RUN ART, merge RUN ART DIR..." ;;
esac
