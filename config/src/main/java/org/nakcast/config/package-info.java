/**
 * A nakcast node's configuration: the YAML model, its loading, its defaults and its checks.
 *
 * <p>Configuration flows one way: a YAML file becomes typed records ({@link org.nakcast.config.NodeConfig},
 * {@link org.nakcast.config.NodeSettings}, {@link org.nakcast.config.TransportConfig},
 * {@link org.nakcast.config.TopicConfig}), which {@code conclude()} checks as a whole before any
 * thread starts. A config built in code takes the same {@code conclude()} path.
 *
 * <h2>Errors</h2>
 * Every problem names the source, the key path ({@code topics[2].transport}) and, for a file, the
 * line and column; a mistyped key, transport, codec, interface or enum value gets a "did you
 * mean" with the closest name first. Problems come in two rounds, each complete: first the shape
 * of the file (syntax, unknown, missing and repeated keys, values that do not parse), then, when
 * the shape is right, the meaning (ranges, references between sections, the machine's
 * interfaces). A {@link org.nakcast.config.ConfigException} carries the whole list.
 *
 * <h2>Choices</h2>
 * <ul>
 *   <li>Keys and enum values are lower-case kebab ({@code datagram-size}, {@code late-join: oldest});
 *       exactly that spelling is accepted.</li>
 *   <li>Sizes are whole bytes or have a binary suffix k/m/g; durations always have a unit
 *       (ns, us, ms, s): a bare number is refused rather than guessed at.</li>
 *   <li>An empty value ({@code ttl:}) means the default, as if the key were left out; for a
 *       required key it is an error.</li>
 *   <li>Addresses (groups, interfaces selected by address) are literals; no name is ever looked
 *       up in DNS, so loading a config cannot hang.</li>
 *   <li>The NIC is found through {@link org.nakcast.config.NetworkInterfaces}, a seam with a system
 *       implementation and a fixed one for tests. Multicast support is not asked of the JDK, which
 *       denies it for {@code lo} where it works.</li>
 *   <li>Codec names are checked against a set passed in ({@link org.nakcast.config.ConcludeContext});
 *       the built-in names are the default, so this module depends on no other nakcast module.</li>
 * </ul>
 */
package org.nakcast.config;
