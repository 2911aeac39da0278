package io.muster.registry;

/**
 * Learns of registry changes. Called synchronously on the writer's thread, and for visible changes while the
 * registry's change lock is held: implementations must be O(1) and must not block (bump a counter, empty a map
 * entry, offer to a queue). Under the change lock a listener does no file or network I/O and takes no lock but a
 * leaf lock of its own, one whose holder never waits for anything (not the change lock, not I/O, not another
 * component's lock): work that needs the disk or a peer is queued here and done on another thread (the
 * cancellation journal, the peers' batchers).
 */
@FunctionalInterface
public interface RegistryListener {
    void onChange(RegistryChange change);

    /**
     * After a cancel, on the writer's thread once the change lock is released, before the writer's request is
     * answered: what must be on disk before a client is told its cancel was taken (the journal) is written here,
     * outside the lock, so a crash right after the answer cannot lose it.
     */
    default void afterCancel() {
    }
}
