/**
 * nakcast's transport, as a service sees it: {@code Node} and what it makes (publications,
 * subscriptions, their events and results) in {@code org.nakcast.transport}, and the node's
 * counters in {@code org.nakcast.transport.status}. The protocol's machinery (publish, receive,
 * media, wire layouts, authentication, recovery, the harness tests and simulations launch nodes
 * with) is not exported.
 */
// Agrona (its buffers are in the API) names its module in its manifest only
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module org.nakcast.transport {
    requires transitive org.agrona;
    requires transitive org.nakcast.codecs;
    requires transitive org.nakcast.config;
    requires org.slf4j;

    exports org.nakcast.transport;
    exports org.nakcast.transport.status;

    uses org.nakcast.transport.media.Media;
}
