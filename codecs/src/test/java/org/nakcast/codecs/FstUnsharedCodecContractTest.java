package org.nakcast.codecs;

/**
 * The codec contract for {@value CodecRegistry#FST_UNSHARED}.
 */
final class FstUnsharedCodecContractTest extends CodecContractTest {
    @Override
    String codecName() {
        return CodecRegistry.FST_UNSHARED;
    }
}
