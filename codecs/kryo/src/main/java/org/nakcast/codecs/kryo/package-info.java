/**
 * The {@code kryo} codec: Kryo 5 with registration required (classes numbered in the spec's order,
 * so both sides must list the same classes in the same order), references off, safe (non-Unsafe)
 * input and output ({@code -Dkryo.unsafe=false}), string and list lengths bounded by the bytes that
 * remain. This module, {@code nakcast-codecs-kryo}, is optional: on the class path, its provider is
 * found by {@link java.util.ServiceLoader}. Its flag is in {@code ops/jvm-kryo.options}.
 */
package org.nakcast.codecs.kryo;
