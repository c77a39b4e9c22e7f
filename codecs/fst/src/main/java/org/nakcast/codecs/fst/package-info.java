/**
 * The {@code fst} and {@code fst-unshared} codecs on FST 2.57, with the checks FST lacks added
 * around it: an allow-list enforced on write ({@code CheckedFstOutput}), on read by class id
 * ({@code CheckedFstDecoder}) and by class name before any loading ({@code AllowListClassLoader},
 * installed as the FST configuration's class loader: FST resolves every name read off the wire
 * through it); string and list lengths bounded by the bytes that remain; records written through
 * their canonical constructor ({@code FstRecordSerializer}), as FST 2.57 cannot set record fields.
 * This module, {@code nakcast-codecs-fst}, is optional: on the class path, its providers are found
 * by {@link java.util.ServiceLoader}; without it a service needs neither FST nor its flags. Needs
 * the {@code --add-opens} lines of {@code ops/jvm-fst.options} besides nakcast's one flag; works on
 * JDK 17 and 25 (on 25 the JVM warns once that FST uses {@code sun.misc.Unsafe}).
 */
package org.nakcast.codecs.fst;
