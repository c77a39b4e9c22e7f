package org.nakcast.codecs.fst;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;

import org.nustaq.serialization.FSTBasicObjectSerializer;
import org.nustaq.serialization.FSTClazzInfo;
import org.nustaq.serialization.FSTObjectInput;
import org.nustaq.serialization.FSTObjectOutput;

/**
 * Writes a record as its components, in declaration order, and reads it back through its
 * canonical constructor. FST 2.57 predates records: it sets fields through
 * {@code Unsafe.objectFieldOffset}, which the JDK refuses for record fields, so every registered
 * record class gets this serializer instead. The constructor runs, so a record's own validation
 * applies to what the wire holds.
 */
final class FstRecordSerializer extends FSTBasicObjectSerializer {
    private final Method[] accessors;
    private final Class<?>[] types;
    private final Constructor<?> constructor;

    FstRecordSerializer(Class<?> recordClass) {
        final RecordComponent[] components = recordClass.getRecordComponents();
        accessors = new Method[components.length];
        types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            accessors[i] = components[i].getAccessor();
            accessors[i].setAccessible(true);
            types[i] = components[i].getType();
        }
        try {
            constructor = recordClass.getDeclaredConstructor(types);
            constructor.setAccessible(true);
        } catch (NoSuchMethodException ex) {
            throw new IllegalStateException("record " + recordClass.getName() + " has no canonical constructor", ex);
        }
    }

    @Override
    public void writeObject(FSTObjectOutput out, Object toWrite, FSTClazzInfo clzInfo,
        FSTClazzInfo.FSTFieldInfo referencedBy, int streamPosition) throws IOException {
        for (int i = 0; i < accessors.length; i++) {
            final Object value = get(accessors[i], toWrite);
            switch (types[i].getName()) {
                case "long" -> out.writeLong((Long) value);
                case "int" -> out.writeInt((Integer) value);
                case "double" -> out.writeDouble((Double) value);
                case "float" -> out.writeFloat((Float) value);
                case "short" -> out.writeShort((Short) value);
                case "char" -> out.writeChar((Character) value);
                case "byte" -> out.writeByte((Byte) value);
                case "boolean" -> out.writeBoolean((Boolean) value);
                default -> out.writeObject(value);
            }
        }
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Object instantiate(Class objectClass, FSTObjectInput in, FSTClazzInfo serializationInfo,
        FSTClazzInfo.FSTFieldInfo referencee, int streamPosition) throws Exception {
        final Object[] values = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            values[i] = switch (types[i].getName()) {
                case "long" -> in.readLong();
                case "int" -> in.readInt();
                case "double" -> in.readDouble();
                case "float" -> in.readFloat();
                case "short" -> in.readShort();
                case "char" -> in.readChar();
                case "byte" -> in.readByte();
                case "boolean" -> in.readBoolean();
                default -> in.readObject();
            };
        }
        final Object record;
        try {
            record = constructor.newInstance(values);
        } catch (InvocationTargetException | IllegalArgumentException ex) {
            throw new IOException("record " + objectClass.getName() + " refused the values read: " + ex, ex);
        }
        in.registerObject(record, streamPosition, serializationInfo, referencee);
        return record;
    }

    private static Object get(Method accessor, Object record) throws IOException {
        try {
            return accessor.invoke(record);
        } catch (IllegalAccessException | InvocationTargetException ex) {
            throw new IOException("cannot read " + accessor, ex);
        }
    }
}
