#!/usr/bin/env bash
# Captures the Linux fixtures in this folder from interfaces built inside a private network namespace
# (nothing touches the host's network). Run as root: Tests/NetParsersTests/Fixtures/capture.sh
# Needs iproute2 and net-tools (ifconfig, route, netstat), python3 for the listeners.
set -euo pipefail
out="$(cd "$(dirname "$0")" && pwd)/linux"
mkdir -p "$out"
[ "$(id -u)" = 0 ] || { echo "capture.sh needs root (network namespaces)." >&2; exit 1; }
exec unshare -n bash -s "$out" <<'INNER'
set -euo pipefail
out=$1
ip link set lo up
ip link add veth0 type veth peer name veth1
ip link set veth0 up; ip link set veth1 up
ip addr add 10.10.0.1/24 dev veth0
ip addr add 10.10.0.2/24 dev veth0           # several addresses on one interface
ip addr add 10.10.1.1/16 dev veth0
ip addr add fd00:10::1/64 dev veth0
ip addr add 10.10.0.9/24 dev veth1
ip link add br0 type bridge
ip link set br0 up
ip addr add 192.168.50.1/24 dev br0
# This kernel has no 8021q or dummy module: VLAN-style stacked links are macvlan and vxlan (same `name@parent`
# shape in `ip addr`), and the down interface is a second bridge. The script still tries vlan and dummy first.
if ip link add link veth0 name veth0.42 type vlan id 42 2>/dev/null; then stacked=veth0.42
else ip link add link veth0 name mac42 type macvlan; stacked=mac42; fi
ip link set "$stacked" mtu 1400 up
ip addr add 172.16.42.1/28 dev "$stacked"
ip link add vx5 type vxlan id 5 dstport 4789 dev veth0
ip link set vx5 up
if ip link add down0 type dummy 2>/dev/null; then :; else ip link add down0 type bridge; fi
ip addr add 198.51.100.7/32 dev down0         # left down on purpose
ip link set down0 mtu 9000
ip tuntap add dev tun0 mode tun
ip addr add 100.64.0.1 peer 100.64.0.2 dev tun0
ip link set tun0 up
ip -6 addr add 2001:db8:1::5/48 dev br0
ip route add default via 10.10.0.254 dev veth0 metric 100
ip route add 203.0.113.0/24 via 10.10.0.253 dev veth0 metric 20
ip -6 route add 2001:db8:99::/64 via fd00:10::fe dev veth0 metric 50
ip -6 route add default via fd00:10::fe dev veth0 metric 1024
sleep 2  # let IPv6 duplicate address detection settle so link-local addresses appear
# listeners and one established connection, all inside the namespace
python3 - <<'PY' &
import socket, time
t = socket.socket(); t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); t.bind(("127.0.0.1", 2222)); t.listen(5)
t6 = socket.socket(socket.AF_INET6); t6.bind(("::", 8080)); t6.listen(5)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("0.0.0.0", 5353))
u6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); u6.bind(("::1", 5354))
c = socket.create_connection(("127.0.0.1", 2222)); s, _ = t.accept()
time.sleep(30)
PY
sleep 1
cd "$out"
ip addr > ip-addr.out
ip -o addr > ip-o-addr.out
ip -j addr > ip-j-addr.out
ifconfig -a > ifconfig-a.out
route -n > route-n.out
route -6 -n > route-6-n.out
ip route > ip-route.out
ip -6 route > ip-6-route.out
netstat -rn > netstat-rn.out
netstat -tuna > netstat-tuna.out
netstat -tulpn > netstat-tulpn.out
ss -tuna > ss-tuna.out
ss -tulpn > ss-tulpn.out
kill %1 2>/dev/null || true
echo "captured into $out"
INNER
