package io.muster.registry;

/**
 * Learns of registry changes. Called synchronously on the writer's thread, and for visible changes while the
 * registry's change lock is held: implementations must be O(1) and must not block (bump a counter, empty a map
 * entry, offer to a queue).
 */
@FunctionalInterface
public interface RegistryListener {
    void onChange(RegistryChange change);
}
