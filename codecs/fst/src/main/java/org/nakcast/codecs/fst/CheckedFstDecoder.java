package org.nakcast.codecs.fst;

import java.io.IOException;

import org.nakcast.codecs.AllowedClasses;
import org.nakcast.codecs.UnknownClassException;
import org.nustaq.serialization.FSTClazzInfo;
import org.nustaq.serialization.FSTClazzNameRegistry;
import org.nustaq.serialization.FSTConfiguration;
import org.nustaq.serialization.coders.FSTStreamDecoder;

/**
 * FST's stream decoder with the checks FST lacks: every class read (by id or by name) must be on
 * the allow-list, an unknown class id is a typed error, and a string length read off the wire must
 * fit in the bytes that remain before anything is sized from it.
 */
final class CheckedFstDecoder extends FSTStreamDecoder {
    private final AllowedClasses allowed;
    private int limit;

    CheckedFstDecoder(FSTConfiguration conf, AllowedClasses allowed) {
        super(conf);
        this.allowed = allowed;
    }

    @Override
    public void resetWith(byte[] bytes, int length) {
        super.resetWith(bytes, length);
        limit = length;
    }

    @Override
    public FSTClazzInfo readClass() throws IOException, ClassNotFoundException {
        final int start = getInputPos();
        final short code = readFShort();
        moveTo(start);
        final FSTClazzInfo info;
        try {
            info = super.readClass();
        } catch (RuntimeException ex) {
            if (code >= FSTClazzNameRegistry.LOWEST_CLZ_ID) {
                throw new UnknownClassException(allowed.codecName() + ": unknown class id " + code, "id " + code, ex);
            }
            throw ex;
        }
        allowed.check(info.getClazz());
        return info;
    }

    @Override
    public String readStringUTF() throws IOException {
        checkLength("string");
        return super.readStringUTF();
    }

    @Override
    public String readStringAsc() throws IOException {
        checkLength("string");
        return super.readStringAsc();
    }

    /**
     * Peeks at a length about to be read and checks that at least that many bytes remain (every
     * element takes at least one byte).
     *
     * @param what what the length counts, for the error
     * @throws IOException if the length is negative or larger than what remains
     */
    void checkLength(String what) throws IOException {
        final int start = getInputPos();
        final int length = readFInt();
        final int remaining = limit - getInputPos();
        moveTo(start);
        if (length < 0 || length > remaining) {
            throw new FstBoundsException(what + " of length " + length + " with " + remaining + " bytes left", start);
        }
    }
}
