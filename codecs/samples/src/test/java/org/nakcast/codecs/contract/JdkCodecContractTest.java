package org.nakcast.codecs.contract;

import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecRegistry;

/**
 * The codec contract for {@value CodecRegistry#JDK}.
 */
final class JdkCodecContractTest extends CodecContractTest {
    @Override
    protected String codecName() {
        return CodecNames.JDK;
    }
}
