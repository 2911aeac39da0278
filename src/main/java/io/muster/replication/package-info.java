/**
 * Peers: send this node's client writes to every peer in Eureka's batch format, apply the batches peers send, and
 * copy the registry from a peer at start-up. Time is the injected clock and retries wait through a
 * {@code Sleeper}, so a test drives the batchers without waiting. May import {@code model}, {@code registry},
 * {@code codec} and {@code config}.
 */
package io.muster.replication;
