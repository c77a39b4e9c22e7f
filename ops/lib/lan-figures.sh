# Figures that the scripts driving `nakcast pub` and `nakcast sub` on a simulated LAN (ops/lan) read
# after a run. Source it (bash) after defining the array `nakcast`, the words that run the nakcast
# command (java, its flags, -cp JAR, org.nakcast.cli.Nakcast), and with ops/lan reachable as ops/lan.
#
# counter_sum DIR LABEL
#     The sum of counter LABEL (exactly, as `nakcast stat` prints it) over the counters files in DIR,
#     whose nodes may have stopped by then (stat --all).
# rcvbuf_errors HOST
#     The UDP receive buffer errors of that host's kernel so far (/proc/net/snmp): datagrams the
#     kernel dropped on its own, which a receiver NAKs like any other loss.
# json_field FILE FIELD
#     The value of a top-level scalar FIELD in the JSON line in FILE (quotes removed).
#
# It sends nothing and changes no directory.

counter_sum() {
    "${nakcast[@]}" stat --all --dir "$1" --filter "$2" | awk -v label="$2" '
        /^ / { value = $1; gsub(",", "", value); $1 = ""; sub(/^ +/, ""); if ($0 == label) sum += value }
        END { print sum + 0 }'
}

rcvbuf_errors() {
    ops/lan exec "$1" awk '/^Udp:/ { if (names) { print $6; exit } names = 1 }' /proc/net/snmp
}

json_field() {
    sed -n "s/.*\"$2\":\\([^,}]*\\).*/\\1/p" "$1" | tr -d '"'
}
