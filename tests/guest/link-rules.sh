#!/bin/sh
# The OMAP3 ISP link rules, as one KTAP document. Each case names the rule
# of the real hardware it checks and the errno the media controller API
# documents for it (MEDIA_IOC_SETUP_LINK: EBUSY when the link cannot be
# enabled now, EINVAL for an immutable link); expected values come from
# those rules, not from the driver.
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
S='"et8ek8 3-003e"'
FRONT='"vs6555 2-0010"'
SW='"video-bus-switch"'
CCP2='"OMAP3 ISP CCP2"'
CSI2='"OMAP3 ISP CSI2a"'
CCDC='"OMAP3 ISP CCDC"'
LSC='"OMAP3 ISP lens shading"'
WB='"OMAP3 ISP white balance"'
PRV='"OMAP3 ISP preview"'
RSZ='"OMAP3 ISP resizer"'

# setup LINK: "ok", or the error text media-ctl reports for SETUP_LINK
setup() {
	out=$(media-ctl -l "$1" 2>&1) && { echo ok; return; }
	case $out in
	*"resource busy"*) echo EBUSY ;;
	*"Invalid argument"*) echo EINVAL ;;
	*) echo "other: $(echo "$out" | tail -n 1)" ;;
	esac
}
check() { # NAME LINK EXPECTED
	got=$(setup "$2")
	if [ "$got" = "$3" ]; then
		ktap_result 1 "$1"
	else
		ktap_result 0 "$1" "$2: $got, expected $3"
	fi
}

ktap_plan 10
media-ctl -r
# the N900 camera bus switch routes one sensor at a time to CCP2
check switch_first_input "$S:0 -> $SW:0 [1]" ok
check switch_second_input_ebusy "$FRONT:0 -> $SW:1 [1]" EBUSY
media-ctl -l "$S:0 -> $SW:0 [0]"
check switch_other_input_once_free "$FRONT:0 -> $SW:1 [1]" ok
# the CCDC takes CSI2a or CCP2, not both
check ccdc_from_ccp2 "$CCP2:1 -> $CCDC:0 [1]" ok
check ccdc_second_input_ebusy "$CSI2:1 -> $CCDC:0 [1]" EBUSY
# preview input: the CCDC video port (through LSC and WB) or memory
media-ctl -l "$WB:1 -> $PRV:0 [1]"
check preview_memory_and_vp_ebusy "\"OMAP3 ISP preview input\":0 -> $PRV:0 [1]" EBUSY
# resizer input: preview, the CCDC video port or memory, one at a time
check resizer_from_preview "$PRV:1 -> $RSZ:0 [1]" ok
check resizer_vp_while_preview_ebusy "$CCDC:1 -> $RSZ:0 [1]" EBUSY
check resizer_memory_while_preview_ebusy "\"OMAP3 ISP resizer input\":0 -> $RSZ:0 [1]" EBUSY
# LSC feeds WB on a fixed path
check immutable_link_einval "$LSC:1 -> $WB:0 [0]" EINVAL
media-ctl -r
