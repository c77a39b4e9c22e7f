package org.nakcast.codecs.fst;

import org.nakcast.codecs.AllowedClasses;
import org.nakcast.codecs.ClassNotAllowedException;

/**
 * The class loader FST resolves class names from the wire with: it answers only names on the
 * topic's allow-list and refuses every other name before any class is looked up, loaded or
 * initialised. FST 2.57 has no allow-list of its own; a name in the stream (its way of writing an
 * unregistered class) ends here.
 */
final class AllowListClassLoader extends ClassLoader {
    private final AllowedClasses allowed;

    AllowListClassLoader(AllowedClasses allowed, ClassLoader parent) {
        super(parent);
        this.allowed = allowed;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!allowed.containsName(name)) {
            throw new ClassNotAllowedException(allowed.codecName(), name);
        }
        return super.loadClass(name, resolve);
    }
}
