package org.nakcast.codecs.fst;

import java.util.List;

import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecRegistry;
import org.nakcast.codecs.contract.AllowListContractTest;
import org.nakcast.codecs.contract.Gadget;
import org.nustaq.serialization.FSTConfiguration;

/**
 * The allow-list contract for {@value CodecRegistry#FST} and {@value CodecRegistry#FST_UNSHARED}:
 * the gadget's stream is written by a plain FST configuration, which knows no allow-list.
 */
final class FstAllowListTest extends AllowListContractTest {
    @Override
    protected List<String> codecNames() {
        return List.of(CodecNames.FST, CodecNames.FST_UNSHARED);
    }

    @Override
    protected byte[] streamOf(Gadget gadget) {
        return FSTConfiguration.createDefaultConfiguration().asByteArray(gadget);
    }
}
