/**
 * Remote regions, as Netflix's server has them: each region's registry copied periodically from its URL (a full
 * fetch, then deltas checked against the region's hash), and the local registry merged with the copies a client
 * asks for with {@code ?regions=}. May import {@code model}, {@code codec}, {@code config} and {@code replication}
 * (its HTTP client). A region's state reaches the status document as the region describes it, so only this package
 * knows its fields; the cache, which merges the copies, is the one package that imports this one (besides
 * {@code bootstrap}).
 */
package io.muster.regions;
