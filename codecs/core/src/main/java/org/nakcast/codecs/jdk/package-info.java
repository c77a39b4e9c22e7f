/**
 * The {@code jdk} ({@link java.io.Serializable}, records included) and {@code jdk-externalizable}
 * ({@link java.io.Externalizable}) codecs: one self-contained Java serialization stream per message,
 * decoded under an allow-list ({@code resolveClass} answers only listed names, with no class
 * loading) and an {@link java.io.ObjectInputFilter} capping depth, references, bytes and array
 * lengths by the message's own length.
 */
package org.nakcast.codecs.jdk;
