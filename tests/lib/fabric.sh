# SPDX-License-Identifier: GPL-2.0-or-later
# fabric.sh - write sysfs fixture trees exactly as the kernel lays them out.
#
# Source it and call the fab_* functions; ROOT plays the role of /sys
# (roce-check --sysfs-root ROOT).  Layout, as drivers/infiniband/core/sysfs.c
# makes it:
#   ROOT/class/infiniband/mlx5_0 -> ../../devices/pci0000:00/0000:00:02.0/0000:41:00.0/infiniband/mlx5_0
#   .../infiniband/mlx5_0/device -> ../../../0000:41:00.0
#   .../infiniband/mlx5_0/ports/1/{state,phys_state,link_layer,rate}
#   .../ports/1/gids/0..255, gid_attrs/types/0..255, gid_attrs/ndevs/0..255
#   .../ports/1/counters/*, hw_counters/*
#   .../0000:41:00.0/net/eth0/ (the PCI function's netdev)
#   ROOT/bus/pci/devices/0000:41:00.0 -> ../../../devices/pci0000:00/0000:00:02.0/0000:41:00.0
#   .../0000:41:00.0/{current,max}_link_{speed,width}, config (every function on the path)
#   .../0000:41:00.0/iommu_group -> ROOT/kernel/iommu_groups/N (fab_iommu)
#   ROOT/module/nvidia_peermem/ (GPUDirect RDMA module loaded)
# Values are written with a trailing newline, as sysfs prints them.  Empty GID
# slots read as all zeros; their type/ndev files exist but are empty here (the
# kernel fails the read with EINVAL, which a plain file cannot do).

FAB_GID_ZERO=0000:0000:0000:0000:0000:0000:0000:0000
FAB_GID_TABLE=${FAB_GID_TABLE:-256}

# fab_devdir ROOT DEV -> the device directory behind the class link
fab_devdir() {
	local l
	l=$(readlink "$1/class/infiniband/$2") || return 1
	echo "$1/class/infiniband/$l"
}

# fab_pci_fn ROOT DEVPATH: the PCI function at ROOT/devices/DEVPATH (e.g.
# pci0000:40/0000:40:01.1/0000:41:00.0), with its bus/pci/devices link as
# the kernel makes it, a healthy 16.0 GT/s x16 link (fab_pcie_link
# changes it) and a config space with ACS off (fab_pci_config changes it).  Every function above it on DEVPATH gets the same.
fab_pci_fn() {
	local root=$1 path=$2 sofar="" c
	mkdir -p "$root/bus/pci/devices"
	for c in ${path//\// }; do
		sofar=${sofar:+$sofar/}$c
		case $c in pci*) continue ;; esac
		mkdir -p "$root/devices/$sofar"
		ln -sfn "../../../devices/$sofar" "$root/bus/pci/devices/$c"
		[ -f "$root/devices/$sofar/max_link_speed" ] || fab_pcie_link "$root" "$c"
		[ -f "$root/devices/$sofar/config" ] || fab_pci_config "$root" "$c"
	done
}

# fab_pcie_link ROOT BDF [cur=SPEED] [width=N] [max=SPEED] [maxwidth=N]: the
# link attributes of an existing PCI function, as drivers/pci/pci-sysfs.c
# prints them ("16.0 GT/s PCIe", "16"); defaults 16.0 GT/s PCIe x16.
fab_pcie_link() {
	local root=$1 bdf=$2 cur="16.0 GT/s PCIe" width=16 max="" maxwidth="" kv; shift 2
	for kv in "$@"; do
		case $kv in
		cur=*) cur=${kv#cur=} ;;
		width=*) width=${kv#width=} ;;
		max=*) max=${kv#max=} ;;
		maxwidth=*) maxwidth=${kv#maxwidth=} ;;
		*) echo "fab_pcie_link: unknown $kv" >&2; return 1 ;;
		esac
	done
	local d="$root/bus/pci/devices/$bdf"
	printf '%s\n' "$cur" >"$d/current_link_speed"
	printf '%s\n' "$width" >"$d/current_link_width"
	printf '%s\n' "${max:-$cur}" >"$d/max_link_speed"
	printf '%s\n' "${maxwidth:-$width}" >"$d/max_link_width"
}

# fab_poke FILE OFFSET BYTE...: write hex bytes into FILE at OFFSET (in place).
fab_poke() {
	local f=$1 off=$2 b esc=""; shift 2
	for b in "$@"; do esc="$esc\\x$b"; done
	printf "$esc" | dd of="$f" bs=1 seek="$((off))" conv=notrunc status=none
}

# fab_pci_config ROOT BDF [ACS_CTRL|none]: the 4096-byte config space root
# reads (a bridge: header type 1): the standard capability list (0x34) holds
# the PCI Express capability at 0x40 with the port type of the function's
# depth below the host bridge (0 root port, then switch upstream and
# downstream ports in turn; an endpoint at odd depth reads as an upstream
# port, never looked at); its extended capabilities AER at 0x100, then ACS
# at 0x148 (capability 0x005f, control ACS_CTRL, default 0x0000), or AER
# alone with "none".  Little-endian, as the registers are.
fab_pci_config() {
	local f="$1/bus/pci/devices/$2/config" ctrl=${3:-0x0000} depth type
	depth=$(readlink "$1/bus/pci/devices/$2" | tr '/' '\n' | grep -c '^[0-9a-f]\{4\}:')
	type=$(( depth == 1 ? 4 : depth % 2 == 0 ? 5 : 6 ))
	head -c 4096 /dev/zero >"$f"
	fab_poke "$f" 0 86 80 34 12
	fab_poke "$f" 0x06 10
	fab_poke "$f" 0x0e 01
	fab_poke "$f" 0x34 40
	fab_poke "$f" 0x40 10 00 "$(printf '%02x' $((type << 4 | 2)))" 00
	if [ "$ctrl" = none ]; then
		fab_poke "$f" 0x100 01 00 02 00
		return
	fi
	fab_poke "$f" 0x100 01 00 82 14
	fab_poke "$f" 0x148 0d 00 01 00 5f 00 "$(printf '%02x' $((ctrl & 255)))" "$(printf '%02x' $((ctrl >> 8)))"
}

# fab_iommu ROOT BDF GROUP TYPE: the function is in IOMMU group GROUP of
# TYPE (DMA, DMA-FQ, identity, blocked, unmanaged), as the kernel links it:
# <dev>/iommu_group -> ../../..(to ROOT)/kernel/iommu_groups/GROUP, whose
# type file says TYPE and whose devices/ links back.
fab_iommu() {
	local root=$1 bdf=$2 group=$3 type=$4 rel up="" c
	rel=$(readlink "$root/bus/pci/devices/$bdf"); rel=${rel#../../../}
	for c in ${rel//\// }; do up="../$up"; done
	mkdir -p "$root/kernel/iommu_groups/$group/devices"
	printf '%s\n' "$type" >"$root/kernel/iommu_groups/$group/type"
	ln -sfn "${up}kernel/iommu_groups/$group" "$root/$rel/iommu_group"
	ln -sfn "../../../../$rel" "$root/kernel/iommu_groups/$group/devices/$bdf"
}

# fab_hca ROOT DEV PCI_ADDR [NPORTS] [BRIDGES]: an RDMA device behind a PCI
# function; BRIDGES is its path below ROOT/devices (default
# pci0000:BB/0000:BB:01.0, a root port on the device's bus number).
fab_hca() {
	local root=$1 dev=$2 pci=$3 nports=${4:-1} p
	local bridge=${5:-"pci0000:${pci:5:2}/0000:${pci:5:2}:01.0"}
	local pcidir="$root/devices/$bridge/$pci"
	fab_pci_fn "$root" "$bridge/$pci"
	mkdir -p "$pcidir/infiniband/$dev/ports" "$root/class/infiniband" "$pcidir/net"
	printf '0x15b3\n' >"$pcidir/vendor"
	printf '0x101b\n' >"$pcidir/device"
	printf '0x020700\n' >"$pcidir/class"
	ln -sfn "../../../$pci" "$pcidir/infiniband/$dev/device"
	ln -sfn "../../devices/$bridge/$pci/infiniband/$dev" "$root/class/infiniband/$dev"
	printf 'MT28908\n' >"$pcidir/infiniband/$dev/hca_type"
	printf 'MT_0000000223\n' >"$pcidir/infiniband/$dev/board_id"
	printf '20.39.1002\n' >"$pcidir/infiniband/$dev/fw_ver"
	printf '0c42:a103:00fa:1234\n' >"$pcidir/infiniband/$dev/node_guid"
	for p in $(seq 1 "$nports"); do
		fab_port "$root" "$dev" "$p"
	done
}

# fab_port ROOT DEV PORT [key=value...]: state= phys= ll= rate= netdev= speed=
# Creates the port with an all-empty GID table; defaults are a healthy
# 100G Ethernet port.  speed= (Mb/s, with netdev=) writes the netdev's
# class/net/NETDEV/speed, class/net/NETDEV linking to the PCI function's net/NETDEV.
fab_port() {
	local root=$1 dev=$2 port=$3; shift 3
	local state="4: ACTIVE" phys="5: LinkUp" ll=Ethernet rate="100 Gb/sec (4X EDR)" netdev="" speed="" kv i
	for kv in "$@"; do
		case $kv in
		state=*) state=${kv#state=} ;;
		phys=*) phys=${kv#phys=} ;;
		ll=*) ll=${kv#ll=} ;;
		rate=*) rate=${kv#rate=} ;;
		netdev=*) netdev=${kv#netdev=} ;;
		speed=*) speed=${kv#speed=} ;;
		*) echo "fab_port: unknown $kv" >&2; return 1 ;;
		esac
	done
	local d; d=$(fab_devdir "$root" "$dev")/ports/$port
	if [ ! -d "$d/gids" ]; then
		mkdir -p "$d/gids" "$d/gid_attrs/types" "$d/gid_attrs/ndevs" "$d/counters" "$d/hw_counters"
		for ((i = 0; i < FAB_GID_TABLE; i++)); do
			printf '%s\n' "$FAB_GID_ZERO" >"$d/gids/$i"
			: >"$d/gid_attrs/types/$i"
			: >"$d/gid_attrs/ndevs/$i"
		done
	fi
	printf '%s\n' "$state" >"$d/state"
	printf '%s\n' "$phys" >"$d/phys_state"
	printf '%s\n' "$ll" >"$d/link_layer"
	printf '%s\n' "$rate" >"$d/rate"
	if [ -n "$netdev" ]; then
		mkdir -p "$(fab_devdir "$root" "$dev")/device/net/$netdev"
	fi
	if [ -n "$speed" ]; then
		fab_netdev_file "$root" "$dev" "$netdev" speed "$speed"
	fi
}

# fab_netdev_file ROOT DEV NETDEV RELPATH VALUE: a file of the netdev's sysfs
# directory (class/net/NETDEV/RELPATH, e.g. speed, qos/trust, ecn/roce_np/enable/3).
fab_netdev_file() {
	local root=$1 dev=$2 nd=$3 rel=$4 pcidir
	pcidir=$(cd "$(fab_devdir "$root" "$dev")/device" && pwd -P) || return 1
	mkdir -p "$pcidir/net/$nd/$(dirname "$rel")" "$root/class/net"
	[ -e "$root/class/net/$nd" ] || ln -sfn "../../${pcidir#"$root"/}/net/$nd" "$root/class/net/$nd"
	printf '%s\n' "$5" >"$pcidir/net/$nd/$rel"
}

# fab_ecn ROOT DEV NETDEV: MLNX_OFED's ecn/ of the netdev, as its defaults:
# roce_np and roce_rp enabled on every priority, cnp_dscp 48, cnp_802p_prio 6.
# Change one file with fab_netdev_file (e.g. ecn/roce_rp/enable/3 0).
fab_ecn() {
	local p
	for p in 0 1 2 3 4 5 6 7; do
		fab_netdev_file "$1" "$2" "$3" "ecn/roce_np/enable/$p" 1
		fab_netdev_file "$1" "$2" "$3" "ecn/roce_rp/enable/$p" 1
	done
	fab_netdev_file "$1" "$2" "$3" ecn/roce_np/cnp_dscp 48
	fab_netdev_file "$1" "$2" "$3" ecn/roce_np/cnp_802p_prio 6
}

# fab_gid ROOT DEV PORT INDEX GID TYPE NDEV  (TYPE "RoCE v2" or "IB/RoCE v1")
fab_gid() {
	local d; d=$(fab_devdir "$1" "$2")/ports/$3
	printf '%s\n' "$5" >"$d/gids/$4"
	printf '%s\n' "$6" >"$d/gid_attrs/types/$4"
	printf '%s\n' "$7" >"$d/gid_attrs/ndevs/$4"
}

# fab_gid_clear ROOT DEV PORT INDEX: make a slot empty again.
fab_gid_clear() {
	local d; d=$(fab_devdir "$1" "$2")/ports/$3
	printf '%s\n' "$FAB_GID_ZERO" >"$d/gids/$4"
	: >"$d/gid_attrs/types/$4"
	: >"$d/gid_attrs/ndevs/$4"
}

# fab_gid_ipv4 A.B.C.D -> the IPv4-mapped GID text
fab_gid_ipv4() {
	local IFS=.
	set -- $1
	printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$1" "$2" "$3" "$4"
}

# fab_gid_linklocal N -> a fe80:: GID derived from N
fab_gid_linklocal() {
	printf 'fe80:0000:0000:0000:0e42:a1ff:fe%02x:%04x' "$(($1 & 255))" "$(($1 & 65535))"
}

# fab_roce_ipv4 ROOT DEV PORT NETDEV IPV4 [FIRST]: the typical mlx5 table for a
# netdev with one IPv4 address: FIRST+0 fe80 v1, +1 fe80 v2, +2 IPv4 v1, +3 IPv4 v2.
fab_roce_ipv4() {
	local root=$1 dev=$2 port=$3 nd=$4 ip=$5 first=${6:-0} ll gid
	ll=$(fab_gid_linklocal "$((0x${dev##*_} * 16 + port))")
	gid=$(fab_gid_ipv4 "$ip")
	fab_gid "$root" "$dev" "$port" "$first" "$ll" "IB/RoCE v1" "$nd"
	fab_gid "$root" "$dev" "$port" "$((first + 1))" "$ll" "RoCE v2" "$nd"
	fab_gid "$root" "$dev" "$port" "$((first + 2))" "$gid" "IB/RoCE v1" "$nd"
	fab_gid "$root" "$dev" "$port" "$((first + 3))" "$gid" "RoCE v2" "$nd"
	fab_port "$root" "$dev" "$port" netdev="$nd"
}

# fab_counter ROOT DEV PORT (counters|hw_counters) NAME VALUE
fab_counter() {
	local d; d=$(fab_devdir "$1" "$2")/ports/$3
	mkdir -p "$d/$4"
	printf '%s\n' "$6" >"$d/$4/$5"
}

# fab_standard_counters ROOT DEV PORT: the standard and mlx5 counters, zeroed.
fab_standard_counters() {
	local n
	for n in port_xmit_data port_rcv_data port_xmit_packets port_rcv_packets port_rcv_errors \
		port_xmit_discards symbol_error link_downed link_error_recovery; do
		fab_counter "$1" "$2" "$3" counters "$n" 0
	done
	for n in out_of_sequence packet_seq_err implied_nak_seq_err local_ack_timeout_err \
		duplicate_request rnr_nak_retry_err out_of_buffer req_transport_retries_exceeded \
		roce_adp_retrans roce_adp_retrans_to roce_slow_restart roce_slow_restart_cnps \
		np_ecn_marked_roce_packets np_cnp_sent rp_cnp_handled rp_cnp_ignored rx_icrc_encapsulated; do
		fab_counter "$1" "$2" "$3" hw_counters "$n" 0
	done
	fab_counter "$1" "$2" "$3" hw_counters lifespan 10
}

# fab_gdr ROOT [MODULE]: the GPUDirect RDMA module is loaded and its
# peer-memory client registered (kernel/mm/memory_peers/nv_mem/version).
fab_gdr() {
	fab_gdr_module "$1" "${2:-nvidia_peermem}"
	mkdir -p "$1/kernel/mm/memory_peers/nv_mem"
	printf '1.1-0\n' >"$1/kernel/mm/memory_peers/nv_mem/version"
	[ "${2:-nvidia_peermem}" = nvidia_peermem ] && printf '1.0\n' >"$1/module/nvidia_peermem/version"
	return 0
}

# fab_gdr_module ROOT [MODULE]: the module directory only (loaded, no client).
fab_gdr_module() {
	mkdir -p "$1/module/${2:-nvidia_peermem}"
	printf 'live\n' >"$1/module/${2:-nvidia_peermem}/initstate"
}

# fab_dmabuf PROC [RELEASE] [open|proprietary]: what /proc says about DMA-BUF:
# the kernel release and the NVIDIA driver's version line.
fab_dmabuf() {
	local proc=$1 rel=${2:-6.1.0-18-amd64} kind=${3:-open}
	mkdir -p "$proc/sys/kernel" "$proc/driver/nvidia"
	printf '%s\n' "$rel" >"$proc/sys/kernel/osrelease"
	if [ "$kind" = open ]; then
		printf 'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  535.104.05  Release Build  (dvs-builder@U16-I3-B03-4-3)  Thu Aug 17 23:21:51 UTC 2023\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n' >"$proc/driver/nvidia/version"
	else
		printf 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n' >"$proc/driver/nvidia/version"
	fi
}

# fab_example ROOT [NHCA]: the seed site's node: NHCA (default 2) ConnectX-6
# Ethernet ports mlx5_0.. on eth0.., IPv4 192.0.2.(10+i), GID 3 = RoCE v2 IPv4,
# counters present, nvidia_peermem loaded.
fab_example() {
	local root=$1 n=${2:-2} i pci
	for ((i = 0; i < n; i++)); do
		pci=$(printf '0000:%02x:00.0' $((0x41 + i * 0x10)))
		fab_hca "$root" "mlx5_$i" "$pci" 1
		fab_roce_ipv4 "$root" "mlx5_$i" 1 "eth$i" "192.0.2.$((10 + i))"
		fab_standard_counters "$root" "mlx5_$i" 1
	done
	fab_gdr "$root"
}

# fab_two_socket ROOT: the node of tests/fixtures/topo/two-socket.xml: four
# healthy RoCE HCAs at its NIC addresses, mlx5_0 and mlx5_1 on GPU 0's switch
# (0000:04:00.0/.1), mlx5_3 by GPU 2 (0000:84:00.0), mlx5_2 by GPU 3
# (0000:88:00.0: the numbering is not in PCI order); mlx5_N on ethN with IPv4
# 192.0.2.(20+N); GPUDirect loaded.
fab_two_socket() {
	local root=$1 h name n
	mkdir -p "$root"
	for h in mlx5_0=0000:04:00.0 mlx5_1=0000:04:00.1 mlx5_3=0000:84:00.0 mlx5_2=0000:88:00.0; do
		name=${h%%=*}; n=${name##*_}
		fab_hca "$root" "$name" "${h#*=}" 1
		fab_roce_ipv4 "$root" "$name" 1 "eth$n" "192.0.2.$((20 + n))"
	done
	fab_gdr "$root"
}

# fab_two_socket_clash: why this machine cannot stand for that node in a lab
# (it has one of the XML's PCI roots, which the lab would hide), or nothing.
fab_two_socket_clash() {
	local d
	for d in 04 84 88; do
		[ -e "/sys/devices/pci0000:$d" ] && { echo "this machine has a PCI root pci0000:$d (the fixture's)"; return; }
	done
	return 0
}

# fab_vlan ROOT LOWER VLAN: a VLAN netdev on LOWER (which must have a
# class/net entry, e.g. from fab_netdev_file) as the kernel shows it: a
# virtual device, class/net/VLAN, and its lower_LOWER adjacency link.
fab_vlan() {
	local root=$1 lower=$2 vlan=$3 target
	target=$(readlink "$root/class/net/$lower") || return 1
	mkdir -p "$root/devices/virtual/net/$vlan"
	ln -sfn "../../../${target#../../}" "$root/devices/virtual/net/$vlan/lower_$lower"
	ln -sfn "../../devices/virtual/net/$vlan" "$root/class/net/$vlan"
}
