#!/usr/bin/env bash
# Real OpenSSH servers on loopback for eSSH's tests.
#
#   Tests/Harness/test-servers.sh start   start the servers, write STATE/servers.env
#   Tests/Harness/test-servers.sh stop    stop them and the PostgreSQL clusters tests of this STATE left running
#                                         (TestSupport's PostgresCluster, /run/essh-test/<hash>-pg); safe twice
#   Tests/Harness/test-servers.sh status  say whether they run
#
# STATE is $ESSH_TEST_STATE or <repo>/.test-servers. Tests read STATE/servers.env (KEY=VALUE lines).
#
# Jump hosts (network namespaces, names and addresses derived from STATE so several checkouts' harnesses coexist;
# stop deletes every namespace of this STATE, also those a crashed run left):
#   root ──veth── b1 (bastion) ──veth── t1 (target, reachable only from b1: no route, no IP forwarding)
#                    └────veth── b2 (second bastion, reachable only from b1) ──veth── t2 (reachable only from b2)
# Addresses: one /28 of 198.18.0.0/15 (RFC 2544's benchmarking range, never routed) per STATE, a /30 per link.
# Each namespace runs its own sshd (UsePAM no, key + password, the same user and authorized_keys as the main sshd)
# with its OWN ed25519 and ecdsa host keys, on port 22 (t1: 2200, to exercise [host]:port names). b1 also runs two
# variants for refusal tests: B1_NOFWD_PORT (AllowTcpForwarding no) and B1_PERMITOPEN_PORT (PermitOpen allows only
# t1's closed port). Tests that need a bastion of their own (its own log, killed mid-session) start one in b1's
# namespace with TestSupport's NamespaceSSHD. In t1: T1_CLOSED_PORT (nothing listens: refused at once) and
# T1_SILENT_PORT (a listener whose backlog is full: connections hang). All of it is written to servers.env
# (ESSH_TEST_B1_HOST, _PORT, _FINGERPRINT, _NETNS, _LOG, likewise T1, B2, T2; ESSH_TEST_JUMP_KNOWN_HOSTS holds all
# their keys as OpenSSH would write them).
# Two sshd instances run as root on 127.0.0.1 (also 127.0.0.2 and 127.0.0.3, for fleet tests) and [::1] at free ports:
#   main: UsePAM no, publickey + password        kbd: UsePAM yes, keyboard-interactive only
# The test user essh-test has a fresh random password and authorized ed25519, ecdsa, passphrase-protected
# ed25519, RSA and passphrase-protected RSA keys (made anew by every start, in STATE). Its password is kept in /var/lib/essh-test (root only)
# so that harnesses of several checkouts can run at once. With sudo installed, it may run /usr/bin/true as root after
# typing its password (/etc/sudoers.d/essh-test), and nothing else.
#
# The checkout may be anywhere (/root/essh, /tmp/x/essh, a path with spaces): sshd's StrictModes refuses an
# authorized_keys file below a group- or world-writable folder (/tmp), and the test user cannot read one below a
# private folder (/root is 0700). So what the test user's login reads lives in AUTH, a root-owned 0755 folder of
# its own under /run/essh-test, named after STATE (so several checkouts run side by side); stop removes it.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
state=${ESSH_TEST_STATE:-$repo/.test-servers}
user=essh-test
home=/home/$user
# One folder per STATE, outside the checkout, that sshd accepts whatever the checkout's parents are.
auth=/run/essh-test/$(printf '%s' "$state" | sha256sum | cut -c1-16)

# One line saying what went wrong, so `make test` says why before any test runs.
die() { echo "test-servers: cannot start the test servers: $*" >&2; exit 1; }

# sshd_config takes a path with spaces in double quotes.
quoted() { printf '"%s"' "$1"; }

free_port() {
    python3 - <<'PY'
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
PY
}

wait_listening() { # port pidfile log
    for _ in $(seq 1 100); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
        sleep 0.05
    done
    die "sshd did not start listening on port $1: $(tail -n 1 "$3" 2>/dev/null)"
}

# This STATE's namespaces: essh-<8 hex of STATE's hash>-{b1,t1,b2,t2}.
ns_prefix=essh-$(printf '%s' "$state" | sha256sum | cut -c1-8)-

stop_namespaces() {
    local ns pid veth=es${ns_prefix:5:8} net
    # The blackhole route of this STATE's /28, found from the root side's veth (it outlives a crashed run).
    net=$(ip -o -4 addr show dev "$veth" 2>/dev/null | awk '{print $4}' | head -n 1 || true)
    if [ -n "$net" ]; then
        net=$(python3 -c 'import ipaddress,sys; print(ipaddress.ip_interface(sys.argv[1].split("/")[0]+"/28").network)' "$net")
        ip route del blackhole "$net" 2>/dev/null || true
    fi
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$ns_prefix" || true); do
        for pid in $(ip netns pids "$ns" 2>/dev/null || true); do kill -9 "$pid" 2>/dev/null || true; done
        ip netns del "$ns" 2>/dev/null || true
    done
}

# The throwaway PostgreSQL clusters tests of this STATE started (TestSupport's PostgresCluster), each in
# PG/<random>/data; a test that ended without stopping its own (killed, crashed) left it running.
pg="$auth-pg"

stop_clusters() {
    local data pid pg_ctl
    [ -d "$pg" ] || return 0
    for data in "$pg"/*/data; do
        [ -f "$data/postmaster.pid" ] || continue
        pg_ctl=/usr/lib/postgresql/$(cat "$data/PG_VERSION" 2>/dev/null)/bin/pg_ctl
        if [ -x "$pg_ctl" ]; then
            setpriv --reuid=postgres --regid=postgres --init-groups env -C / "$pg_ctl" -D "$data" -m immediate \
                -t 10 -w stop >/dev/null 2>&1 || true
        fi
        # Whatever pg_ctl could not stop: the postmaster named in the lock file, if it is still this cluster's.
        pid=$(head -n 1 "$data/postmaster.pid" 2>/dev/null || true)
        if [ -n "$pid" ] && tr '\0' ' ' 2>/dev/null < "/proc/$pid/cmdline" | grep -qF -- "-D $data"; then
            kill -9 "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$pg"
}

stop() {
    stop_namespaces
    stop_clusters
    rm -rf "$auth"
    [ -d "$state" ] || return 0
    for pidfile in "$state"/*.pid; do
        [ -f "$pidfile" ] || continue
        pid=$(cat "$pidfile" 2>/dev/null || true)
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
        fi
        rm -f "$pidfile"
    done
    rm -f "$state/servers.env"
}

# sshd in a namespace: name netns port hostkey-dir extra-lines...
start_ns_sshd() {
    local name=$1 ns=$2 port=$3 keys=$4; shift 4
    {
        echo "Port $port"
        echo "ListenAddress 0.0.0.0"
        echo "HostKey $(quoted "$keys/ssh_host_ed25519_key")"
        echo "HostKey $(quoted "$keys/ssh_host_ecdsa_key")"
        echo "PidFile $(quoted "$state/$name.pid")"
        echo "AuthorizedKeysFile $auth/authorized_keys"
        echo "StrictModes yes"
        echo "LogLevel VERBOSE"
        echo "MaxStartups 400:30:800"
        echo "MaxSessions 64"
        echo "MaxAuthTries 20"
        echo "PrintMotd no"
        echo "PrintLastLog no"
        echo "AllowUsers $user"
        echo "UsePAM no"
        echo "PasswordAuthentication yes"
        echo "PubkeyAuthentication yes"
        echo "KbdInteractiveAuthentication no"
        echo "Subsystem sftp internal-sftp"
        printf '%s\n' "$@"
    } > "$state/$name.conf"
    local why
    why=$(/usr/sbin/sshd -t -f "$state/$name.conf" 2>&1) || die "sshd rejected $state/$name.conf: ${why//$'\n'/; }"
    ip netns exec "$ns" /usr/sbin/sshd -f "$state/$name.conf" -E "$state/$name.log" \
        || die "sshd $name did not start in $ns (see $state/$name.log)"
}

wait_ns_listening() { # netns address port log
    for _ in $(seq 1 100); do
        if ip netns exec "$1" bash -c "exec 3<>/dev/tcp/$2/$3" 2>/dev/null; then return 0; fi
        sleep 0.05
    done
    die "sshd in $1 did not start listening on $2:$3: $(tail -n 1 "$4" 2>/dev/null)"
}

# The jump topology (see the header). Sets the addresses and writes STATE/jump.env.
start_namespaces() {
    command -v ip >/dev/null || die "ip (iproute2) is missing: run 'make test', which installs it"
    local h slot base i ns
    h=$(printf '%s' "$state" | sha256sum | cut -c1-4)
    slot=$(( 16#$h % 8192 ))
    # A /28 no interface of this machine uses yet (another checkout's harness, say).
    for _ in $(seq 1 64); do
        base=$(( slot * 16 ))
        net_prefix="198.$(( 18 + base / 65536 )).$(( (base / 256) % 256 ))"
        last=$(( base % 256 ))
        if ! ip -o -4 addr show | grep -q " $net_prefix\.$(( last + 1 ))/"; then break; fi
        slot=$(( (slot + 1) % 8192 ))
    done
    addr() { echo "$net_prefix.$(( last + $1 ))"; }
    root_ip=$(addr 1); b1_ip=$(addr 2); b1_t1_ip=$(addr 5); t1_ip=$(addr 6); b1_b2_ip=$(addr 9); b2_ip=$(addr 10)
    b2_t2_ip=$(addr 13); t2_ip=$(addr 14)
    ns_b1=${ns_prefix}b1; ns_t1=${ns_prefix}t1; ns_b2=${ns_prefix}b2; ns_t2=${ns_prefix}t2
    for ns in "$ns_b1" "$ns_t1" "$ns_b2" "$ns_t2"; do
        ip netns add "$ns" || die "cannot create the network namespace $ns (ip netns add needs root and CAP_SYS_ADMIN)"
        ip -n "$ns" link set lo up
        # No forwarding: a namespace reaches only its own links.
        ip netns exec "$ns" sysctl -qw net.ipv4.ip_forward=0
    done
    local veth=es${ns_prefix:5:8}
    ip link add "$veth" type veth peer name uplink netns "$ns_b1"
    ip addr add "$root_ip/30" dev "$veth"; ip link set "$veth" up
    # The rest of the /28 goes nowhere from here (not through the default route, which may lead to a proxy that
    # answers everything): the targets are unreachable except through the bastions.
    ip route add blackhole "$(addr 0)/28"
    ip -n "$ns_b1" addr add "$b1_ip/30" dev uplink; ip -n "$ns_b1" link set uplink up
    ip -n "$ns_b1" link add t1 type veth peer name uplink netns "$ns_t1"
    ip -n "$ns_b1" addr add "$b1_t1_ip/30" dev t1; ip -n "$ns_b1" link set t1 up
    ip -n "$ns_t1" addr add "$t1_ip/30" dev uplink; ip -n "$ns_t1" link set uplink up
    ip -n "$ns_b1" link add b2 type veth peer name uplink netns "$ns_b2"
    ip -n "$ns_b1" addr add "$b1_b2_ip/30" dev b2; ip -n "$ns_b1" link set b2 up
    ip -n "$ns_b2" addr add "$b2_ip/30" dev uplink; ip -n "$ns_b2" link set uplink up
    ip -n "$ns_b2" link add t2 type veth peer name uplink netns "$ns_t2"
    ip -n "$ns_b2" addr add "$b2_t2_ip/30" dev t2; ip -n "$ns_b2" link set t2 up
    ip -n "$ns_t2" addr add "$t2_ip/30" dev uplink; ip -n "$ns_t2" link set uplink up

    for s in b1 t1 b2 t2; do
        mkdir -p "$state/hostkeys-$s"
        for t in ed25519 ecdsa; do
            ssh-keygen -q -t "$t" -N '' -C "essh-test-$s" -f "$state/hostkeys-$s/ssh_host_${t}_key"
        done
    done
    b1_port=22; t1_port=2200; b2_port=22; t2_port=22; nofwd_port=2022; permitopen_port=2023
    t1_closed_port=2999; t1_silent_port=2998
    start_ns_sshd ns-b1 "$ns_b1" $b1_port "$state/hostkeys-b1"
    start_ns_sshd ns-b1-nofwd "$ns_b1" $nofwd_port "$state/hostkeys-b1" "AllowTcpForwarding no"
    start_ns_sshd ns-b1-permitopen "$ns_b1" $permitopen_port "$state/hostkeys-b1" "PermitOpen $t1_ip:$t1_closed_port"
    start_ns_sshd ns-t1 "$ns_t1" $t1_port "$state/hostkeys-t1"
    start_ns_sshd ns-b2 "$ns_b2" $b2_port "$state/hostkeys-b2"
    start_ns_sshd ns-t2 "$ns_t2" $t2_port "$state/hostkeys-t2"
    # The silent port: a listener with backlog 0 whose queue is filled first, so later SYNs are dropped.
    ip netns exec "$ns_t1" python3 -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", int(sys.argv[1]))); s.listen(0)
held = []
for _ in range(3):
    c = socket.socket(); c.setblocking(False); c.connect_ex(("127.0.0.1", int(sys.argv[1]))); held.append(c)
time.sleep(0.2)
open(sys.argv[2], "w").write("ready\n")
while True: time.sleep(3600)
' "$t1_silent_port" "$state/silent.ready" </dev/null >"$state/silent.log" 2>&1 &
    echo $! > "$state/ns-t1-silent.pid"
    wait_ns_listening "$ns_b1" "$b1_ip" $b1_port "$state/ns-b1.log"
    wait_ns_listening "$ns_b1" "$b1_ip" $nofwd_port "$state/ns-b1-nofwd.log"
    wait_ns_listening "$ns_b1" "$b1_ip" $permitopen_port "$state/ns-b1-permitopen.log"
    wait_ns_listening "$ns_t1" "$t1_ip" $t1_port "$state/ns-t1.log"
    wait_ns_listening "$ns_b2" "$b2_ip" $b2_port "$state/ns-b2.log"
    wait_ns_listening "$ns_t2" "$t2_ip" $t2_port "$state/ns-t2.log"
    for _ in $(seq 1 100); do [ -s "$state/silent.ready" ] && break; sleep 0.05; done
    [ -s "$state/silent.ready" ] || die "the silent listener did not start in $ns_t1: $(tail -n 1 "$state/silent.log")"

    : > "$state/jump_known_hosts"
    known() { # server ip port
        local name=$2
        [ "$3" = 22 ] || name="[$2]:$3"
        for t in ed25519 ecdsa; do
            read -r ktype kdata _ < "$state/hostkeys-$1/ssh_host_${t}_key.pub"
            echo "$name $ktype $kdata" >> "$state/jump_known_hosts"
        done
    }
    known b1 "$b1_ip" $b1_port; known b1 "$b1_ip" $nofwd_port; known b1 "$b1_ip" $permitopen_port
    known t1 "$t1_ip" $t1_port; known b2 "$b2_ip" $b2_port; known t2 "$t2_ip" $t2_port
    fingerprint() { ssh-keygen -lf "$state/hostkeys-$1/ssh_host_ed25519_key.pub" | awk '{print $2}'; }
    {
        echo "ESSH_TEST_JUMP_KNOWN_HOSTS=$state/jump_known_hosts"
        echo "ESSH_TEST_B1_HOST=$b1_ip"
        echo "ESSH_TEST_B1_PORT=$b1_port"
        echo "ESSH_TEST_B1_NOFWD_PORT=$nofwd_port"
        echo "ESSH_TEST_B1_PERMITOPEN_PORT=$permitopen_port"
        echo "ESSH_TEST_B1_NETNS=$ns_b1"
        echo "ESSH_TEST_B1_LOG=$state/ns-b1.log"
        echo "ESSH_TEST_B1_HOSTKEYS=$state/hostkeys-b1"
        echo "ESSH_TEST_B1_FINGERPRINT=$(fingerprint b1)"
        echo "ESSH_TEST_T1_HOST=$t1_ip"
        echo "ESSH_TEST_T1_PORT=$t1_port"
        echo "ESSH_TEST_T1_CLOSED_PORT=$t1_closed_port"
        echo "ESSH_TEST_T1_SILENT_PORT=$t1_silent_port"
        echo "ESSH_TEST_T1_NETNS=$ns_t1"
        echo "ESSH_TEST_T1_LOG=$state/ns-t1.log"
        echo "ESSH_TEST_T1_HOSTKEYS=$state/hostkeys-t1"
        echo "ESSH_TEST_T1_FINGERPRINT=$(fingerprint t1)"
        echo "ESSH_TEST_B2_HOST=$b2_ip"
        echo "ESSH_TEST_B2_PORT=$b2_port"
        echo "ESSH_TEST_B2_NETNS=$ns_b2"
        echo "ESSH_TEST_B2_LOG=$state/ns-b2.log"
        echo "ESSH_TEST_B2_HOSTKEYS=$state/hostkeys-b2"
        echo "ESSH_TEST_B2_FINGERPRINT=$(fingerprint b2)"
        echo "ESSH_TEST_T2_HOST=$t2_ip"
        echo "ESSH_TEST_T2_PORT=$t2_port"
        echo "ESSH_TEST_T2_NETNS=$ns_t2"
        echo "ESSH_TEST_T2_LOG=$state/ns-t2.log"
        echo "ESSH_TEST_T2_HOSTKEYS=$state/hostkeys-t2"
        echo "ESSH_TEST_T2_FINGERPRINT=$(fingerprint t2)"
    } > "$state/jump.env"
}

write_config() { # name port extra-lines...
    local name=$1 port=$2; shift 2
    {
        echo "Port $port"
        echo "ListenAddress 127.0.0.1"
        # More loopback addresses, so fleet tests reach several distinct hosts.
        echo "ListenAddress 127.0.0.2"
        echo "ListenAddress 127.0.0.3"
        [ "$has_ipv6" = yes ] && echo "ListenAddress ::1"
        echo "HostKey $(quoted "$state/hostkeys/ssh_host_ed25519_key")"
        echo "HostKey $(quoted "$state/hostkeys/ssh_host_ecdsa_key")"
        echo "HostKey $(quoted "$state/hostkeys/ssh_host_rsa_key")"
        echo "PidFile $(quoted "$state/$name.pid")"
        echo "AuthorizedKeysFile $auth/authorized_keys"
        echo "StrictModes yes"
        echo "LogLevel VERBOSE"
        echo "MaxStartups 400:30:800"
        echo "MaxSessions 64"
        echo "MaxAuthTries 20"
        echo "PrintMotd no"
        echo "PrintLastLog no"
        echo "ClientAliveInterval 0"
        echo "AllowUsers $user"
        echo "Subsystem sftp internal-sftp"
        printf '%s\n' "$@"
    } > "$state/$name.conf"
    local why
    why=$(/usr/sbin/sshd -t -f "$state/$name.conf" 2>&1) || die "sshd rejected $state/$name.conf: ${why//$'\n'/; }"
}

start() {
    trap 'die "line $LINENO of $0 failed: $BASH_COMMAND"' ERR
    [ "$(id -u)" = 0 ] || die "must run as root (sshd reads the test user's shadow password and switches to it)"
    [ -x /usr/sbin/sshd ] || die "/usr/sbin/sshd is missing: run 'make test', which installs openssh-server"
    stop
    rm -rf "$state"
    mkdir -p "$state/hostkeys" "$state/keys" /run/sshd
    chmod 755 "$state"
    # Root-owned and 0755 all the way up (/run, /run/essh-test, AUTH), as StrictModes wants.
    mkdir -p -m 755 /run/essh-test
    rm -rf "$auth"
    mkdir -m 755 "$auth"
    has_ipv6=no
    if ip -6 addr show lo 2>/dev/null | grep -q '::1/128'; then has_ipv6=yes; fi

    if ! id "$user" >/dev/null 2>&1; then
        useradd -m -d "$home" -s /bin/bash "$user"
    fi
    # One password for the test user, kept root-only, so harnesses of several checkouts can run side by side.
    pwfile=/var/lib/essh-test/password
    if [ ! -s "$pwfile" ]; then
        mkdir -p -m 700 /var/lib/essh-test
        (umask 077; echo "pw-$(head -c 12 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')-ü" > "$pwfile")
    fi
    password=$(cat "$pwfile")
    echo "$user:$password" | chpasswd

    # sudo for the test user, for /usr/bin/true only and asking its password: the interface's test of a command that
    # asks for a password on a terminal (`sudo -k; sudo true`). Nothing else of the machine's sudo changes; without
    # sudo the tests use a command that reads /dev/tty instead.
    has_sudo=no
    if [ -x /usr/bin/sudo ] && [ -d /etc/sudoers.d ]; then
        rule=/etc/sudoers.d/essh-test
        printf 'Defaults:%s lecture=never\n%s ALL=(root) /usr/bin/true\n' "$user" "$user" > "$rule.new"
        chmod 440 "$rule.new"
        if visudo -cqf "$rule.new"; then mv "$rule.new" "$rule"; has_sudo=yes; else rm -f "$rule.new"; fi
    fi

    for t in ed25519 ecdsa rsa; do
        ssh-keygen -q -t "$t" -N '' -C "essh-test-host" -f "$state/hostkeys/ssh_host_${t}_key"
    done
    # A key no server uses: tests write it into known_hosts to play a server whose key changed.
    ssh-keygen -q -t ed25519 -N '' -C other -f "$state/hostkeys/other_ed25519_key"

    passphrase="phrase-$(head -c 9 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')"
    ssh-keygen -q -t ed25519 -N '' -C essh-ed25519 -f "$state/keys/id_ed25519"
    ssh-keygen -q -t ecdsa -b 256 -N '' -C essh-ecdsa -f "$state/keys/id_ecdsa"
    ssh-keygen -q -t ed25519 -N "$passphrase" -C essh-ed25519-pass -f "$state/keys/id_ed25519_pass"
    ssh-keygen -q -t rsa -b 2048 -N '' -C essh-rsa -f "$state/keys/id_rsa"
    ssh-keygen -q -t rsa -b 3072 -N "$passphrase" -C essh-rsa-pass -f "$state/keys/id_rsa_pass"
    ssh-keygen -q -t ed25519 -N '' -C essh-unauthorized -f "$state/keys/id_unauthorized"

    # Each harness has its own authorized_keys (root-owned, as StrictModes allows), so runs don't clobber each other.
    cat "$state/keys/id_ed25519.pub" "$state/keys/id_ecdsa.pub" "$state/keys/id_ed25519_pass.pub" \
        "$state/keys/id_rsa.pub" "$state/keys/id_rsa_pass.pub" > "$auth/authorized_keys"
    chmod 644 "$auth/authorized_keys"

    # 200 MB of random bytes for the byte-exact and throughput tests (kept between runs).
    if [ "$(stat -c %s "$home/data-200m" 2>/dev/null || echo 0)" != 200000000 ]; then
        head -c 200000000 /dev/urandom > "$home/data-200m"
        chown "$user:$user" "$home/data-200m"
    fi

    main_port=$(free_port)
    kbd_port=$(free_port)
    while [ "$kbd_port" = "$main_port" ]; do kbd_port=$(free_port); done
    write_config main "$main_port" "UsePAM no" "PasswordAuthentication yes" "PubkeyAuthentication yes" \
        "KbdInteractiveAuthentication no"
    write_config kbd "$kbd_port" "UsePAM yes" "KbdInteractiveAuthentication yes" "PasswordAuthentication no" \
        "PubkeyAuthentication no"
    /usr/sbin/sshd -f "$state/main.conf" -E "$state/main.log" || die "sshd did not start (see $state/main.log)"
    /usr/sbin/sshd -f "$state/kbd.conf" -E "$state/kbd.log" || die "sshd did not start (see $state/kbd.log)"
    wait_listening "$main_port" "$state/main.pid" "$state/main.log"
    wait_listening "$kbd_port" "$state/kbd.pid" "$state/kbd.log"
    start_namespaces

    # known_hosts as OpenSSH would write it for these servers ([host]:port, every host key type).
    : > "$state/known_hosts"
    for port in "$main_port" "$kbd_port"; do
        for t in ed25519 ecdsa rsa; do
            read -r ktype kdata _ < "$state/hostkeys/ssh_host_${t}_key.pub"
            for h in 127.0.0.1 127.0.0.2 127.0.0.3; do echo "[$h]:$port $ktype $kdata" >> "$state/known_hosts"; done
            [ "$has_ipv6" = yes ] && echo "[::1]:$port $ktype $kdata" >> "$state/known_hosts"
        done
    done
    fp=$(ssh-keygen -lf "$state/hostkeys/ssh_host_ed25519_key.pub" | awk '{print $2}')

    umask 077
    {
        echo "ESSH_TEST_HOST=127.0.0.1"
        echo "ESSH_TEST_IPV6=$has_ipv6"
        echo "ESSH_TEST_PORT=$main_port"
        echo "ESSH_TEST_KBD_PORT=$kbd_port"
        echo "ESSH_TEST_USER=$user"
        echo "ESSH_TEST_HOME=$home"
        echo "ESSH_TEST_PASSWORD=$password"
        echo "ESSH_TEST_PASSPHRASE=$passphrase"
        echo "ESSH_TEST_KEYS=$state/keys"
        echo "ESSH_TEST_HOSTKEYS=$state/hostkeys"
        echo "ESSH_TEST_KNOWN_HOSTS=$state/known_hosts"
        echo "ESSH_TEST_ED25519_FINGERPRINT=$fp"
        echo "ESSH_TEST_DATA_200M=$home/data-200m"
        echo "ESSH_TEST_STATE=$state"
        echo "ESSH_TEST_AUTHORIZED_KEYS=$auth/authorized_keys"
        echo "ESSH_TEST_SUDO=$has_sudo"
        cat "$state/jump.env"
    } > "$state/servers.env.tmp"
    mv "$state/servers.env.tmp" "$state/servers.env"
    echo "test-servers: sshd on 127.0.0.1:$main_port (key, password) and :$kbd_port (keyboard-interactive);" \
        "jump hosts $b1_ip → $t1_ip:$t1_port, $b1_ip → $b2_ip → $t2_ip in namespaces ${ns_prefix}*; $state/servers.env"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status)
        if [ -f "$state/servers.env" ]; then cat "$state/servers.env" | grep -v -e PASSWORD -e PASSPHRASE; else echo "not running"; exit 1; fi ;;
    *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
