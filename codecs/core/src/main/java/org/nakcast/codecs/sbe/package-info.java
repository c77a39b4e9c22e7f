/**
 * The {@code flyweight} codec: SBE (Simple Binary Encoding) flyweights generated at build time from
 * an XML schema, wrapped straight over datagrams. An {@link org.nakcast.codecs.sbe.SbeBinding} ties
 * a message class to its generated encoder and decoder; bindings are found with
 * {@link java.util.ServiceLoader}. Every message carries SBE's standard 8-byte header; the codec
 * checks each header field and the whole message length against the region before handing out a
 * decoder, and bounds encoder and decoder to the region with an Agrona view.
 */
package org.nakcast.codecs.sbe;
