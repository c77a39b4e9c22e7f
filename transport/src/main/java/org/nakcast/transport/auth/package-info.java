/**
 * Authenticated datagrams: the sockets of a transport with a key file sign every datagram with an
 * NHPoly1305-AES tag in a trailer ({@code AuthTrailer}) and drop, counted by cause, every datagram
 * that does not check or was heard before, ahead of everything else on the receiving side.
 */
package org.nakcast.transport.auth;
