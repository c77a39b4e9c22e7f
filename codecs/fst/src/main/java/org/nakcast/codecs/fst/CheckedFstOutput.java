package org.nakcast.codecs.fst;

import org.nakcast.codecs.AllowedClasses;
import org.nustaq.serialization.FSTClazzInfo;
import org.nustaq.serialization.FSTConfiguration;
import org.nustaq.serialization.FSTObjectOutput;

/**
 * FST's object output refusing to write an object of a class off the allow-list: FST would write
 * its name, and every receiver would refuse it; the publisher hears of it first.
 */
final class CheckedFstOutput extends FSTObjectOutput {
    private final AllowedClasses allowed;
    private Class<?> lastChecked;

    CheckedFstOutput(FSTConfiguration conf, AllowedClasses allowed) {
        super(conf);
        this.allowed = allowed;
    }

    @Override
    @SuppressWarnings("rawtypes")
    protected FSTClazzInfo getFstClazzInfo(FSTClazzInfo.FSTFieldInfo referencee, Class clazz) {
        if (clazz != lastChecked) {
            allowed.check(clazz);
            lastChecked = clazz;
        }
        return super.getFstClazzInfo(referencee, clazz);
    }
}
