package org.nakcast.cli;

import java.util.List;

import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The datagrams a node's authenticated transports dropped at the socket, by cause: what {@code pub}
 * and {@code sub} report as {@code authRefused} and, when there were any, in a line on stderr.
 *
 * @param unsigned without authentication
 * @param unknownKey signed with a key the key file lacks
 * @param badTag whose tag does not check
 * @param replayed heard before
 */
record AuthRefusals(long unsigned, long unknownKey, long badTag, long replayed) {
    /** What {@code counters} hold now. */
    static AuthRefusals of(SystemCounters counters) {
        return new AuthRefusals(counters.get(SystemCounter.AUTH_UNSIGNED).get(),
            counters.get(SystemCounter.AUTH_UNKNOWN_KEY).get(), counters.get(SystemCounter.AUTH_BAD_TAG).get(),
            counters.get(SystemCounter.AUTH_REPLAYED).get());
    }

    /** Every datagram refused, whatever the cause. */
    long total() {
        return unsigned + unknownKey + badTag + replayed;
    }

    /**
     * "dropped 12 datagrams that did not authenticate: 10 without authentication, 2 whose tag does
     * not check", naming the causes that occurred.
     */
    String describe() {
        final List<String> causes = List.of(
            unsigned > 0 ? unsigned + " without authentication" : "",
            unknownKey > 0 ? unknownKey + " signed with an unknown key" : "",
            badTag > 0 ? badTag + " whose tag does not check" : "",
            replayed > 0 ? replayed + " replayed" : "");
        return "dropped " + total() + " datagrams that did not authenticate: "
            + String.join(", ", causes.stream().filter(cause -> !cause.isEmpty()).toList());
    }
}
