/**
 * The Eureka API: each endpoint's rules once ({@link io.muster.api.RegistryReads},
 * {@link io.muster.api.InstanceWrites}, {@link io.muster.api.PeerBatches}), answering with a {@link io.muster.api.Reply}
 * that either road writes, and the JAX-RS resources that are the readable map of the API. No business rules (the
 * registry has those) and no hand-built payloads (the codec writes those). May import {@code model},
 * {@code config}, {@code registry}, {@code codec}, {@code cache}, {@code eviction}, {@code replication},
 * {@code status} and {@code audit}: what its rules and documents are made of. Not {@code regions}: the cache turns
 * a {@code ?regions=} value into its key and each region describes itself for the status document, so the API
 * reads the same with remote regions or without. Never {@code web}, {@code dashboard}, {@code jmx}, {@code health}
 * or {@code bootstrap}, which are built on it.
 */
package io.muster.api;
