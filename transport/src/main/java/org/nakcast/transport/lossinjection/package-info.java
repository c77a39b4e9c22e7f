/**
 * Loss injected on purpose, for tests and drills: a {@link org.nakcast.transport.lossinjection.LossGenerator}
 * given to {@code NodeHarness.sendLoss} or {@code receiveLoss} drops the datagrams it picks on the
 * node's send or receive path, and the node counts them ({@code datagrams dropped by loss
 * injection}). How the protocol handles real loss is in {@code receive} (gaps, NAKs, loss events)
 * and {@code publish} (history, retransmits).
 */
package org.nakcast.transport.lossinjection;
