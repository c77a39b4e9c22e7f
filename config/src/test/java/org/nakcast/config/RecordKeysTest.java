package org.nakcast.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The withers of the config records: each copies its record with the key it names changed, and only that key. */
class RecordKeysTest {
    private static final TopicConfig PRICES = new TopicConfig("prices", 1, "lan", "flyweight");
    private static final TransportConfig LAN = new TransportConfig("lan", "lo", "239.255.0.1", 40_456);

    @Test
    void eachTopicWitherChangesItsKeyAndKeepsTheOthers() throws ReflectiveOperationException {
        final ByteSize size = ByteSize.parse("8m");
        final Duration time = Duration.ofMillis(7);

        assertChangesOnly(PRICES, PRICES.withLines("lan", "lan-b"), Map.of("transports", List.of("lan", "lan-b")));
        assertChangesOnly(PRICES, PRICES.withCodec("fst"), Map.of("codec", "fst"));
        assertChangesOnly(PRICES, PRICES.withHistory(size), Map.of("history", size));
        assertChangesOnly(PRICES, PRICES.withHeartbeat(time), Map.of("heartbeat", time));
        assertChangesOnly(PRICES, PRICES.withFlowControl(FlowControlMode.MAX),
            Map.of("flow-control", FlowControlMode.MAX));
        assertChangesOnly(PRICES, PRICES.withFlowControlTimeout(time), Map.of("flow-control-timeout", time));
        assertChangesOnly(PRICES, PRICES.withLossPolicy(LossPolicy.DROP), Map.of("loss-policy", LossPolicy.DROP));
        assertChangesOnly(PRICES, PRICES.withLateJoin(LateJoinPolicy.OLDEST),
            Map.of("late-join", LateJoinPolicy.OLDEST));
        assertChangesOnly(PRICES, PRICES.withPublisherTimeout(time), Map.of("publisher-timeout", time));
        assertChangesOnly(PRICES, PRICES.withLineTimeout(time), Map.of("line-timeout", time));
        assertChangesOnly(PRICES, PRICES.withCloseLinger(time), Map.of("close-linger", time));
        assertChangesOnly(PRICES, PRICES.withDeliveryQueue(size, time),
            Map.of("delivery-queue", size, "delivery-queue-timeout", time));
        assertChangesOnly(PRICES, PRICES.withAllowedClasses(List.of("org.example.Order")),
            Map.of("allowed-classes", List.of("org.example.Order")));
        assertChangesOnly(PRICES, PRICES.withMaxPublishers(3), Map.of("max-publishers", 3));
        assertChangesOnly(PRICES, PRICES.withOfferBuffer(size), Map.of("offer-buffer", size));
        assertChangesOnly(PRICES, PRICES.withMaxMessage(size), Map.of("max-message", size));
        assertChangesOnly(PRICES, PRICES.withReorderWindow(64), Map.of("reorder-window", 64));
        assertChangesOnly(PRICES, PRICES.withLinger(time), Map.of("linger", time));
    }

    @Test
    void eachTransportWitherChangesItsKeyAndKeepsTheOthers() throws ReflectiveOperationException {
        final ByteSize size = ByteSize.parse("4m");
        final NetworkInterfaceRef eth0 = NetworkInterfaceRef.of("eth0");

        assertChangesOnly(LAN, LAN.withNetworkInterface(eth0), Map.of("interface", eth0));
        assertChangesOnly(LAN, LAN.withTtl(3), Map.of("ttl", 3));
        assertChangesOnly(LAN, LAN.withDatagramSize(size), Map.of("datagram-size", size));
        assertChangesOnly(LAN, LAN.withSocketSendBuffer(size), Map.of("socket-send-buffer", size));
        assertChangesOnly(LAN, LAN.withSocketReceiveBuffer(size), Map.of("socket-receive-buffer", size));
        assertChangesOnly(LAN, LAN.withSendRate(size), Map.of("send-rate", size));
        assertChangesOnly(LAN, LAN.withSendBurst(size), Map.of("send-burst", size));
        assertChangesOnly(LAN, LAN.withRepairRate(size), Map.of("repair-rate", size));
    }

    @Test
    void aCopyIsMadeLikeAnyRecordWithDefaultsForWhatIsNullAndItsOwnLists() {
        final List<String> classNames = new ArrayList<>(List.of("org.example.Order"));

        final TopicConfig allowed = PRICES.withAllowedClasses(classNames);
        classNames.clear();

        assertThat(allowed.allowedClasses()).containsExactly("org.example.Order");
        assertThat(PRICES.withHistory(ByteSize.parse("1m")).withHistory(null).history())
            .isEqualTo(TopicConfig.DEFAULT_HISTORY);
    }

    @Test
    void anUnknownKeyOrAValueOfAnotherTypeIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> RecordKeys.with(PRICES, "histroy", ByteSize.ZERO))
            .withMessage("TopicConfig has no key 'histroy'");
        assertThatIllegalArgumentException().isThrownBy(() -> RecordKeys.with(PRICES, "history", Duration.ZERO));
    }

    /** Every component of {@code after} is {@code before}'s, but for the keys changed, which hold their new values. */
    private static void assertChangesOnly(Record before, Record after, Map<String, Object> changed)
        throws ReflectiveOperationException {
        final List<String> keys = new ArrayList<>();
        for (RecordComponent component : before.getClass().getRecordComponents()) {
            final String key = RecordKeys.keyOf(component);
            final Object was = component.getAccessor().invoke(before);
            final Object is = component.getAccessor().invoke(after);
            if (changed.containsKey(key)) {
                assertThat(is).as(key).isEqualTo(changed.get(key)).isNotEqualTo(was);
            } else {
                assertThat(is).as(key).isEqualTo(was);
            }
            keys.add(key);
        }
        assertThat(keys).containsAll(changed.keySet());
    }
}
