# SPDX-License-Identifier: GPL-2.0-or-later
# captures-nvsmi.awk - the GPUs of an `nvidia-smi -q` capture, for
# tests/lib/captures.sh (see tests/captures.md).
#
#   section=idle|load  the "# <section> :: query (-q)" part of an
#                      nvidia_gpu_exporter capture set ("" = the whole file
#                      is one nvidia-smi -q)
#   out=gpus           one line per GPU: "BDF DEVICE SUBVENDOR SUBDEVICE
#                      CUR_GEN CUR_WIDTH DEVICE_MAX_GEN MAX_WIDTH HOST_MAX_GEN
#                      PSTATE", ids in hex without 0x; HOST_MAX_GEN is
#                      DEVICE_MAX_GEN when nvidia-smi says N/A (a VM, an SXM
#                      board) or has no such line (older drivers); the
#                      current generation is "Device Current" where there is
#                      one (the GPU's side of the link), else "Current".
#   out=xml            an hwloc 2 XML topology: one package, a host bridge per
#                      GPU with the root port captures.sh gives it (bus - 1;
#                      a GPU on bus 00 sits on the host bridge itself).

function gen(s) { gsub(/[^0-9]/, "", s); return s == "" ? 0 : s + 0 }

function flush() {
	if (bdf == "")
		return
	hm = hostmax ? hostmax : devmax
	line[++n] = sprintf("%s %s %s %s %d %d %d %d %d %s", bdf, dev, subv, subd, cur, curw, devmax, maxw, hm, pstate)
	G[n] = bdf
	bdf = ""
}

BEGIN { n = 0; on = (section == ""); HEX = "0123456789abcdef" }
section != "" && /^# [a-z]+ :: / { on = ($0 ~ "^# " section " :: query \\(-q\\)") ; if (!on) flush(); next }
!on { next }
/^GPU [0-9A-Fa-f]+:[0-9A-Fa-f]+:[0-9A-Fa-f]+\.[0-7]/ {
	flush()
	b = tolower($2)
	bdf = substr(b, length(b) - 11)
	dev = "0000"; subv = "0000"; subd = "0000"
	cur = 0; curdev = 0; curw = 0; devmax = 0; maxw = 0; hostmax = 0; pstate = "?"; block = ""
	next
}
bdf == "" { next }
/^ +Device Id +: 0x/ { v = tolower($NF); dev = substr(v, 3, 4); next }
/^ +Sub System Id +: 0x/ { v = tolower($NF); subd = substr(v, 3, 4); subv = substr(v, 7, 4); next }
/^ +PCIe Generation *$/ { block = "gen"; next }
/^ +Link Width *$/ { block = "width"; next }
/^ +Performance State +:/ { pstate = $NF; block = ""; next }
block == "gen" && /^ +Max +:/ { devmax = devmax ? devmax : gen($NF); next }
block == "gen" && /^ +Current +:/ { cur = gen($NF); next }
block == "gen" && /^ +Device Current +:/ { cur = gen($NF); next }
block == "gen" && /^ +Device Max +:/ { devmax = gen($NF); next }
block == "gen" && /^ +Host Max +:/ { hostmax = gen($NF); next }
block == "width" && /^ +Max +:/ { maxw = gen($NF); next }
block == "width" && /^ +Current +:/ { curw = gen($NF); next }
/^ +Bridge Chip/ { block = ""; next }

function xml(   i, b, bus, rp, s, dom) {
	print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
	print "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">"
	print "<topology version=\"2.0\">"
	print "  <object type=\"Machine\" os_index=\"0\" cpuset=\"0x00000001\" complete_cpuset=\"0x00000001\" allowed_cpuset=\"0x00000001\" nodeset=\"0x00000001\" complete_nodeset=\"0x00000001\" allowed_nodeset=\"0x00000001\" gp_index=\"1\">"
	print "    <object type=\"Package\" os_index=\"0\" cpuset=\"0x00000001\" complete_cpuset=\"0x00000001\" nodeset=\"0x00000001\" complete_nodeset=\"0x00000001\" gp_index=\"2\">"
	print "      <object type=\"NUMANode\" os_index=\"0\" cpuset=\"0x00000001\" complete_cpuset=\"0x00000001\" nodeset=\"0x00000001\" complete_nodeset=\"0x00000001\" gp_index=\"3\" local_memory=\"68719476736\"/>"
	print "      <object type=\"Core\" os_index=\"0\" cpuset=\"0x00000001\" complete_cpuset=\"0x00000001\" nodeset=\"0x00000001\" complete_nodeset=\"0x00000001\" gp_index=\"4\">"
	print "        <object type=\"PU\" os_index=\"0\" cpuset=\"0x00000001\" complete_cpuset=\"0x00000001\" nodeset=\"0x00000001\" complete_nodeset=\"0x00000001\" gp_index=\"5\"/>"
	print "      </object>"
	for (i = 1; i <= n; i++) {
		split(line[i], f, " ")
		b = f[1]; dom = substr(b, 1, 4); bus = substr(b, 6, 2)
		pt = sprintf("0302 [10de:%s] [%s:%s] a1", f[2], f[3], f[4])
		if (bus == "00") {
			printf "      <object type=\"Bridge\" gp_index=\"%d\" bridge_type=\"0-1\" depth=\"0\" bridge_pci=\"%s:[00-00]\">\n", 10 + 3 * i, dom
			printf "        <object type=\"PCIDev\" gp_index=\"%d\" pci_busid=\"%s\" pci_type=\"%s\"/>\n", 11 + 3 * i, b, pt
		} else {
			rp = sprintf("%02x", (index(HEX, substr(bus, 1, 1)) - 1) * 16 + index(HEX, substr(bus, 2, 1)) - 2)
			printf "      <object type=\"Bridge\" gp_index=\"%d\" bridge_type=\"0-1\" depth=\"0\" bridge_pci=\"%s:[%s-%s]\">\n", 10 + 3 * i, dom, rp, bus
			printf "        <object type=\"Bridge\" gp_index=\"%d\" bridge_type=\"1-1\" depth=\"1\" bridge_pci=\"%s:[%s-%s]\" pci_busid=\"%s:%s:01.0\" pci_type=\"0604 [8086:0000] [0000:0000] 00\">\n", 11 + 3 * i, dom, bus, bus, dom, rp
			printf "          <object type=\"PCIDev\" gp_index=\"%d\" pci_busid=\"%s\" pci_type=\"%s\"/>\n", 12 + 3 * i, b, pt
			print "        </object>"
		}
		print "      </object>"
	}
	print "    </object>"
	print "  </object>"
	print "</topology>"
}

END {
	flush()
	if (out == "xml")
		xml()
	else
		for (i = 1; i <= n; i++)
			print line[i]
}
