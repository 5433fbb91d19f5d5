#!/usr/bin/env bash
# Real OpenSSH servers on loopback for eSSH's tests.
#
#   Tests/Harness/test-servers.sh start   start the servers, write STATE/servers.env
#   Tests/Harness/test-servers.sh stop    stop them (safe to call twice)
#   Tests/Harness/test-servers.sh status  say whether they run
#
# STATE is $ESSH_TEST_STATE or <repo>/.test-servers. Tests read STATE/servers.env (KEY=VALUE lines).
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

stop() {
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
    } > "$state/servers.env.tmp"
    mv "$state/servers.env.tmp" "$state/servers.env"
    echo "test-servers: sshd on 127.0.0.1:$main_port (key, password) and :$kbd_port (keyboard-interactive); $state/servers.env"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status)
        if [ -f "$state/servers.env" ]; then cat "$state/servers.env" | grep -v -e PASSWORD -e PASSPHRASE; else echo "not running"; exit 1; fi ;;
    *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
