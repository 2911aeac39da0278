/**
 * Prometheus metrics through Micrometer: registry size by app and status, renewals against the threshold,
 * registrations, cancellations and evictions, the response cache, replication per peer, and request latency per
 * endpoint; apps beyond a label budget are summed under {@code app="_other"}. The whole-server numbers come from
 * one {@code status} snapshot per scrape. May import {@code model}, {@code config}, {@code registry},
 * {@code replication} and {@code status}.
 */
package io.muster.metrics;
