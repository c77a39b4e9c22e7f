package org.nakcast.transport.media;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** A topic's datagrams go out on every line, and count as sent if any line took them. */
class EveryLineSinkTest {
    private final UnsafeBuffer datagram = new UnsafeBuffer(new byte[] {1, 2, 3, 4});

    @Test
    void eachDatagramGoesOutOnBothLines() {
        final RecordingLine lineA = new RecordingLine(true);
        final RecordingLine lineB = new RecordingLine(true);

        final boolean taken = EveryLineSink.of(List.of(lineA, lineB)).send(datagram, 1, 2);

        assertThat(taken).isTrue();
        assertThat(lineA.sent).containsExactly("2,3");
        assertThat(lineB.sent).containsExactly("2,3");
    }

    @Test
    void aDatagramOneLineRefusedIsStillSentOnTheOtherAndTaken() {
        final RecordingLine refusing = new RecordingLine(false);
        final RecordingLine taking = new RecordingLine(true);

        assertThat(EveryLineSink.of(List.of(refusing, taking)).send(datagram, 0, 4)).isTrue();
        assertThat(EveryLineSink.of(List.of(taking, refusing)).send(datagram, 0, 4)).isTrue();
        assertThat(refusing.sent).hasSize(2);
        assertThat(taking.sent).hasSize(2);
    }

    @Test
    void aDatagramNoLineTookIsNotTakenSoTheCallerTriesAgain() {
        final DatagramSink bothRefusing = EveryLineSink.of(List.of(new RecordingLine(false), new RecordingLine(false)));

        assertThat(bothRefusing.send(datagram, 0, 4)).isFalse();
    }

    @Test
    void oneLineIsItsOwnSink() {
        final RecordingLine only = new RecordingLine(true);

        assertThat(EveryLineSink.of(List.of(only))).isSameAs(only);
        assertThatThrownBy(() -> EveryLineSink.of(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    /** A line that records what it was handed and takes it or not. */
    private static final class RecordingLine implements DatagramSink {
        private final boolean takes;
        private final List<String> sent = new ArrayList<>();

        private RecordingLine(boolean takes) {
            this.takes = takes;
        }

        @Override
        public boolean send(DirectBuffer buffer, int offset, int length) {
            final StringBuilder bytes = new StringBuilder();
            for (int i = offset; i < offset + length; i++) {
                bytes.append(bytes.length() == 0 ? "" : ",").append(buffer.getByte(i));
            }
            sent.add(bytes.toString());
            return takes;
        }
    }
}
