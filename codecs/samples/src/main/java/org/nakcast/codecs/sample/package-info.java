/**
 * The sample messages used by tests, examples and benchmarks: the seed's
 * {@link org.nakcast.codecs.sample.PriceUpdate} (an {@link org.nakcast.codecs.sample.Instrument}, a
 * quantity and a price) as a class, as a record ({@link org.nakcast.codecs.sample.PriceUpdateRecord}),
 * carried as Externalizable ({@link org.nakcast.codecs.sample.ExternalizablePriceUpdate}) and as SBE
 * flyweights (generated into {@code org.nakcast.codecs.sample.sbe} from
 * {@code src/main/resources/sbe/nakcast-samples.xml}); and the variable-length
 * {@link org.nakcast.codecs.sample.Order} with its list of {@link org.nakcast.codecs.sample.OrderLeg}s
 * (a repeating group in SBE). {@link org.nakcast.codecs.sample.SampleMessages} gives the spec and
 * values for any codec by name.
 *
 * <p>This module, {@code nakcast-codecs-samples}, is for examples, tests and benchmarks only: no
 * library depends on it, so a service's class path never carries these classes or their bindings.
 */
package org.nakcast.codecs.sample;
