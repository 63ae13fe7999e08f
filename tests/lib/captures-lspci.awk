# SPDX-License-Identifier: GPL-2.0-or-later
# captures-lspci.awk - an `lspci -vvv` (or plain `lspci`) dump of a real
# machine as the sysfs tree and hwloc topology the kernel and hwloc would show
# (tests/lib/captures.sh runs it; see tests/captures.md).  Only what the dump
# shows is written; the rest is said in captures.md.
#
#   out=sysfs  shell commands (run by captures.sh with $R the sysfs root):
#              every function under devices/ with its bus/pci/devices link;
#              vendor, device, class, numa_node; the link attributes from
#              LnkCap (max) and LnkSta (current) where the dump has an Express
#              capability; a bridge's config space: its vendor and device, the
#              Express capability at the offset lspci names (port type, Link
#              Control 2's target speed) and ACS at its offset (ACSCap, ACSCtl).
#              Then one "cap_nic BDF LL HCA_TYPE BOARD RATE" line per Mellanox
#              network function, in PCI order, for captures.sh to make an RDMA
#              device of.
#   out=xml    an hwloc 2 XML topology: one package per NUMA node of the dump
#              (0 without), a host bridge per root bus, the bridges that lead
#              to a GPU (NVIDIA, class 03xx) or a network function, and those.
#
# The tree comes from each bridge's "Bus: primary=, secondary=, subordinate="
# line; a plain lspci has none, so each bridge gets the next bus number of its
# domain in the dump's order (how Linux numbers buses depth first, right for
# the chains of a GB200 tray).  Names become ids through the tables below and
# "Device XXXX" (lspci prints the id when it has no name): what is not in them
# is 0xffff (vendor) or 0x0000 (device), which no check looks at.

function hexval(h,   i, v) {
	v = 0
	h = tolower(h)
	for (i = 1; i <= length(h); i++)
		v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
	return v
}

# "32GT/s" -> "32.0 GT/s PCIe" (sysfs), "2.5GT/s" -> "2.5 GT/s PCIe"
function sysfs_speed(s) {
	sub(/GT\/s.*/, "", s)
	if (s == "2.5")
		return "2.5 GT/s PCIe"
	if (s ~ /^[0-9]+$/)
		return s ".0 GT/s PCIe"
	return ""
}

# Link Control 2's Target Link Speed code of "16GT/s" (1 = 2.5 ... 6 = 64)
function speed_code(s) {
	sub(/GT\/s.*/, "", s)
	return s == "2.5" ? 1 : s == "5" ? 2 : s == "8" ? 3 : s == "16" ? 4 : s == "32" ? 5 : s == "64" ? 6 : 0
}

# hwloc's pci_link_speed: GB/s of the link as it runs (LnkSta)
function link_gbs(s, w,   gt) {
	sub(/GT\/s.*/, "", s)
	gt = s + 0
	if (gt == 0 || w == 0)
		return 0
	return gt >= 8 ? gt * w * 128 / 130 / 8 : gt * w * 0.8 / 8
}

function vendor_id(name,   v) {
	for (v in VENDOR)
		if (index(name, v) == 1)
			return VENDOR[v]
	return 65535
}

function device_id(name,   d) {
	if (match(name, /Device [0-9a-f][0-9a-f][0-9a-f][0-9a-f]/))
		return hexval(substr(name, RSTART + 7, 4))
	for (d in DEVICE)
		if (index(name, d))
			return DEVICE[d]
	return 0
}

function class_code(cls,   c) {
	if (match(cls, /\[[0-9a-f][0-9a-f][0-9a-f][0-9a-f]\]$/))
		return hexval(substr(cls, RSTART + 1, 4)) * 256
	return (cls in CLASS) ? CLASS[cls] : 524288   # 0x080000: another system peripheral
}

function dom_of(bdf) { return substr(bdf, 1, 4) }
function bus_of(bdf) { return substr(bdf, 6, 2) }

# The devices/ path of function n ("pci0000:15/0000:15:01.0/...").
function path_of(n,   k) {
	if (n in PATH)
		return PATH[n]
	k = dom_of(B[n]) ":" bus_of(B[n])
	PATH[n] = ((k in SECOF) ? path_of(SECOF[k]) : "pci" k) "/" B[n]
	return PATH[n]
}

BEGIN {
	VENDOR["NVIDIA Corporation"] = 4318          # 10de
	VENDOR["Mellanox Technologies"] = 5555       # 15b3
	VENDOR["Intel Corporation"] = 32902          # 8086
	VENDOR["Broadcom / LSI"] = 4096              # 1000
	VENDOR["Broadcom Inc. and subsidiaries"] = 5348   # 14e4
	VENDOR["Micron Technology Inc"] = 4932       # 1344
	VENDOR["Matrox Electronics Systems Ltd."] = 4139  # 102b
	VENDOR["ASPEED Technology, Inc."] = 6659     # 1a03
	VENDOR["Samsung Electronics Co Ltd"] = 5197  # 144d
	VENDOR["Dell"] = 4136                        # 1028
	VENDOR["PLDA"] = 5462                        # 1556
	VENDOR["Pericom Semiconductor"] = 4824       # 12d8
	VENDOR["Renesas Technology Corp."] = 6418    # 1912
	DEVICE["MT2910 Family [ConnectX-7 PCIe Bridge]"] = 6525   # 197d
	DEVICE["MT2910 Family [ConnectX-7]"] = 4129               # 1021
	DEVICE["MT2892 Family [ConnectX-6 Dx]"] = 4125            # 101d
	DEVICE["MT28908 Family [ConnectX-6]"] = 4123              # 101b
	DEVICE["MT43244 BlueField-3 integrated ConnectX-7 network controller"] = 41692   # a2dc
	DEVICE["MT43244 Family [BlueField-3 SoC PCIe Bridge]"] = 6607                    # 19cf
	DEVICE["PEX890xx PCIe Gen 5 Switch"] = 49200              # c030
	CLASS["PCI bridge"] = 394240                 # 060400
	CLASS["Host bridge"] = 393216                # 060000
	CLASS["ISA bridge"] = 393472                 # 060100
	CLASS["3D controller"] = 197120              # 030200
	CLASS["VGA compatible controller"] = 196608  # 030000
	CLASS["Ethernet controller"] = 131072        # 020000
	CLASS["Infiniband controller"] = 132864      # 020700
	CLASS["Non-Volatile memory controller"] = 67586   # 010802
	TYPE["Root Port"] = 4
	TYPE["Upstream Port"] = 5
	TYPE["Downstream Port"] = 6
	TYPE["Endpoint"] = 0
	TYPE["Legacy Endpoint"] = 1
	TYPE["Root Complex Integrated Endpoint"] = 9
	n = 0
}

/^([0-9a-f][0-9a-f][0-9a-f][0-9a-f]:)?[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]\.[0-7] / {
	bdf = $1
	if (bdf !~ /^[0-9a-f][0-9a-f][0-9a-f][0-9a-f]:/)
		bdf = "0000:" bdf
	n++
	B[n] = bdf
	rest = substr($0, length($1) + 2)
	p = index(rest, ": ")
	CLS[n] = substr(rest, 1, p - 1)
	name = substr(rest, p + 2)
	REV[n] = 0
	if (match(name, /\(rev [0-9a-f]+\)/))
		REV[n] = hexval(substr(name, RSTART + 5, RLENGTH - 6))
	sub(/ \(rev [0-9a-f]+\).*/, "", name)
	sub(/ \(prog-if .*/, "", name)
	NAME[n] = name
	in_acs = 0
	next
}
n == 0 { next }
/^\t[A-Za-z]/ { in_acs = 0 }
/^\tSubsystem: / || /^\tCapabilities: \[[0-9a-f]+\] Subsystem: / { SUB[n] = substr($0, index($0, "Subsystem: ") + 11) }
/^\tNUMA node: / { NUMA[n] = $3 }
/^\tBus: primary=/ {
	if (match($0, /secondary=[0-9a-f]+/))
		SEC[n] = substr($0, RSTART + 10, RLENGTH - 10)
	if (match($0, /subordinate=[0-9a-f]+/))
		SUBORD[n] = substr($0, RSTART + 12, RLENGTH - 12)
}
/^\tCapabilities: \[[0-9a-f]+\] Express / {
	match($0, /\[[0-9a-f]+\]/)
	EXP[n] = hexval(substr($0, RSTART + 1, RLENGTH - 2))
	EXPV[n] = ($0 ~ /Express \(v2\)/) ? 2 : 1
	for (t in TYPE)
		if (index($0, ") " t) || index($0, ") " t ","))
			if (!(n in PTYPE) || length(t) > length(PTYPENAME[n])) {
				PTYPE[n] = TYPE[t]
				PTYPENAME[n] = t
			}
}
/^\t\tLnkCap:/ {
	if (match($0, /Speed [0-9.]+GT\/s/))
		MAXS[n] = substr($0, RSTART + 6, RLENGTH - 6)
	if (match($0, /Width x[0-9]+/))
		MAXW[n] = substr($0, RSTART + 7, RLENGTH - 7)
}
/^\t\tLnkSta:/ {
	if (match($0, /Speed [0-9.]+GT\/s/))
		CURS[n] = substr($0, RSTART + 6, RLENGTH - 6)
	if (match($0, /Width x[0-9]+/))
		CURW[n] = substr($0, RSTART + 7, RLENGTH - 7)
}
/^\t\tLnkCtl2:/ {
	if (match($0, /Target Link Speed: [0-9.]+GT\/s/))
		TARGET[n] = speed_code(substr($0, RSTART + 19, RLENGTH - 19))
}
/^\tCapabilities: \[[0-9a-f]+ v[0-9]+\] Access Control Services/ {
	match($0, /\[[0-9a-f]+ /)
	ACS[n] = hexval(substr($0, RSTART + 1, RLENGTH - 2))
	in_acs = 1
}
in_acs && /^\t\tACSCap:/ { ACSCAP[n] = acs_bits($0) }
in_acs && /^\t\tACSCtl:/ { ACSCTL[n] = acs_bits($0) }
/Product Name: / { PRODUCT[n] = substr($0, index($0, "Product Name: ") + 14) }
/\[PN\] Part number: / {
	pn = substr($0, index($0, "Part number: ") + 13)
	gsub(/[^A-Za-z0-9_.-]/, "", pn)
	PN[n] = pn
}

function acs_bits(line,   bits) {
	bits = 0
	if (line ~ /SrcValid\+/) bits += 1
	if (line ~ /TransBlk\+/) bits += 2
	if (line ~ /ReqRedir\+/) bits += 4
	if (line ~ /CmpltRedir\+/) bits += 8
	if (line ~ /UpstreamFwd\+/) bits += 16
	if (line ~ /EgressCtrl\+/) bits += 32
	if (line ~ /DirectTrans\+/) bits += 64
	return bits
}

function is_bridge(i) { return CLS[i] == "PCI bridge" }
function is_gpu(i) { return VEN[i] == 4318 && int(CLASSCODE[i] / 65536) == 3 }
function is_net(i) { return int(CLASSCODE[i] / 65536) == 2 }

# The escaped bytes of bridge i's 4096-byte config space (printf %b).
function config_escape(i,   cfg, k, off, out, acs) {
	for (k = 0; k < 4096; k++)
		cfg[k] = 0
	cfg[0] = VEN[i] % 256; cfg[1] = int(VEN[i] / 256)
	cfg[2] = DEV[i] % 256; cfg[3] = int(DEV[i] / 256)
	cfg[8] = REV[i]
	cfg[9] = CLASSCODE[i] % 256; cfg[10] = int(CLASSCODE[i] / 256) % 256
	cfg[11] = int(CLASSCODE[i] / 65536)
	cfg[14] = 1                                       # header type 1: a bridge
	if ((i in EXP) && EXP[i] >= 64 && EXP[i] + 60 <= 256) {
		off = EXP[i]
		cfg[6] = 16                                   # status: capability list
		cfg[52] = off                                 # 0x34
		cfg[off] = 16                                 # PCI Express
		cfg[off + 2] = ((i in PTYPE) ? PTYPE[i] : 0) * 16 + EXPV[i]
		if ((i in TARGET) && EXPV[i] >= 2)
			cfg[off + 48] = TARGET[i]                 # Link Control 2 at +0x30
	}
	acs = (i in ACS) ? ACS[i] : 0
	if (acs >= 256 && acs + 8 <= 4096) {
		if (acs != 256) {                             # a header at 0x100 leading to it
			cfg[256] = 1; cfg[258] = 1; cfg[259] = int(acs / 16) % 256
			cfg[258] += (acs % 16) * 16
		}
		cfg[acs] = 13; cfg[acs + 2] = 1
		cfg[acs + 4] = ACSCAP[i] % 256; cfg[acs + 5] = int(ACSCAP[i] / 256)
		cfg[acs + 6] = ACSCTL[i] % 256; cfg[acs + 7] = int(ACSCTL[i] / 256)
	} else {
		cfg[256] = 1; cfg[258] = 1                    # AER alone: no ACS
	}
	out = ""
	for (k = 0; k < 4096; k++)
		out = out sprintf("\\x%02x", cfg[k])
	return out
}

function q(s) { gsub(/'/, "", s); return "'" s "'" }

# The RDMA device an mlx5 function makes: link layer, hca_type ("MT" and the
# device id in decimal, as mlx5 writes it), the board (the VPD part number),
# the port rate (the VPD's "400GbE", else the part's usual one).
function nic_line(i,   ll, rate, gb) {
	ll = CLS[i] == "Infiniband controller" ? "InfiniBand" : "Ethernet"
	gb = 0
	if ((i in PRODUCT) && match(PRODUCT[i], /[0-9]+GbE/))
		gb = substr(PRODUCT[i], RSTART, RLENGTH - 3) + 0
	if (!gb)
		gb = DEV[i] == 4129 ? 400 : DEV[i] == 41692 ? 200 : 100
	rate = gb == 400 ? "400 Gb/sec (4X NDR)" : gb == 200 ? "200 Gb/sec (2X NDR)" : gb == 50 ? "50 Gb/sec (2X EDR)" : \
	       gb == 25 ? "25 Gb/sec (1X EDR)" : gb " Gb/sec (4X EDR)"
	printf "cap_nic %s %s MT%d %s %s\n", B[i], ll, DEV[i], (i in PN) ? PN[i] : sprintf("MT%d-lspci", DEV[i]), q(rate)
}

# Directories and links first, each in one command (a process costs more
# than all the files), then the files (shell builtins).
function emit_sysfs(   i, d) {
	print "mkdir -p \\"
	for (i = 1; i <= n; i++)
		printf "  \"$R/devices/%s\" \\\n", path_of(i)
	print "  \"$R/bus/pci/devices\""
	print "ln -sfn \\"
	for (i = 1; i <= n; i++)
		printf "  \"../../../devices/%s\" \\\n", path_of(i)
	print "  \"$R/bus/pci/devices/\""
	for (i = 1; i <= n; i++) {
		d = "$R/devices/" path_of(i)
		printf "printf '0x%04x\\n' >\"%s/vendor\"; printf '0x%04x\\n' >\"%s/device\"; printf '0x%06x\\n' >\"%s/class\"\n",
		       VEN[i], d, DEV[i], d, CLASSCODE[i], d
		if (i in NUMA)
			printf "printf '%%s\\n' %d >\"%s/numa_node\"\n", NUMA[i], d
		if ((i in MAXS) && (i in MAXW)) {
			printf "printf '%%s\\n' %s >\"%s/current_link_speed\"; printf '%%s\\n' %d >\"%s/current_link_width\"\n",
			       q(sysfs_speed((i in CURS) ? CURS[i] : MAXS[i])), d, ((i in CURW) ? CURW[i] : MAXW[i]), d
			printf "printf '%%s\\n' %s >\"%s/max_link_speed\"; printf '%%s\\n' %d >\"%s/max_link_width\"\n",
			       q(sysfs_speed(MAXS[i])), d, MAXW[i], d
		}
		if (is_bridge(i))
			printf "printf '%%b' '%s' >\"%s/config\"\n", config_escape(i), d
	}
	for (i = 1; i <= n; i++)
		if (VEN[i] == 5555 && is_net(i) && NAME[i] !~ /Virtual Function/)
			nic_line(i)
}

# ---------------------------------------------------------------- hwloc XML

function pci_type(i,   sv, sd) {
	sv = 0; sd = 0
	if (i in SUB) {
		sv = vendor_id(SUB[i])
		if (sv == 65535)
			sv = 0
		sd = device_id(SUB[i])
	}
	return sprintf("%04x [%04x:%04x] [%04x:%04x] %02x", int(CLASSCODE[i] / 256), VEN[i], DEV[i], sv, sd, REV[i])
}

function wanted(i,   c) {
	if (i in WANTED)
		return WANTED[i]
	WANTED[i] = is_gpu(i) || is_net(i)
	for (c = 1; c <= n; c++)
		if (PARENT[c] == i && wanted(c))
			WANTED[i] = 1
	return WANTED[i]
}

function obj(i, ind,   c, s, gbs) {
	gbs = link_gbs((i in CURS) ? CURS[i] : "", (i in CURW) ? CURW[i] : 0)
	if (is_bridge(i)) {
		printf "%s<object type=\"Bridge\" gp_index=\"%d\" bridge_type=\"1-1\" depth=\"%d\" bridge_pci=\"%s:[%s-%s]\" pci_busid=\"%s\" pci_type=\"%s\" pci_link_speed=\"%f\">\n",
		       ind, ++GP, DEPTH[i], dom_of(B[i]), SEC[i], SUBORD[i], B[i], pci_type(i), gbs
		for (c = 1; c <= n; c++)
			if (PARENT[c] == i && wanted(c))
				obj(c, ind "  ")
		printf "%s</object>\n", ind
	} else {
		printf "%s<object type=\"PCIDev\" gp_index=\"%d\" pci_busid=\"%s\" pci_type=\"%s\" pci_link_speed=\"%f\"/>\n",
		       ind, ++GP, B[i], pci_type(i), gbs
	}
}

function emit_xml(   i, k, pkg, p, hb, lo, hi, c) {
	GP = 100
	print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
	print "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">"
	print "<topology version=\"2.0\">"
	npkg = 1
	for (i = 1; i <= n; i++)
		if ((i in NUMA) && NUMA[i] + 1 > npkg)
			npkg = NUMA[i] + 1
	if (npkg > 8)
		npkg = 8
	all = sprintf("0x%08x", 2 ^ npkg - 1)
	printf "  <object type=\"Machine\" os_index=\"0\" cpuset=\"%s\" complete_cpuset=\"%s\" allowed_cpuset=\"%s\" nodeset=\"%s\" complete_nodeset=\"%s\" allowed_nodeset=\"%s\" gp_index=\"1\">\n", all, all, all, all, all, all
	for (p = 0; p < npkg; p++) {
		set = sprintf("0x%08x", 2 ^ p)
		printf "    <object type=\"Package\" os_index=\"%d\" cpuset=\"%s\" complete_cpuset=\"%s\" nodeset=\"%s\" complete_nodeset=\"%s\" gp_index=\"%d\">\n", p, set, set, set, set, 10 + 4 * p
		printf "      <object type=\"NUMANode\" os_index=\"%d\" cpuset=\"%s\" complete_cpuset=\"%s\" nodeset=\"%s\" complete_nodeset=\"%s\" gp_index=\"%d\" local_memory=\"68719476736\"/>\n", p, set, set, set, set, 11 + 4 * p
		printf "      <object type=\"Core\" os_index=\"%d\" cpuset=\"%s\" complete_cpuset=\"%s\" nodeset=\"%s\" complete_nodeset=\"%s\" gp_index=\"%d\">\n", p, set, set, set, set, 12 + 4 * p
		printf "        <object type=\"PU\" os_index=\"%d\" cpuset=\"%s\" complete_cpuset=\"%s\" nodeset=\"%s\" complete_nodeset=\"%s\" gp_index=\"%d\"/>\n", p, set, set, set, set, 13 + 4 * p
		print "      </object>"
		# one host bridge per root bus of this package
		delete done
		for (i = 1; i <= n; i++) {
			if (PARENT[i] || !wanted(i))
				continue
			k = dom_of(B[i]) ":" bus_of(B[i])
			pkg = (i in NUMA) && NUMA[i] >= 0 && NUMA[i] < npkg ? NUMA[i] : 0
			if (pkg != p || (k in done))
				continue
			done[k] = 1
			lo = bus_of(B[i]); hi = lo
			for (c = 1; c <= n; c++)
				if (!PARENT[c] && dom_of(B[c]) ":" bus_of(B[c]) == k && (c in SUBORD) && SUBORD[c] > hi)
					hi = SUBORD[c]
			printf "      <object type=\"Bridge\" gp_index=\"%d\" bridge_type=\"0-1\" depth=\"0\" bridge_pci=\"%s:[%s-%s]\">\n", ++GP, dom_of(B[i]), lo, hi
			for (c = 1; c <= n; c++)
				if (!PARENT[c] && dom_of(B[c]) ":" bus_of(B[c]) == k && wanted(c))
					obj(c, "        ")
			print "      </object>"
		}
		print "    </object>"
	}
	print "  </object>"
	print "</topology>"
}

END {
	# ids, and the bus numbers a plain lspci does not show
	for (i = 1; i <= n; i++) {
		VEN[i] = vendor_id(NAME[i])
		DEV[i] = device_id(NAME[i])
		CLASSCODE[i] = class_code(CLS[i])
		d = dom_of(B[i])
		if (!(d in NEXTBUS))
			NEXTBUS[d] = hexval(bus_of(B[i]))
		if (is_bridge(i) && !(i in SEC))
			SEC[i] = sprintf("%02x", ++NEXTBUS[d])
		if (is_bridge(i))
			SECOF[d ":" SEC[i]] = i
	}
	for (i = 1; i <= n; i++) {
		k = dom_of(B[i]) ":" bus_of(B[i])
		PARENT[i] = (k in SECOF) ? SECOF[k] : 0
	}
	for (i = 1; i <= n; i++) {
		DEPTH[i] = 1
		for (c = PARENT[i]; c; c = PARENT[c])
			DEPTH[i]++
		if (is_bridge(i) && !(i in SUBORD)) {
			SUBORD[i] = SEC[i]
			for (c = 1; c <= n; c++)
				for (a = PARENT[c]; a; a = PARENT[a])
					if (a == i && bus_of(B[c]) > SUBORD[i])
						SUBORD[i] = bus_of(B[c])
		}
	}
	if (out == "xml")
		emit_xml()
	else
		emit_sysfs()
}
