# The verdict of a forged drill (ops/fault-drills forged-end|unrecoverable|data|status, locally or on
# ops/lan): what the subscriber and publisher reported in WORK/sub.json, sub.err, pub.json and
# pub.err, against what the forgery must and must not have done. Exit status 0 when it held.
#
#   forged_verdict DRILL SUBSCRIBER_STATUS AUTH WORK COUNT RATE
forged_verdict() {
    local drill=$1 status=$2 auth=$3 work=$4 count=$5 rate=$6
    cat "$work/forger.err" >&2
    grep -E '^sub: (OK|FAILED|dropped|loss|publisher gone)' "$work/sub.err" >&2 || true
    echo "publisher: $(tail -1 "$work/pub.json")" >&2
    tail -1 "$work/sub.json"
    if [ "$drill" = forged-status ]; then
        grep -o 'receiver [0-9a-f]* dropped from flow control: stuck.*' "$work/pub.err" | sed 's/^/publisher: /' >&2 || true
        local stalled seconds stuck refused
        stalled=$(grep -c ', 0 msgs/s$' "$work/pub.err" || true)
        echo "publisher: $stalled of its once-a-second progress lines sent nothing (the linger's included)" >&2
        seconds=$(grep -o '"seconds":[0-9.]*' "$work/pub.json" | tail -1 | cut -d: -f2)
        stuck=$(grep -o '"receiversStuck":[0-9]*' "$work/pub.json" | cut -d: -f2)
        refused=$(grep -o '"authRefused":[0-9]*' "$work/pub.json" | cut -d: -f2)
        echo "$drill: subscriber exit $status; the publisher took $seconds s for what takes" \
            "$(awk -v n="$count" -v r="$rate" 'BEGIN {printf "%.1f", n / r}') s at its rate; $stuck receivers" \
            "dropped as stuck; $refused datagrams refused at its sockets" >&2
        if [ -n "$auth" ]; then
            [ "$status" -eq 0 ] && [ "${stuck:-1}" -eq 0 ] && [ "${refused:-0}" -gt 0 ]
        else
            [ "$status" -eq 0 ] && [ "${stuck:-0}" -gt 0 ]
        fi
        return
    fi
    local wrong refused
    wrong=$(grep -o '"wrongSource":[0-9]*' "$work/sub.json" | cut -d: -f2)
    refused=$(grep -o '"authRefused":[0-9]*' "$work/sub.json" | cut -d: -f2)
    echo "$drill: subscriber exit $status, $wrong datagrams from a wrong source dropped, $refused refused at the" \
        "socket" >&2
    if [ -n "$auth" ]; then
        [ "$status" -eq 0 ] && [ "${wrong:-1}" -eq 0 ] && [ "${refused:-0}" -gt 0 ]
    else
        [ "$status" -eq 0 ] && [ "${wrong:-0}" -gt 0 ]
    fi
}
