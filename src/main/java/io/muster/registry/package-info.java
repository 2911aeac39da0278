/**
 * The live registry and its rules: leases, status overrides, recent changes and the renewal rate. The only
 * mutable core. Knows nothing of HTTP, caches, peers or timers; adapters learn of changes through
 * {@link io.muster.registry.RegistryListener}. May import {@code model} and {@code config}
 * (its limits).
 */
package io.muster.registry;
