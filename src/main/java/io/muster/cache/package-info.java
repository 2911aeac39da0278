/**
 * Ready-to-send payloads per request shape, in two tiers as in Eureka, emptied by registry changes through a
 * listener. May import {@code model}, {@code registry}, {@code codec}, {@code config} and {@code regions} (merged
 * views of remote regions, whose refreshes make them stale).
 */
package io.muster.cache;
