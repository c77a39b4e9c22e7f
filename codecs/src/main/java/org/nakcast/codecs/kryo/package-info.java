/**
 * The {@code kryo} codec: Kryo 5 with registration required (classes numbered in the spec's order,
 * so both sides must list the same classes in the same order), references off, safe (non-Unsafe)
 * input and output ({@code -Dkryo.unsafe=false}), string and list lengths bounded by the bytes that
 * remain.
 */
package org.nakcast.codecs.kryo;
