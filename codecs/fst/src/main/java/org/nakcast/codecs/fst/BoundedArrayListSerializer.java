package org.nakcast.codecs.fst;

import org.nustaq.serialization.FSTClazzInfo;
import org.nustaq.serialization.FSTObjectInput;
import org.nustaq.serialization.serializers.FSTArrayListSerializer;

/**
 * FST's {@link java.util.ArrayList} serializer, checking the element count read off the wire
 * against the bytes that remain before the list is sized from it.
 */
final class BoundedArrayListSerializer extends FSTArrayListSerializer {
    @Override
    @SuppressWarnings("rawtypes")
    public Object instantiate(Class objectClass, FSTObjectInput in, FSTClazzInfo serializationInfo,
        FSTClazzInfo.FSTFieldInfo referencee, int streamPosition) throws Exception {
        ((CheckedFstDecoder) in.getCodec()).checkLength("list");
        return super.instantiate(objectClass, in, serializationInfo, referencee, streamPosition);
    }
}
