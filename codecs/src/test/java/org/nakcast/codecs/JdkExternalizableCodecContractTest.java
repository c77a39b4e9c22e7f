package org.nakcast.codecs;

/**
 * The codec contract for {@value CodecRegistry#JDK_EXTERNALIZABLE}, on the Externalizable samples.
 */
final class JdkExternalizableCodecContractTest extends CodecContractTest {
    @Override
    String codecName() {
        return CodecRegistry.JDK_EXTERNALIZABLE;
    }

    @Override
    boolean carriesRecords() {
        return false;
    }
}
