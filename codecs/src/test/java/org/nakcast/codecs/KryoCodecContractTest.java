package org.nakcast.codecs;

/**
 * The codec contract for {@value CodecRegistry#KRYO}.
 */
final class KryoCodecContractTest extends CodecContractTest {
    @Override
    String codecName() {
        return CodecRegistry.KRYO;
    }
}
