package io.muster.api;

import io.muster.audit.AuditTrail;
import io.muster.cache.ResponseCache;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.TrafficGate;
import io.muster.replication.PeerDigest;

import java.time.Clock;
import java.util.function.Supplier;

/**
 * The Eureka API's rules, built once by the composition root and shared by both roads a request can take (the
 * front door's fast paths and the JAX-RS resources), plus what the operations endpoints read (and the cluster digest peers
 * read). {@code peerHeard} is told of every authorized request a peer made: replication resumes when the peer does.
 * {@code audit} is this server's audit trail, which the writes record to and operators read.
 */
public record Api(InstanceRegistry registry, RegistryReads reads, InstanceWrites writes, PeerBatches batches,
                  StatusReport status, Supplier<String> metrics, Supplier<PeerDigest> digest, Runnable peerHeard,
                  AuditTrail audit) {

    public static Api create(InstanceRegistry registry, ResponseCache cache, TrafficGate gate, boolean deltaDisabled,
                             Clock clock, StatusReport status, Supplier<String> metrics,
                             Supplier<PeerDigest> digest, InstanceWrites.PeerLookup peers, Runnable peerHeard,
                             AuditTrail audit) {
        InstanceWrites writes = new InstanceWrites(registry, clock, peers, audit);
        return new Api(registry, new RegistryReads(registry, cache, gate, deltaDisabled), writes,
                new PeerBatches(writes, clock), status, metrics, digest, peerHeard, audit);
    }
}
