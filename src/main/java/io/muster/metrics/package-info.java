/**
 * Prometheus metrics through Micrometer: registry size by app and status, renewals against the threshold,
 * registrations, cancellations and evictions, the response cache, replication per peer (counters, gauges and a lag
 * histogram), request latency per endpoint as a histogram, the JVM and process (Micrometer's binders) and the
 * build's version; apps beyond a label budget are summed under {@code app="_other"}. The whole-server numbers come
 * from one {@code status} snapshot per scrape. Every family has help text and follows Prometheus' naming, so
 * {@code promtool check metrics} finds nothing. May import {@code model}, {@code config}, {@code registry},
 * {@code replication}, {@code status}, and {@code cache} and {@code eviction} for the values the status snapshot
 * carries (the response cache's counters, self-preservation's verdict).
 */
package io.muster.metrics;
