package io.muster.codec;

import io.muster.model.DataCenterInfo;
import io.muster.model.InstanceInfo;
import io.muster.model.PortInfo;

import java.util.Objects;

/**
 * An instance's content apart from its {@code leaseInfo}: two instances with equal keys encode to the same bytes
 * on either side of the lease, so a fragment found under an equal key is byte-for-byte the one that encoding
 * this instance would produce. Keyed by content rather than identity because every read decorates an instance
 * with its lease into a fresh copy, and a renewal swaps in a new lease every few seconds.
 *
 * <p>equals and hashCode are written out: the record-generated ones of the model go through
 * {@code ObjectMethods}, which pins the web application after an undeploy (see {@code CacheKey}).
 * {@code FragmentsTest} fails when {@link InstanceInfo} gains a component, so a new field cannot be forgotten here.
 * Immutable, as the instance is.
 */
final class InstanceKey {
    private final InstanceInfo i;
    private final int hash;

    InstanceKey(InstanceInfo i) {
        this.i = i;
        this.hash = hash(i);
    }

    /**
     * The id and fields held in the instance object itself: a rebuild hashes every instance of the registry, and
     * each further object touched is a likely cache miss (the id's hash is cached in the String).
     */
    private static int hash(InstanceInfo i) {
        int h = Objects.hashCode(i.instanceId());
        h = h * 31 + i.status().ordinal();
        h = h * 31 + Long.hashCode(i.lastUpdatedTimestamp());
        return h * 31 + Long.hashCode(i.lastDirtyTimestamp());
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof InstanceKey k)) {
            return false;
        }
        InstanceInfo j = k.i;
        return hash == k.hash && i.status() == j.status() && i.overriddenStatus() == j.overriddenStatus()
                && i.countryId() == j.countryId()
                && i.isCoordinatingDiscoveryServer() == j.isCoordinatingDiscoveryServer()
                && i.lastUpdatedTimestamp() == j.lastUpdatedTimestamp()
                && i.lastDirtyTimestamp() == j.lastDirtyTimestamp() && i.actionType() == j.actionType()
                && Objects.equals(i.instanceId(), j.instanceId()) && Objects.equals(i.hostName(), j.hostName())
                && Objects.equals(i.app(), j.app()) && Objects.equals(i.ipAddr(), j.ipAddr())
                && Objects.equals(i.sid(), j.sid()) && samePort(i.port(), j.port())
                && samePort(i.securePort(), j.securePort()) && sameDataCenter(i.dataCenterInfo(), j.dataCenterInfo())
                && sameInOrder(i.metadata(), j.metadata()) && Objects.equals(i.appGroupName(), j.appGroupName())
                && Objects.equals(i.homePageUrl(), j.homePageUrl())
                && Objects.equals(i.statusPageUrl(), j.statusPageUrl())
                && Objects.equals(i.healthCheckUrl(), j.healthCheckUrl())
                && Objects.equals(i.secureHealthCheckUrl(), j.secureHealthCheckUrl())
                && Objects.equals(i.vipAddress(), j.vipAddress())
                && Objects.equals(i.secureVipAddress(), j.secureVipAddress())
                && Objects.equals(i.asgName(), j.asgName());
    }

    /** The number of {@link InstanceInfo} components this key accounts for (all of them, the lease included). */
    static final int COMPONENTS = 25;

    /** Map equality that also compares the order: metadata is written in insertion order, Map.equals ignores it. */
    private static boolean sameInOrder(java.util.Map<String, String> a, java.util.Map<String, String> b) {
        if (a == b) {
            return true;
        }
        if (a.size() != b.size()) {
            return false;
        }
        var ib = b.entrySet().iterator();
        for (var ea : a.entrySet()) {
            var eb = ib.next();
            if (!Objects.equals(ea.getKey(), eb.getKey()) || !Objects.equals(ea.getValue(), eb.getValue())) {
                return false;
            }
        }
        return true;
    }

    private static boolean samePort(PortInfo a, PortInfo b) {
        return a.port() == b.port() && a.enabled() == b.enabled();
    }

    private static boolean sameDataCenter(DataCenterInfo a, DataCenterInfo b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null) {
            return false;
        }
        return Objects.equals(a.name(), b.name()) && sameInOrder(a.metadata(), b.metadata());
    }
}
