#!/usr/bin/env bash
# dt-topology.sh DTB - print the media topology that a compiled device tree
# describes, for the in-guest tests to compare the driver against.
#
# This reads the DTB only (decompiled once by dtc, then read by awk), never
# the driver, so a driver bug cannot leak into the expected values. Output,
# one record per line, tab-separated:
#   model      <media device model: the ISP node's label>
#   entity     <name: the node's label>  <pads: highest port reg + 1>
#   link       <nameA> <padA> <nameB> <padB> <flags>   (each pair once,
#              unordered; flags: 1 = ENABLED, 2 = IMMUTABLE, from either end)
#   ancillary  <sensor name> <lens or flash name>      (lens-focus, flash-leds)
# Entities come in the tree's depth-first order, links sorted.
set -euo pipefail
export LC_ALL=C # one order of links whatever the host's locale

dtb=${1:?usage: dt-topology.sh DTB}
command -v dtc >/dev/null || { echo "dtc missing (device-tree-compiler)" >&2; exit 1; }

dts=$(mktemp)
links=$(mktemp)
trap 'rm -f "$dts" "$links"' EXIT
dtc -q -I dtb -O dts -o "$dts" "$dtb"

# dtc writes one node a "NAME {" line, closed by "};", and one property a
# line: "NAME;" (empty) or "NAME = VALUE;", VALUE "<cells>" or strings.
awk -v links="$links" '
function die(msg) { print msg > "/dev/stderr"; failed = 1; exit 1 }
# the first string of a property value, \" and \\ decoded; "" when dtc
# did not print it as a string (an empty or non-printable one: bytes)
function str(v,   out, i, c) {
	if (v !~ /^"/)
		return ""
	out = ""
	for (i = 2; i <= length(v); i++) {
		c = substr(v, i, 1)
		if (c == "\"")
			break
		if (c == "\\") {
			c = substr(v, ++i, 1)
			if (c == "0")	# a string list: its first
				break
			if (c != "\"" && c != "\\")
				c = "\\" c
		}
		out = out c
	}
	return out
}
# the cells of a property value as dtc prints them ("0x1f"), space-separated:
# text, so that no value is rounded (mawk prints big numbers as %.6g)
function cells(v) {
	gsub(/[<>]/, "", v)
	return tolower(v)
}
# the value of a cell, "0x1f" or "31"
function hex(s,   i, r) {
	if (s !~ /^0[xX]/)
		return s + 0
	r = 0
	s = tolower(substr(s, 3))
	for (i = 1; i <= length(s); i++)
		r = r * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return r
}
/^\/dts-v1\/;|^\/memreserve\// { next }
/\{$/ {
	name = $0
	sub(/^[ \t]+/, "", name)
	sub(/[ \t]*\{$/, "", name)
	sub(/^[^ :]+: /, "", name)
	path = depth ? (depth == 1 ? "" : stack[depth - 1]) "/" name : "/"
	stack[depth++] = path == "/" ? "" : path
	norder++
	order[norder] = path
	if (depth > 1)
		kids[parent(path)] = kids[parent(path)] " " name
	next
}
/^[ \t]*\};$/ { depth--; next }
/;$/ {
	line = $0
	sub(/^[ \t]+/, "", line)
	sub(/;$/, "", line)
	p = line
	v = ""
	if (index(line, " = ")) {
		p = substr(line, 1, index(line, " = ") - 1)
		v = substr(line, index(line, " = ") + 3)
	}
	prop[stack[depth - 1] == "" ? "/" : stack[depth - 1], p] = v
	has[stack[depth - 1] == "" ? "/" : stack[depth - 1], p] = 1
	next
}
function parent(p,   q) { q = p; sub(/\/[^\/]*$/, "", q); return q == "" ? "/" : q }
function compat(n) { return str(prop[n, "compatible"]) }
function port_index(n,   r) { split(cells(prop[n, "reg"]), r, " "); return 1 in r ? hex(r[1]) : 0 }
function port_entity(port,   e) {
	e = parent(port)
	if (e ~ /\/ports$/)
		e = parent(e)
	return e
}
# the walked nodes: every node below a top-level n900emu,* node
function walked(n,   t) {
	t = n
	sub(/^\/[^\/]*/, "", t)
	t = substr(n, 1, length(n) - length(t))
	return t != "/" && compat(t) ~ /^n900emu,/
}
END {
	if (failed)
		exit 1
	for (i = 1; i <= norder; i++) {
		n = order[i]
		if (!walked(n))
			continue
		if ((n, "phandle") in prop)
			PHANDLE[cells(prop[n, "phandle"])] = n
		c = compat(n)
		if (c ~ /^n900emu,omap3-isp/) {
			# the guests compare one media device with it
			if (nisp++)
				die(n ": a second ISP; this prints the topology of a tree with one (chains-N is for ./build.sh bench)")
			printf "model\t%s\n", str(prop[n, "label"])
		} else if (c ~ /^n900emu,/) {
			if (!((n, "label") in prop) || str(prop[n, "label"]) == "")
				die(n ": entity without a label")
			LABEL[n] = str(prop[n, "label"])
			ent[++nent] = n
		}
	}
	for (i = 1; i <= nent; i++) {
		e = ent[i]
		npads = 0
		# the ports, "port"/"port@N" nodes of the entity or of its "ports"
		np = 0
		nk = split(kids[e], k, " ")
		for (j = 1; j <= nk; j++) {
			if (k[j] ~ /^port(@|$)/)
				ports[++np] = e "/" k[j]
			else if (k[j] == "ports") {
				nq = split(kids[e "/ports"], q, " ")
				for (m = 1; m <= nq; m++)
					if (q[m] ~ /^port(@|$)/)
						ports[++np] = e "/ports/" q[m]
			}
		}
		for (j = 1; j <= np; j++) {
			port = ports[j]
			idx = port_index(port)
			if (idx + 1 > npads)
				npads = idx + 1
			nq = split(kids[port], q, " ")
			for (m = 1; m <= nq; m++) {
				if (q[m] !~ /^endpoint(@|$)/)
					continue
				ep = port "/" q[m]
				rph = cells(prop[ep, "remote-endpoint"])
				if (rph == "")
					continue
				if (!(rph in PHANDLE))
					die(ep ": remote-endpoint to an unknown node")
				rep = PHANDLE[rph]
				rport = parent(rep)
				rent = port_entity(rport)
				if (!(rent in LABEL))
					die(rep ": endpoint of a node without label")
				flags = 0
				if (has[ep, "n900emu,link-enabled"] || has[rep, "n900emu,link-enabled"])
					flags += 1
				if (has[ep, "n900emu,link-immutable"] || has[rep, "n900emu,link-immutable"])
					flags += 2
				a = LABEL[e] "\t" idx
				b = LABEL[rent] "\t" port_index(rport)
				if (a > b) { t = a; a = b; b = t }
				print "link\t" a "\t" b "\t" flags > links
			}
		}
		printf "entity\t%s\t%d\n", LABEL[e], npads
		split("lens-focus flash-leds", anc, " ")
		for (j = 1; j <= 2; j++) {
			nq = split(cells(prop[e, anc[j]]), q, " ")
			for (m = 1; m <= nq; m++) {
				if (!(q[m] in PHANDLE) || !(PHANDLE[q[m]] in LABEL))
					die(e ": " anc[j] " to a node that is no entity")
				printf "ancillary\t%s\t%s\n", LABEL[e], LABEL[PHANDLE[q[m]]]
			}
		}
	}
}' "$dts"
sort -u "$links"
