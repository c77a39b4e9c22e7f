package org.nakcast.codecs;

/**
 * The names of the codecs nakcast ships, as a topic's {@code codec} key names them. Their
 * providers name themselves with these, and the {@link CodecRegistry} registers the built-in ones
 * and names the modules of the others.
 */
public final class CodecNames {
    /** SBE flyweights: zero copy, no allocation. */
    public static final String FLYWEIGHT = "flyweight";
    /** FST with shared references (object graphs with cycles and shared objects); in {@code nakcast-codecs-fst}. */
    public static final String FST = "fst";
    /** FST without shared references (trees only; faster); in {@code nakcast-codecs-fst}. */
    public static final String FST_UNSHARED = "fst-unshared";
    /** JDK serialization of {@link java.io.Serializable} classes and records. */
    public static final String JDK = "jdk";
    /** JDK serialization of {@link java.io.Externalizable} classes. */
    public static final String JDK_EXTERNALIZABLE = "jdk-externalizable";
    /** Kryo 5, registration required, references off; in {@code nakcast-codecs-kryo}. */
    public static final String KRYO = "kryo";

    private CodecNames() {
    }
}
