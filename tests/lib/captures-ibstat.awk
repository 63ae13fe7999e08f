# SPDX-License-Identifier: GPL-2.0-or-later
# captures-ibstat.awk - the RDMA devices of an `ibstat` capture, for
# tests/lib/captures.sh (see tests/captures.md): one line per device,
#   ca NAME CA_TYPE FIRMWARE
# then one per port,
#   port NAME N STATE PHYS_STATE RATE LINK_LAYER
# with the state words ibstat prints ("Active", "LinkUp", "400").  Tabs or
# spaces, as the captures have them.
/^CA '[^']+'$/ {
	name = substr($2, 2, length($2) - 2)
	type = fw = ""
	port = 0
	next
}
name == "" { next }
/^[ \t]+CA type: / { type = $3; next }
/^[ \t]+Firmware version: / { fw = $3; print "ca", name, type, fw; next }
/^[ \t]+Port [0-9]+:$/ { port = $2 + 0; state = phys = rate = ll = ""; next }
port && /^[ \t]+State: / { state = $2; next }
port && /^[ \t]+Physical state: / { phys = $3; next }
port && /^[ \t]+Rate: / { rate = $2; next }
port && /^[ \t]+Link layer: / { ll = $3; print "port", name, port, state, phys, rate, ll; next }
