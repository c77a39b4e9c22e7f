package org.nakcast.codecs.fst;

import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecRegistry;
import org.nakcast.codecs.contract.CodecContractTest;

/**
 * The codec contract for {@value CodecRegistry#FST_UNSHARED}.
 */
final class FstUnsharedCodecContractTest extends CodecContractTest {
    @Override
    protected String codecName() {
        return CodecNames.FST_UNSHARED;
    }

    @Override
    protected boolean numbersClasses() {
        return true;
    }
}
