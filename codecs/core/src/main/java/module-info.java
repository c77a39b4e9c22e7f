/**
 * nakcast's codec SPI: {@code Codec} and {@code FlyweightCodec}, the registry a node finds a
 * topic's codec in, the allow-list every object codec keeps, and {@code SbeBinding}, through which
 * a {@code flyweight} topic finds a service's own flyweights. Codecs of other modules (FST, Kryo)
 * are found as {@code CodecProvider}s.
 */
// Agrona (its buffers are in the SPI) names its module in its manifest only
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module org.nakcast.codecs {
    requires transitive org.agrona;

    exports org.nakcast.codecs;
    exports org.nakcast.codecs.sbe;

    uses org.nakcast.codecs.CodecProvider;
    uses org.nakcast.codecs.sbe.SbeBinding;
}
