# SPDX-License-Identifier: GPL-2.0-or-later
# captures.sh - captures of real machines (lspci -vvv, nvidia-smi -q, ibstat,
# a /sys/class/infiniband copy, an hwloc-gather-topology tarball) turned into
# the sysfs trees and hwloc topologies roce-check reads, at test time.  The
# captures are in the project, tests/captures/ (override with $CAPTURES),
# byte for byte as in their source repositories: tests/captures/SOURCES.txt
# gives each file's source and sha256, tests/captures.md what it shows.
# Source it after fabric.sh.
#
# What a capture shows is written as the kernel (or hwloc) would show it;
# what it does not show is filled healthy and said in tests/captures.md:
# GID tables (GID 3 = RoCE v2 192.0.2.(10+K) on netdev ethK, K counting the
# Ethernet ports made, in order), a synthetic PCI place for devices whose
# capture has none, a board_id where the capture has no PSID.

#
# A machine's tree has hundreds of files: they are written with shell
# builtins, and directories and links made a few commands at a time (a
# process costs more than all the files together on a loaded CI machine).

CAPTURES=${CAPTURES:-$top_srcdir/tests/captures}
CAP_GID_TABLE=8   # entries per GID table: GID 3 is the one looked at, 8 keep trees small
CAP_DEVS=0      # RDMA devices made (mlx5_N of lspci captures)
CAP_NETDEVS=0   # Ethernet netdevs named (eth0, eth1, ...)
declare -A CAP_DEVDIR   # RDMA device -> its directory

# cap_available: the captures are there (they ship with the project: only a
# CAPTURES= pointing elsewhere can miss them).
cap_available() { [ -r "$CAPTURES/SOURCES.txt" ]; }

# cap_reset: a new machine (counters back to 0).
cap_reset() { CAP_DEVS=0; CAP_NETDEVS=0; CAP_DEVDIR=(); CAP_GPU_RAILS=; }
# CAP_GPU_RAILS=MT4129 (a CA type): cap_slot places each adapter of that type
# as an HGX baseboard does, behind a PCIe switch shared with an NVIDIA GPU
# (the GPU's rail); the ibstat captures of H100 nodes show no PCI place.
CAP_GPU_RAILS=

# cap_config TYPE: the escaped bytes (printf %b) of a 4096-byte config space
# as fab_pci_config writes one with ACS off, of PCI Express port TYPE (4 root
# port, 0 an endpoint), vendor 0x8086, no target link speed.
cap_config() {
	local b i cfg=""
	local -a v
	for ((i = 0; i < 4096; i++)); do v[i]=0; done
	v[0]=0x86; v[1]=0x80; v[2]=0x34; v[3]=0x12; v[6]=0x10; v[14]=0x01; v[0x34]=0x40
	v[0x40]=0x10; v[0x42]=$(($1 << 4 | 2))
	v[0x100]=0x01; v[0x102]=0x82; v[0x103]=0x14; v[0x148]=0x0d; v[0x14a]=0x01; v[0x14c]=0x5f
	for ((i = 0; i < 4096; i++)); do printf -v b '\\x%02x' "${v[i]}"; cfg+=$b; done
	printf '%s' "$cfg"
}
CAP_CFG_ROOT=$(cap_config 4)
CAP_CFG_ENDPOINT=$(cap_config 0)

# cap_fn ROOT DEVPATH [CUR WIDTH MAX MAXWIDTH]: the PCI functions of DEVPATH
# (pciDDDD:BB/BDF/...) under ROOT/devices with their bus/pci/devices links,
# each at CUR x WIDTH of MAX x MAXWIDTH (sysfs's words, default 16.0 GT/s
# PCIe x16 for both), the first a root port, the others endpoints (for the
# config space: none of them is a switch port here); the last one's
# directory in CAP_FN.
cap_fn() {
	local root=$1 path=$2 cur=${3:-16.0 GT/s PCIe} w=${4:-16} max=${5:-${3:-16.0 GT/s PCIe}} mw=${6:-${4:-16}}
	local c sofar="" d first=1
	local -a links=()
	mkdir -p "$root/devices/$path" "$root/bus/pci/devices"
	for c in ${path//\// }; do
		sofar=${sofar:+$sofar/}$c
		case $c in pci*) continue ;; esac
		d=$root/devices/$sofar
		links+=("../../../devices/$sofar")
		printf '%s
' "$cur" >"$d/current_link_speed"
		printf '%s
' "$w" >"$d/current_link_width"
		printf '%s
' "$max" >"$d/max_link_speed"
		printf '%s
' "$mw" >"$d/max_link_width"
		if ((first)); then printf '%b' "$CAP_CFG_ROOT" >"$d/config"; else printf '%b' "$CAP_CFG_ENDPOINT" >"$d/config"; fi
		first=0
	done
	ln -sfn "${links[@]}" "$root/bus/pci/devices/"
	CAP_FN=$d
}

# cap_speed GEN -> "16.0 GT/s PCIe" (nvidia-smi's PCIe generation)
cap_speed() {
	case $1 in
	1) echo "2.5 GT/s PCIe" ;; 2) echo "5.0 GT/s PCIe" ;; 3) echo "8.0 GT/s PCIe" ;;
	4) echo "16.0 GT/s PCIe" ;; 5) echo "32.0 GT/s PCIe" ;; *) echo "64.0 GT/s PCIe" ;;
	esac
}

# cap_roce ROOT DEV PORT: the port's GID table and netdev, as fab_roce_ipv4
# makes them, without touching the state, rate or link layer the capture gave.
cap_roce() {
	local root=$1 dev=$2 port=$3 d nd ip ll gid i t
	d=${CAP_DEVDIR[$dev]}/ports/$port
	nd=eth$CAP_NETDEVS
	ip=192.0.2.$((10 + CAP_NETDEVS))
	CAP_NETDEVS=$((CAP_NETDEVS + 1))
	mkdir -p "$d/gids" "$d/gid_attrs/types" "$d/gid_attrs/ndevs" "${CAP_DEVDIR[$dev]}/device/net/$nd"
	for ((i = 0; i < CAP_GID_TABLE; i++)); do
		printf '%s\n' "$FAB_GID_ZERO" >"$d/gids/$i"
		: >"$d/gid_attrs/types/$i"
		: >"$d/gid_attrs/ndevs/$i"
	done
	ll=$(fab_gid_linklocal "$CAP_NETDEVS")
	gid=$(fab_gid_ipv4 "$ip")
	for i in 0 1 2 3; do
		case $i in 0 | 1) printf '%s\n' "$ll" >"$d/gids/$i" ;; *) printf '%s\n' "$gid" >"$d/gids/$i" ;; esac
		case $i in 0 | 2) t="IB/RoCE v1" ;; *) t="RoCE v2" ;; esac
		printf '%s\n' "$t" >"$d/gid_attrs/types/$i"
		printf '%s\n' "$nd" >"$d/gid_attrs/ndevs/$i"
	done
}

# cap_device ROOT DEV BDF HCA_TYPE BOARD FW: an RDMA device on the PCI
# function BDF (which must exist), with its identity files.
cap_device() {
	local root=$1 dev=$2 bdf=$3 pcidir
	pcidir=$(cd "$root/bus/pci/devices/$bdf" && pwd -P) || return 1
	mkdir -p "$pcidir/infiniband/$dev/ports" "$root/class/infiniband"
	ln -sfn "../../../$bdf" "$pcidir/infiniband/$dev/device"
	ln -sfn "../../${pcidir#"$root"/}/infiniband/$dev" "$root/class/infiniband/$dev"
	CAP_DEVDIR[$dev]=$pcidir/infiniband/$dev
	printf '%s\n' "$4" >"$pcidir/infiniband/$dev/hca_type"
	printf '%s\n' "$5" >"$pcidir/infiniband/$dev/board_id"
	printf '%s\n' "$6" >"$pcidir/infiniband/$dev/fw_ver"
}

# cap_port ROOT DEV N STATE PHYS RATE LL: a port as the capture says it
# (ibstat's words or sysfs's text), with its GIDs and netdev when Ethernet.
cap_port() {
	local root=$1 dev=$2 n=$3 state=$4 phys=$5 rate=$6 ll=$7
	case $state in Active) state="4: ACTIVE" ;; Down) state="1: DOWN" ;; Initializing) state="2: INIT" ;; Armed) state="3: ARMED" ;; esac
	case $phys in
	LinkUp) phys="5: LinkUp" ;; Disabled) phys="3: Disabled" ;; Polling) phys="2: Polling" ;;
	Sleep) phys="1: Sleep" ;; LinkErrorRecovery) phys="6: LinkErrorRecovery" ;;
	esac
	case $rate in
	400) rate="400 Gb/sec (4X NDR)" ;; 100) rate="100 Gb/sec (4X EDR)" ;; 40) rate="40 Gb/sec (4X QDR)" ;;
	25) rate="25 Gb/sec (1X EDR)" ;; 10) rate="10 Gb/sec (4X SDR)" ;;
	200) rate="200 Gb/sec (4X HDR)" ;;
	esac
	local d=${CAP_DEVDIR[$dev]}/ports/$n
	mkdir -p "$d"
	printf '%s\n' "$state" >"$d/state"
	printf '%s\n' "$phys" >"$d/phys_state"
	printf '%s\n' "$rate" >"$d/rate"
	printf '%s\n' "$ll" >"$d/link_layer"
	[ "$ll" = Ethernet ] && cap_roce "$root" "$dev" "$n"
	return 0
}

# cap_nic BDF LL HCA_TYPE BOARD RATE (a line of captures-lspci.awk, with $R
# the root): the next mlx5_N on that function, one port at RATE.
cap_nic() {
	local dev=mlx5_$CAP_DEVS
	CAP_DEVS=$((CAP_DEVS + 1))
	cap_device "$R" "$dev" "$1" "$3" "$4" "00.00.0000"
	cap_port "$R" "$dev" 1 Active LinkUp "$5" "$2"
}

# cap_lspci ROOT FILE: the PCI functions of an lspci dump under ROOT (see
# captures-lspci.awk) and an RDMA device on each Mellanox network function.
cap_lspci() {
	local R=$1
	mkdir -p "$R/bus/pci/devices" "$R/devices"
	. <(awk -v out=sysfs -f "$top_srcdir/tests/lib/captures-lspci.awk" "$2")
}

# cap_lspci_xml FILE OUT: the hwloc topology of an lspci dump.
cap_lspci_xml() { awk -v out=xml -f "$top_srcdir/tests/lib/captures-lspci.awk" "$1" >"$2"; }

# cap_nvsmi ROOT FILE [SECTION]: each GPU of an nvidia-smi -q capture: a
# function the lspci of the same machine made gets the GPU's link as
# nvidia-smi reports it (its side: Device Current, Device Max); any other is
# made below a root port of its own on bus - 1 (bus 00: on the host bridge),
# whose maximum is the capture's Host Max, its config space without a target
# speed (nvidia-smi does not show one).
cap_nvsmi() {
	local root=$1 bdf dev subv subd cur curw dmax maxw hmax ps d rp
	while read -r bdf dev subv subd cur curw dmax maxw hmax ps; do
		if [ ! -e "$root/bus/pci/devices/$bdf" ]; then
			rp=$(printf '%02x' $((0x${bdf:5:2} - 1)))
			if [ "${bdf:5:2}" = 00 ]; then
				cap_fn "$root" "pci${bdf:0:4}:00/$bdf"
			else
				cap_fn "$root" "pci${bdf:0:4}:$rp/${bdf:0:4}:$rp:01.0/$bdf" "$(cap_speed "$cur")" "$curw" \
					"$(cap_speed "$hmax")" "$maxw"
			fi
			printf '0x10de\n' >"$CAP_FN/vendor"
			printf '0x%s\n' "$dev" >"$CAP_FN/device"
			printf '0x030200\n' >"$CAP_FN/class"
		fi
		[ "${bdf:5:2}" = 00 ] && continue   # no link of its own
		d=$root/bus/pci/devices/$bdf
		printf '%s\n' "$(cap_speed "$cur")" >"$d/current_link_speed"
		printf '%s\n' "$curw" >"$d/current_link_width"
		printf '%s\n' "$(cap_speed "$dmax")" >"$d/max_link_speed"
		printf '%s\n' "$maxw" >"$d/max_link_width"
	done < <(awk -v out=gpus -v section="${3:-}" -f "$top_srcdir/tests/lib/captures-nvsmi.awk" "$2")
}

# cap_nvsmi_xml FILE OUT [SECTION]: the hwloc topology of those GPUs.
cap_nvsmi_xml() {
	awk -v out=xml -v section="${3:-}" -f "$top_srcdir/tests/lib/captures-nvsmi.awk" "$1" >"$2"
}

# cap_slot ROOT I HCA_TYPE: the PCI place of the I-th device of a capture
# without PCI addresses (ibstat, a class/infiniband copy), its address in
# CAP_BDF: a root port of its own (pci0000:RR, RR = 0x10 + 2I), the device on
# bus RR + 1 at the link its part has (Gen5 x16 for ConnectX-7 MT4129 and
# BlueField-3 MT41692, else Gen4 x16); a virtual function (MT4126, a cloud
# VM's) on the host bridge; an adapter of type CAP_GPU_RAILS behind a PCIe
# switch under root port pci0000:RR (RR = 0x40 + 8I) shared with an NVIDIA
# GPU on bus RR + 4.
cap_slot() {
	local root=$1 i=$2 type=$3 rp sw speed="16.0 GT/s PCIe"
	case $type in MT4129 | MT41692) speed="32.0 GT/s PCIe" ;; esac
	if [ -n "$CAP_GPU_RAILS" ] && [ "$type" = "$CAP_GPU_RAILS" ]; then
		# root port RR:01.0, switch upstream port, two downstream ports:
		# .0 to the adapter, .1 to an H100 (vendor 0x10de, 3D controller)
		printf -v rp '%02x' $((0x40 + 8 * i))
		printf -v sw 'pci0000:%s/0000:%s:01.0/0000:%02x:00.0' "$rp" "$rp" $((0x41 + 8 * i))
		cap_fn "$root" "$(printf '%s/0000:%02x:01.0/0000:%02x:00.0' "$sw" $((0x42 + 8 * i)) $((0x44 + 8 * i)))"
		printf '0x10de\n' >"$CAP_FN/vendor"
		printf '0x030200\n' >"$CAP_FN/class"
		printf -v CAP_BDF '0000:%02x:00.0' $((0x43 + 8 * i))
		cap_fn "$root" "$sw/$(printf '0000:%02x:00.0' $((0x42 + 8 * i)))/$CAP_BDF" "$speed"
	elif [ "$type" = MT4126 ]; then
		printf -v CAP_BDF '0000:00:%02x.0' $((0x10 + i))
		cap_fn "$root" "pci0000:00/$CAP_BDF"
	else
		printf -v rp '%02x' $((0x10 + 2 * i))
		printf -v CAP_BDF '0000:%02x:00.0' $((0x11 + 2 * i))
		cap_fn "$root" "pci0000:$rp/0000:$rp:01.0/$CAP_BDF" "$speed"
	fi
	printf '0x15b3\n' >"$CAP_FN/vendor"
	printf '0x%04x\n' "${type#MT}" >"$CAP_FN/device"
	printf '0x020000\n' >"$CAP_FN/class"
}

# cap_ibstat ROOT FILE: the devices and ports of an ibstat capture.  ibstat
# shows no PSID: board_id is "ibstat-<CA type>-fw<major>" (the firmware's
# major number is the chip: 22 ConnectX-6 Dx, 28 ConnectX-7, 32 BlueField-3).
cap_ibstat() {
	local root=$1 kind name a b c d e i=0 bdf
	while read -r kind name a b c d e; do
		case $kind in
		ca)
			cap_slot "$root" "$i" "$a"
			i=$((i + 1))
			cap_device "$root" "$name" "$CAP_BDF" "$a" "ibstat-$a-fw${b%%.*}" "$b" ;;
		port) cap_port "$root" "$name" "$a" "$b" "$c" "$d" "$e" ;;
		esac
	done < <(awk -f "$top_srcdir/tests/lib/captures-ibstat.awk" "$2")
}

# cap_ibclass ROOT DIR: a copy of /sys/class/infiniband (its files byte for
# byte: board_id, fw_ver, hca_type, ports/N/{state,phys_state,rate,
# link_layer,counters,hw_counters}), each device on a PCI place of its own
# (cap_slot), its Ethernet ports given GIDs and netdevs.
cap_ibclass() {
	local root=$1 dir=$2 dev i=0 pcidir p
	for dev in $(ls "$dir" | sort -V); do
		cap_slot "$root" "$i" "$(<"$dir/$dev/hca_type")"
		i=$((i + 1))
		pcidir=$CAP_FN
		mkdir -p "$pcidir/infiniband" "$root/class/infiniband"
		cp -R "$dir/$dev" "$pcidir/infiniband/$dev"
		ln -sfn "../../../$CAP_BDF" "$pcidir/infiniband/$dev/device"
		ln -sfn "../../${pcidir#"$root"/}/infiniband/$dev" "$root/class/infiniband/$dev"
		CAP_DEVDIR[$dev]=$pcidir/infiniband/$dev
		for p in "$pcidir/infiniband/$dev"/ports/*; do
			[ "$(<"$p/link_layer")" = Ethernet ] && cap_roce "$root" "$dev" "${p##*/}"
		done
	done
	return 0
}

# cap_bond ROOT DEV BOND MEMBER...: RoCE LAG on DEV's Ethernet port: its GIDs
# name BOND (a virtual netdev whose bonding/slaves lists the members, as the
# bonding driver shows it); each member a netdev of a function of DEV's slot
# (.0, .1, ...).  The captures show the LAG device, not its bond.
cap_bond() {
	local root=$1 dev=$2 bond=$3 pcidir slot i=0 m d f
	shift 3
	pcidir=$(cd "${CAP_DEVDIR[$dev]}/device" && pwd -P)
	for d in "${CAP_DEVDIR[$dev]}"/ports/*/gid_attrs/ndevs/*; do
		[ -s "$d" ] && printf '%s\n' "$bond" >"$d"
	done
	rm -rf "$pcidir"/net/*
	mkdir -p "$root/devices/virtual/net/$bond/bonding" "$root/class/net"
	printf '%s\n' "$*" >"$root/devices/virtual/net/$bond/bonding/slaves"
	ln -sfn "../../devices/virtual/net/$bond" "$root/class/net/$bond"
	slot=${pcidir%.*}
	for m in "$@"; do
		f=$slot.$i
		i=$((i + 1))
		mkdir -p "$f/net/$m"
		ln -sfn "../../${f#"$root"/}/net/$m" "$root/class/net/$m"
	done
}

# cap_hwloc_tarball ROOT TARBALL: an hwloc-gather-topology tarball unpacked
# under ROOT; prints its sysfs root.  hwloc gathers devices/ whole but links in
# bus/pci/devices only some functions: the others get their link as the
# kernel makes one for every function.
cap_hwloc_tarball() {
	local root=$1 sys d
	tar xjf "$2" -C "$root" || return 1
	sys=$(echo "$root"/*/sys)
	while read -r d; do
		[ -e "$sys/bus/pci/devices/${d##*/}" ] ||
			ln -s "../../../devices/${d#"$sys"/devices/}" "$sys/bus/pci/devices/${d##*/}"
	done < <(find "$sys/devices" -type d -name '[0-9a-f][0-9a-f][0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f].[0-7]')
	echo "$sys"
}
