/**
 * The live registry and its rules: leases, status overrides, recent changes and the renewal rate; the write rules
 * in {@link io.muster.registry.InstanceRegistry}, what it holds read through {@link io.muster.registry.RegistryViews}.
 * The only mutable core. Knows nothing of HTTP, caches, peers or timers: time is the injected clock, so tests move
 * it instead of waiting; adapters learn of changes through {@link io.muster.registry.RegistryListener}. May import
 * {@code model} and {@code config} (its limits).
 */
package io.muster.registry;
