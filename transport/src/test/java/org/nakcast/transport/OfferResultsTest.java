package org.nakcast.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.InvalidMessageException;
import org.nakcast.codecs.MessageTooLargeException;
import org.nakcast.transport.publish.OfferBuffer;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.testing.TestCounters;

/**
 * What a publication answers: the position after each message taken (so {@code result > 0} reads
 * as taken), a negative {@link OfferResult} otherwise, and an {@link IllegalArgumentException}
 * naming the argument that is wrong whatever the data.
 */
class OfferResultsTest {
    private static final int MAX_MESSAGE = 512;

    private final TestCounters counters = new TestCounters();
    private final OfferBuffer offers = new OfferBuffer(4096, MAX_MESSAGE, freed -> { });
    private final BytePublication publication = new BytePublication("prices", 1, 7, offers,
        counters.counters().get(SystemCounter.BACK_PRESSURE));
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);

    @Test
    void eachMessageTakenAnswersThePositionAfterIt() {
        final MessageClaim claim = new MessageClaim();

        assertThat(publication.offer(message, 0, 8)).isEqualTo(1);
        assertThat(publication.offer(message, 8, 8)).isEqualTo(2);
        assertThat(publication.tryClaim(16, claim)).as("the position it takes once committed").isEqualTo(3);
        assertThat(claim.commit()).isEqualTo(3);
        assertThat(publication.position()).isEqualTo(3);
    }

    @Test
    void refusalsAreNegativeCodesAndTakeNothing() {
        assertThat(publication.offer(new UnsafeBuffer(new byte[MAX_MESSAGE + 1]), 0, MAX_MESSAGE + 1))
            .isEqualTo(OfferResult.MESSAGE_TOO_LARGE);
        long result;
        do {
            result = publication.offer(message, 0, 64);
        } while (result > 0);
        assertThat(result).isEqualTo(OfferResult.BACK_PRESSURED);
        assertThat(counters.get(SystemCounter.BACK_PRESSURE)).isOne();
        final long taken = publication.position();

        publication.close();
        assertThat(publication.offer(message, 0, 8)).isEqualTo(OfferResult.CLOSED);
        assertThat(publication.tryClaim(8, new MessageClaim())).isEqualTo(OfferResult.CLOSED);
        assertThat(publication.position()).isEqualTo(taken);
    }

    @Test
    void argumentsWrongWhateverTheDataAreNamed() {
        assertThatIllegalArgumentException().isThrownBy(() -> publication.offer(null, 0, 8))
            .withMessage("buffer is null");
        assertThatIllegalArgumentException().isThrownBy(() -> publication.offer(message, 60, 8))
            .withMessage("offset 60 and length 8 lie outside the buffer of 64 bytes");
        assertThatIllegalArgumentException().isThrownBy(() -> publication.offer(message, -1, 8))
            .withMessageContaining("offset -1");
        assertThatIllegalArgumentException().isThrownBy(() -> publication.offer(message, 0, -8))
            .withMessageContaining("length -8");
        assertThatIllegalArgumentException().isThrownBy(() -> publication.tryClaim(8, null))
            .withMessage("claim is null");
        assertThatIllegalArgumentException().isThrownBy(() -> publication.tryClaim(-1, new MessageClaim()))
            .withMessage("length -1 is negative");
        assertThat(publication.position()).isZero();
    }

    @Test
    void aTypedMessageItsCodecCannotEncodeIsACodeAndItsReasonGoesToTheErrorHandler() {
        final List<Throwable> errors = new ArrayList<>();
        final TypedPublication<String> typed = new TypedPublication<>(publication, new StringCodec(), errors::add);

        assertThat(typed.offer("fine")).isEqualTo(1);
        assertThat(typed.offer("x".repeat(MAX_MESSAGE + 1))).isEqualTo(OfferResult.MESSAGE_TOO_LARGE);
        assertThat(typed.offer("refused")).isEqualTo(OfferResult.UNENCODABLE);
        assertThat(errors).singleElement().isInstanceOf(TransportException.class)
            .satisfies(error -> assertThat(error.getCause()).isInstanceOf(InvalidMessageException.class))
            .extracting(Throwable::getMessage).isEqualTo("topic 'prices' (codec '" + typed.codecName()
                + "') could not encode a java.lang.String: this codec refuses 'refused'");
        assertThatIllegalArgumentException().isThrownBy(() -> typed.offer(null)).withMessage("message is null");
        assertThat(publication.position()).isOne();
    }

    @Test
    void eachPublicationSaysWhyItsLastOfferWasRefusedWithTheTopicAndWhatToDo() {
        final TypedPublication<String> typed = new TypedPublication<>(publication, new StringCodec(), error -> { });
        assertThat(publication.lastRefusal()).as("nothing refused yet").isNull();

        publication.offer(new UnsafeBuffer(new byte[MAX_MESSAGE + 1]), 0, MAX_MESSAGE + 1);
        assertThat(publication.lastRefusal()).isEqualTo("topic 'prices': message too large for the publication (513"
            + " bytes; this publication takes at most 512); split the message, or raise the topic's history");

        typed.offer("refused");
        assertThat(typed.lastRefusal()).isEqualTo("topic 'prices' (codec 'string') could not encode a"
            + " java.lang.String: this codec refuses 'refused'; fix the message, or the topic's codec settings (its"
            + " allowed-classes)");
        typed.offer("x".repeat(MAX_MESSAGE + 1));
        assertThat(typed.lastRefusal()).contains("(encoded; this publication takes at most 512)");

        while (publication.offer(message, 0, 64) > 0) {
            assertThat(publication.lastRefusal()).as("a message taken leaves the last refusal as it was")
                .contains("encoded");
        }
        assertThat(typed.lastRefusal()).isEqualTo("topic 'prices': back-pressured; back off (an idle strategy) and"
            + " offer again, or drop the message if it is stale");

        publication.close();
        publication.tryClaim(8, new MessageClaim());
        assertThat(publication.lastRefusal()).isEqualTo("topic 'prices': publication closed; stop publishing; open a"
            + " new publication");
    }

    @Test
    void everyCodeHasWords() {
        assertThat(OfferResult.describe(5)).isEqualTo("taken at position 5");
        assertThat(OfferResult.describe(OfferResult.BACK_PRESSURED)).isEqualTo("back-pressured");
        assertThat(OfferResult.describe(OfferResult.UNENCODABLE)).contains("could not encode");
        assertThat(OfferResult.describe(-3)).isEqualTo("unknown result -3");
        assertThat(OfferResult.isTaken(1)).isTrue();
        assertThat(OfferResult.isTaken(OfferResult.CLOSED)).isFalse();
    }

    /** Writes a string's bytes, refusing the string "refused". */
    private static final class StringCodec implements Codec<String> {
        @Override
        public String name() {
            return "string";
        }

        @Override
        public Class<String> messageClass() {
            return String.class;
        }

        @Override
        public int encode(String text, MutableDirectBuffer buffer, int offset, int maxLength) {
            if (text.equals("refused")) {
                throw new InvalidMessageException("this codec refuses '" + text + "'", null);
            }
            if (text.length() > maxLength) {
                throw new MessageTooLargeException(String.class, text.length(), maxLength);
            }
            return buffer.putStringWithoutLengthAscii(offset, text);
        }

        @Override
        public String decode(DirectBuffer buffer, int offset, int length) {
            return buffer.getStringWithoutLengthAscii(offset, length);
        }
    }
}
