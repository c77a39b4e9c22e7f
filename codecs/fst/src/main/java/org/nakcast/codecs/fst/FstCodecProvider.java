package org.nakcast.codecs.fst;

import java.util.ArrayList;

import org.nakcast.codecs.AllowedClasses;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecProvider;
import org.nakcast.codecs.CodecSpec;
import org.nustaq.serialization.FSTConfiguration;
import org.nustaq.serialization.FSTDecoder;
import org.nustaq.serialization.FSTEncoder;
import org.nustaq.serialization.coders.FSTStreamEncoder;

/**
 * Makes {@code fst} codecs (shared references, so object graphs with shared objects and cycles
 * come back as they were); {@link FstUnsharedCodecProvider} makes {@code fst-unshared} ones with
 * this class. Both are found by {@link java.util.ServiceLoader} (this module's
 * {@code META-INF/services/org.nakcast.codecs.CodecProvider}). Each codec gets its own
 * {@link FSTConfiguration}: the spec's classes registered in order (records with
 * {@link FstRecordSerializer}, {@link ArrayList} with {@link BoundedArrayListSerializer}), the
 * checked decoder, and the allow-list class loader. The spec must list its message class, and a
 * field of a closed class off the list is refused at once
 * ({@link AllowedClasses#numbered}, {@link AllowedClasses#requireFieldClassesCarried}).
 *
 * <p>Always carried besides the spec's classes: {@link String} and the boxed primitives, which FST
 * writes by its own built-in ids.
 */
public final class FstCodecProvider implements CodecProvider {
    private final boolean shareReferences;

    /**
     * The provider of {@code fst}, as {@link java.util.ServiceLoader} makes it.
     */
    public FstCodecProvider() {
        this(true);
    }

    FstCodecProvider(boolean shareReferences) {
        this.shareReferences = shareReferences;
    }

    @Override
    public String codecName() {
        return shareReferences ? CodecNames.FST : CodecNames.FST_UNSHARED;
    }

    @Override
    public <T> Codec<T> create(CodecSpec<T> spec) {
        final AllowedClasses allowed = AllowedClasses.numbered(spec, AllowedClasses.STRING_AND_BOXED)
            .requireBoundedContainers()
            .requireFieldClassesCarried();
        final FSTConfiguration conf = FSTConfiguration.createDefaultConfiguration();
        conf.setShareReferences(shareReferences);
        conf.registerSerializer(ArrayList.class, new BoundedArrayListSerializer(), false);
        for (final Class<?> type : allowed.registered()) {
            if (type.isRecord()) {
                conf.registerSerializer(type, new FstRecordSerializer(type), false);
            }
        }
        conf.registerClass(allowed.registered().toArray(new Class<?>[0]));
        conf.setClassLoader(new AllowListClassLoader(allowed, spec.messageClass().getClassLoader()));
        conf.setStreamCoderFactory(new CheckedCoderFactory(conf, allowed));
        return new FstCodec<>(codecName(), spec.messageClass(), conf, allowed);
    }

    /**
     * Gives FST the checked decoder; the encoder is FST's own.
     */
    private static final class CheckedCoderFactory implements FSTConfiguration.StreamCoderFactory {
        private static final ThreadLocal<Object> UNUSED_INPUT = new ThreadLocal<>();
        private static final ThreadLocal<Object> UNUSED_OUTPUT = new ThreadLocal<>();

        private final FSTConfiguration conf;
        private final AllowedClasses allowed;

        CheckedCoderFactory(FSTConfiguration conf, AllowedClasses allowed) {
            this.conf = conf;
            this.allowed = allowed;
        }

        @Override
        public FSTEncoder createStreamEncoder() {
            return new FSTStreamEncoder(conf);
        }

        @Override
        public FSTDecoder createStreamDecoder() {
            return new CheckedFstDecoder(conf, allowed);
        }

        @Override
        @SuppressWarnings("rawtypes")
        public ThreadLocal getInput() {
            return UNUSED_INPUT;
        }

        @Override
        @SuppressWarnings("rawtypes")
        public ThreadLocal getOutput() {
            return UNUSED_OUTPUT;
        }
    }
}
