package org.nakcast.codecs;

/**
 * The codec contract for {@value CodecRegistry#FST}.
 */
final class FstCodecContractTest extends CodecContractTest {
    @Override
    String codecName() {
        return CodecRegistry.FST;
    }
}
