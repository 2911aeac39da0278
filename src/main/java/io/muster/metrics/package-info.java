/**
 * Prometheus metrics through Micrometer: registry size by app and status, renewals against the threshold,
 * registrations, cancellations and evictions, the response cache, replication per peer, and request latency per
 * endpoint; apps beyond a label budget are summed under {@code app="_other"}. May import {@code model},
 * {@code config}, {@code registry}, {@code cache}, {@code eviction} and {@code replication}.
 */
package io.muster.metrics;
