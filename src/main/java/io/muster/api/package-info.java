/**
 * The Eureka API: each endpoint's rules once ({@link io.muster.api.RegistryReads},
 * {@link io.muster.api.InstanceWrites}, {@link io.muster.api.PeerBatches}), answering with a {@link io.muster.api.Reply}
 * that either road writes, and the JAX-RS resources that are the readable map of the API. No business rules (the
 * registry has those) and no hand-built payloads (the codec writes those). May import model, config, registry,
 * codec, cache, eviction, replication, status and audit; never web, dashboard or bootstrap.
 */
package io.muster.api;
