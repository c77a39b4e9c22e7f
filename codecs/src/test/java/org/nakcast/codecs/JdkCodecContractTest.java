package org.nakcast.codecs;

/**
 * The codec contract for {@value CodecRegistry#JDK}.
 */
final class JdkCodecContractTest extends CodecContractTest {
    @Override
    String codecName() {
        return CodecRegistry.JDK;
    }
}
