package io.muster.registry;

import io.muster.config.ServerConfig.LimitsConfig;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a write may add to the registry: the instance caps, the instances' estimated heap with each application's
 * and client address's share of it, and the count of every refusal.
 *
 * <p>Thread safety: the checks and the bookkeeping run under the registry's change lock (the registry's caller
 * holds it; nothing here locks); the refusal counts are adders, counted and read from any thread.
 */
final class Admission {
    private final LimitsConfig limits;
    /** Each application's and each client address's part of {@link #weight}. */
    private final HeapShares shares;
    private final Map<Refusal, LongAdder> refusals = new EnumMap<>(Refusal.class);
    private int instanceCount;
    /** The instances' estimated heap ({@link InstanceWeight}). */
    private long weight;

    Admission(LimitsConfig limits) {
        this.limits = limits;
        this.shares = new HeapShares(limits.maxAppBytes(), limits.maxClientBytes());
        for (Refusal r : Refusal.values()) {
            refusals.put(r, new LongAdder());
        }
    }

    /** Counts a refusal and hands the exception back to be thrown. */
    <E extends RuntimeException> E refused(Refusal reason, E refusal) {
        refused(reason);
        return refusal;
    }

    void refused(Refusal reason) {
        refusals.get(reason).increment();
    }

    /** A refusal that did not stand after all (the instance turned out to be held by a peer). */
    void takeBack(Refusal reason) {
        refusals.get(reason).decrement();
    }

    long refusals(Refusal reason) {
        return refusals.get(reason).sum();
    }

    /**
     * Refuses a client's new instance when the registry or its app is at its cap. A peer's write is never counted
     * against the caps: the peer admitted it under its own cap, and nodes admit clients independently (writes in
     * flight, a partition), so the cluster may hold more than one node's cap; refusing it here would leave an
     * acknowledged registration on some nodes only. Memory stays bounded by {@link #checkHeap}.
     */
    void checkRoom(Map<String, Lease> leases) {
        if (instanceCount >= limits.maxInstances()) {
            throw refused(Refusal.MAX_INSTANCES, new RegistryFullException(Refusal.MAX_INSTANCES, "registry holds "
                    + instanceCount + " instances, the most allowed (eureka.server.maxInstances)"));
        }
        if (leases != null && leases.size() >= limits.maxInstancesPerApp()) {
            throw refused(Refusal.MAX_INSTANCES_PER_APP, new RegistryFullException(Refusal.MAX_INSTANCES_PER_APP,
                    "application holds " + leases.size()
                            + " instances, the most allowed (eureka.server.maxInstancesPerApp)"));
        }
    }

    /**
     * Refuses a write that would take the instances' estimated heap past its share. A re-registration that does
     * not grow its instance always passes; one that grows it counts like a new one. A peer's write may pass the
     * share by a tenth (nodes near the limit differ by the writes in flight); past that it is refused even though
     * the peer acknowledged it: this is what keeps the heap from running out.
     */
    void checkHeap(long growth, Origin origin) {
        long max = limits.maxRegistryBytes();
        boolean peer = origin == Origin.PEER;
        long allowed = peer && max < Long.MAX_VALUE / 2 ? max + max / 10 : max;
        if (growth > 0 && weight + growth > allowed) {
            throw refused(Refusal.MAX_REGISTRY_BYTES, new RegistryFullException(Refusal.MAX_REGISTRY_BYTES,
                    "registry instances take an estimated " + weight / (1024 * 1024) + " MB of heap, the most"
                            + " allowed is " + max / (1024 * 1024) + " MB (eureka.server.maxRegistryHeapPercent"
                            + (peer ? " plus a tenth for peers' writes)" : ")")));
        }
    }

    /**
     * Refuses a client's write past its application's or its address's share of the heap: the whole instance
     * counts for a holder it moves to, only the growth for the one that held it already.
     */
    void checkShares(String app, long growth, String holder, String previousHolder, long after) {
        RegistryFullException refused = shares.refusal(app, growth, holder,
                Objects.equals(holder, previousHolder) ? growth : after);
        if (refused != null) {
            throw refused(refused.reason(), refused);
        }
    }

    /** An instance stored: {@code before} and {@code after} are its weights (0 before when it is new). */
    void stored(String app, boolean isNew, String previousHolder, long before, String holder, long after) {
        if (isNew) {
            instanceCount++;
        }
        weight += after - before;
        shares.moved(app, previousHolder, before, holder, after);
    }

    /** An instance removed. */
    void removed(String app, Lease removed) {
        long removedWeight = InstanceWeight.of(removed.instance());
        instanceCount--;
        weight -= removedWeight;
        shares.moved(app, removed.admittedBy(), removedWeight, null, 0);
    }
}
