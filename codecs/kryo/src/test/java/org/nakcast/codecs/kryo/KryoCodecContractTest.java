package org.nakcast.codecs.kryo;

import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecRegistry;
import org.nakcast.codecs.contract.CodecContractTest;

/**
 * The codec contract for {@value CodecRegistry#KRYO}.
 */
final class KryoCodecContractTest extends CodecContractTest {
    @Override
    protected String codecName() {
        return CodecNames.KRYO;
    }

    @Override
    protected boolean numbersClasses() {
        return true;
    }
}
