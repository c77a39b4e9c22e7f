package org.nakcast.codecs.contract;

import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecRegistry;

/**
 * The codec contract for {@value CodecRegistry#JDK_EXTERNALIZABLE}, on the Externalizable samples.
 */
final class JdkExternalizableCodecContractTest extends CodecContractTest {
    @Override
    protected String codecName() {
        return CodecNames.JDK_EXTERNALIZABLE;
    }

    @Override
    protected boolean carriesRecords() {
        return false;
    }

    @Override
    protected boolean writesFieldsOfAnyClass() {
        return false;
    }
}
