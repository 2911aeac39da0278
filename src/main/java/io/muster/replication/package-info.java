/**
 * Peers: send this node's client writes to every peer in Eureka's batch format, one batcher per peer with retries;
 * copy the registry from a peer at start-up; compare registries with the peers and repair what drifted (the
 * cluster check); and register this server as an instance of its own application, which is what makes stock Eureka
 * peers count it as an available replica. The batches peers send are applied by {@link io.muster.api.PeerBatches},
 * through the same write rules as a client's request. Time is the injected clock and retries wait through a
 * {@code Sleeper}, so a test drives the batchers without waiting. May import {@code model}, {@code registry},
 * {@code codec} and {@code config}.
 */
package io.muster.replication;
