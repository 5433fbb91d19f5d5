# Sourced by bench-fleet.sh and bench-copy-fleet.sh: the one sshd both tools meet, and the same N hosts for both.
# Needs: work (a folder holding sshd.conf), SERVERS, user, key, ESSH_TEST_HOSTKEYS.

# The sshd settings both benches share (stdout): key login only, no PAM, no DNS, room for every connection at once.
fleet_sshd_config() {
    cat <<CONF
Port 22
ListenAddress 0.0.0.0
HostKey $ESSH_TEST_HOSTKEYS/ssh_host_ed25519_key
PidFile $work/sshd.pid
AuthorizedKeysFile ${ESSH_TEST_AUTHORIZED_KEYS:-$ESSH_TEST_STATE/authorized_keys}
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
UseDNS no
MaxStartups 1000:30:2000
MaxSessions 64
LogLevel ERROR
PrintMotd no
PrintLastLog no
AllowUsers $user
CONF
}

# Starts the sshd of "$work/sshd.conf" (checked first), stopped when the script exits, and waits until it answers.
fleet_sshd_start() {
    /usr/sbin/sshd -t -f "$work/sshd.conf"
    /usr/sbin/sshd -f "$work/sshd.conf" -E "$work/sshd.log"
    trap 'kill "$(cat "$work/sshd.pid" 2>/dev/null)" 2>/dev/null || true' EXIT
    for _ in $(seq 1 100); do (exec 3<>/dev/tcp/127.0.1.1/22) 2>/dev/null && break; sleep 0.05; done
}

# The same SERVERS hosts (127.0.1.1, 127.0.1.2, …) for both tools: an ssh_config that essh imports, a host list for
# pssh, one known_hosts.
fleet_host_files() {
    local ktype kdata i a
    read -r ktype kdata _ < "$ESSH_TEST_HOSTKEYS/ssh_host_ed25519_key.pub"
    : > "$work/ssh_config"; : > "$work/hosts.txt"; : > "$work/known_hosts"
    for i in $(seq 1 "$SERVERS"); do
        a=127.0.$(( 1 + (i - 1) / 250 )).$(( (i - 1) % 250 + 1 ))
        printf 'Host s%03d\n    HostName %s\n    User %s\n    IdentityFile %s\n\n' "$i" "$a" "$user" "$key" >> "$work/ssh_config"
        echo "$a" >> "$work/hosts.txt"
        echo "$a $ktype $kdata" >> "$work/known_hosts"
    done
}
