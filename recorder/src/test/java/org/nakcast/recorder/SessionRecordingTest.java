package org.nakcast.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.recorder.store.Catalog;
import org.nakcast.transport.replay.HoleCause;
import org.nakcast.recorder.store.RecordHandler;
import org.nakcast.recorder.store.RecordingReader;
import org.nakcast.recorder.store.RecordingState;
import org.nakcast.recorder.store.SegmentGeometry;
import org.nakcast.recorder.store.SegmentMaker;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/** One stream's recording as its messages, losses and ends come, resumed as a restarted recorder does. */
class SessionRecordingTest {
    @TempDir
    Path dir;

    private final UnsafeBuffer message = new UnsafeBuffer(new byte[16]);
    private final SystemCounters nodeCounters = new SystemCounters(new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(256 * 1024)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024))));
    private final RecorderCounters counters = new RecorderCounters(nodeCounters);

    private RecorderSettings settings() {
        return RecorderSettings.in(dir).withGeometry(new SegmentGeometry(64 * 1024, 4096));
    }

    private void messages(SessionRecording recording, long from, long to) {
        for (long index = from; index < to; index++) {
            message.putLong(0, index);
            recording.message(message, 0, 16, index, index);
        }
    }

    private long count(SystemCounter counter) {
        return nodeCounters.get(counter).get();
    }

    @Test
    void whatAResumedRecordingHoldsIsNotWrittenAgainAndWhatItMissedIsAHoleOfItsOwn() throws IOException {
        try (Catalog catalog = Catalog.openForRecording(dir)) {
            final SessionRecording first = SessionRecording.begin(catalog, settings(), SegmentMaker.inline(), counters,
                1, "t", 9, 100, 0);
            messages(first, 100, 150);
            first.lost(150, 10, 0);
            messages(first, 160, 200);
            first.stop(0);

            final SessionRecording resumed = SessionRecording.resume(catalog, settings(), SegmentMaker.inline(),
                counters, catalog.get(0), 0);
            messages(resumed, 180, 200);
            resumed.lost(195, 10, 0);
            messages(resumed, 220, 230);
            resumed.end(0);

            assertThat(resumed.skipped()).isEqualTo(20);
            assertThat(catalog.get(0).state()).isEqualTo(RecordingState.ENDED);
            assertThat(catalog.get(0).nextMessageIndex()).isEqualTo(230);
            assertThat(catalog.get(0).holeMessages()).isEqualTo(10 + 5 + 15);
            assertThat(count(SystemCounter.RECORDED_MESSAGES)).isEqualTo(50 + 40 + 10);
            assertThat(count(SystemCounter.RECORDED_BYTES)).isEqualTo(catalog.get(0).bytes());
            assertThat(count(SystemCounter.RECORDING_SEGMENTS)).as("the resumed one goes on in the first").isOne();
            assertThat(count(SystemCounter.RECORDED_HOLES)).isEqualTo(3);
            assertThat(count(SystemCounter.RECORDED_HOLE_MESSAGES)).isEqualTo(10 + 5 + 15);
            assertThat(count(SystemCounter.RECORDING_SEGMENTS_REFUSED)).isZero();
        }
        assertThat(holes(100)).containsExactly("150+10 LOST_IN_TRANSPORT", "200+5 LOST_IN_TRANSPORT",
            "205+15 RECORDER_DOWN", "END");
    }

    /**
     * Every hole of recording 0, read from message {@code from}, as "first+count CAUSE", then "END"
     * if the recording ends; each message read holds its index.
     */
    private List<String> holes(long from) throws IOException {
        final List<String> read = new ArrayList<>();
        try (RecordingReader reader = RecordingReader.openAt(dir, 0, from)) {
            while (reader.poll(new RecordHandler() {
                @Override
                public void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length, long atNs) {
                    assertThat(buffer.getLong(offset)).isEqualTo(messageIndex);
                }

                @Override
                public void onHole(long firstMessage, long count, HoleCause cause) {
                    read.add(firstMessage + "+" + count + " " + cause);
                }
            }, 100) > 0) {
                // to what is written
            }
            if (reader.isEnded()) {
                read.add("END");
            }
        }
        return read;
    }

    @Test
    void whatAFullDiskRefusedBeforeTheRecordingStoppedIsNotStoredWhenItIsResumedAndTheRestIsItsOwnHole()
        throws IOException {
        final boolean[] full = {false};
        final int[] refused = {0};
        final SegmentMaker disk = SegmentMaker.inline((segment, length) -> {
            if (full[0]) {
                refused[0]++;
                throw new IOException("No space left on device");
            }
        });
        try (Catalog catalog = Catalog.openForRecording(dir)) {
            final SessionRecording first = SessionRecording.begin(catalog, settings(), disk, counters, 1, "t", 9, 0, 0);
            full[0] = true;
            long index = 0;
            while (refused[0] == 0 && index < 100_000) {
                messages(first, index, ++index);
            }
            final long firstRefused = index - 1;
            messages(first, index, index + 10);
            first.stop(0);
            full[0] = false;

            final SessionRecording resumed = SessionRecording.resume(catalog, settings(), disk, counters,
                catalog.get(0), 0);
            messages(resumed, index + 30, index + 31);
            resumed.end(0);

            assertThat(holes(0)).containsExactly(firstRefused + "+11 NOT_STORED", (index + 10) + "+20 RECORDER_DOWN",
                "END");
        }
    }

    @Test
    void aRecordingWhoseDiskNeverLetItMakeASegmentHoldsNothingAndWhatItWasOwedIsNotStoredOnceResumed()
        throws IOException {
        final boolean[] full = {true};
        final SegmentMaker disk = SegmentMaker.inline((segment, length) -> {
            if (full[0]) {
                throw new IOException("No space left on device");
            }
        });
        try (Catalog catalog = Catalog.openForRecording(dir)) {
            final SessionRecording first = SessionRecording.begin(catalog, settings(), disk, counters, 1, "t", 9, 5, 0);
            messages(first, 5, 20);
            first.stop(0);
            assertThat(catalog.get(0).bytes()).isZero();
            assertThat(RecordingReader.openAt(dir, 0, 5)).as("no segment: nothing to read").isNull();
            full[0] = false;

            final SessionRecording resumed = SessionRecording.resume(catalog, settings(), disk, counters,
                catalog.get(0), 0);
            messages(resumed, 25, 26);
            resumed.end(0);

            assertThat(holes(5)).containsExactly("5+20 NOT_STORED", "END");
        }
    }
}
