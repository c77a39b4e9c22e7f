package org.nakcast.codecs.fst;

import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecProvider;
import org.nakcast.codecs.CodecSpec;

/**
 * Makes {@code fst-unshared} codecs: FST as {@link FstCodecProvider} sets it up, but with every
 * reference written as a fresh object, faster, for messages that are trees. Found by
 * {@link java.util.ServiceLoader} like {@link FstCodecProvider}.
 */
public final class FstUnsharedCodecProvider implements CodecProvider {
    private final FstCodecProvider unshared = new FstCodecProvider(false);

    @Override
    public String codecName() {
        return CodecNames.FST_UNSHARED;
    }

    @Override
    public <T> Codec<T> create(CodecSpec<T> spec) {
        return unshared.create(spec);
    }
}
