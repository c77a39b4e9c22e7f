package org.nakcast.codecs.fst;

import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecRegistry;
import org.nakcast.codecs.contract.CodecContractTest;

/**
 * The codec contract for {@value CodecRegistry#FST}.
 */
final class FstCodecContractTest extends CodecContractTest {
    @Override
    protected String codecName() {
        return CodecNames.FST;
    }

    @Override
    protected boolean numbersClasses() {
        return true;
    }
}
