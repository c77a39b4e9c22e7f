/**
 * The quote service, as a module: it reads nakcast's API (the transport, and through it the
 * configuration and the codec SPI) and nothing else of it; the protocol's packages are not in
 * reach. Its flyweights are bound to nakcast's {@code flyweight} codec as a service.
 */
module com.example.quotes {
    requires org.nakcast.transport;

    provides org.nakcast.codecs.sbe.SbeBinding with com.example.quotes.QuoteBinding;
}
