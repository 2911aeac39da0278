package io.muster.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One registered instance, in Eureka's field set. Immutable: the registry replaces an instance, it never changes
 * one in place, so snapshots, caches and peers can share instances without locks. Timestamps are epoch millis
 * because they are wire values that clients compare for equality ({@code lastDirtyTimestamp} is the client's
 * version of its own record).
 */
public record InstanceInfo(
        String instanceId, String hostName, String app, String ipAddr, String sid,
        InstanceStatus status, InstanceStatus overriddenStatus,
        PortInfo port, PortInfo securePort, int countryId,
        DataCenterInfo dataCenterInfo, LeaseInfo leaseInfo, Map<String, String> metadata,
        String appGroupName, String homePageUrl, String statusPageUrl, String healthCheckUrl,
        String secureHealthCheckUrl, String vipAddress, String secureVipAddress,
        boolean isCoordinatingDiscoveryServer, long lastUpdatedTimestamp, long lastDirtyTimestamp,
        ActionType actionType, String asgName) {

    public InstanceInfo {
        status = status == null ? InstanceStatus.UP : status;
        overriddenStatus = overriddenStatus == null ? InstanceStatus.UNKNOWN : overriddenStatus;
        port = port == null ? PortInfo.DEFAULT_PORT : port;
        securePort = securePort == null ? PortInfo.DEFAULT_SECURE_PORT : securePort;
        leaseInfo = leaseInfo == null ? LeaseInfo.DEFAULT : leaseInfo;
        // names repeated across an application's instances are held once (a copy of an instance shares them already)
        app = SharedText.of(app);
        appGroupName = SharedText.of(appGroupName);
        vipAddress = SharedText.of(vipAddress);
        secureVipAddress = SharedText.of(secureVipAddress);
        asgName = SharedText.of(asgName);
        sid = SharedText.of(sid);
        if (hostName != null && hostName.equals(ipAddr)) {
            hostName = ipAddr;   // as Spring Cloud clients that prefer the address register: one string, not two
        }
        // insertion order is kept so that what a client registered is echoed back in the same order
        metadata = metadata == null || metadata.isEmpty() ? Map.of()
                : metadata instanceof FrozenMetadata ? metadata : FrozenMetadata.shared(metadata);
    }

    /**
     * Metadata as this constructor copied it, recognised by the next copy of the instance and shared rather than
     * copied again: every read decorates each instance with its lease into a new copy (10,000 per registry
     * rebuild), and the response cache's fragment keys compare metadata, which is then one reference check.
     * Only this constructor creates one, so an instance of it is known to be immutable.
     *
     * <p>Kept as one array of keys and values in insertion order (what is echoed to clients), with the text shared
     * ({@link SharedText}): a linked hash map and its views cost about 250 bytes for one entry, this about 40. A
     * lookup is a scan, as cheap as hashing for the few entries instances carry (at most
     * {@code eureka.server.maxMetadataEntries}). Thread-safe: immutable.
     */
    private static final class FrozenMetadata extends java.util.AbstractMap<String, String> {
        /**
         * One copy of each metadata seen, weakly held: an application's instances usually carry the same entries
         * (a management port, a zone), 56 bytes each per instance otherwise.
         */
        private static final com.google.common.collect.Interner<FrozenMetadata> SHARED =
                com.google.common.collect.Interners.newWeakInterner();
        private final String[] keysAndValues;

        /**
         * A copy of {@code from}, or the one held already with the same entries in the same order (maps with the
         * same entries are equal in any order, and the order is echoed to clients).
         */
        static FrozenMetadata shared(Map<String, String> from) {
            FrozenMetadata copy = new FrozenMetadata(from);
            FrozenMetadata held = SHARED.intern(copy);
            return held == copy || java.util.Arrays.equals(held.keysAndValues, copy.keysAndValues) ? held : copy;
        }

        FrozenMetadata(Map<String, String> from) {
            String[] kv = new String[from.size() * 2];
            int i = 0;
            for (Map.Entry<String, String> e : from.entrySet()) {
                kv[i++] = SharedText.of(e.getKey());
                kv[i++] = SharedText.of(e.getValue());
            }
            this.keysAndValues = kv;
        }

        @Override
        public java.util.Set<Entry<String, String>> entrySet() {
            return new java.util.AbstractSet<>() {
                @Override
                public java.util.Iterator<Entry<String, String>> iterator() {
                    return new java.util.Iterator<>() {
                        private int at;

                        @Override
                        public boolean hasNext() {
                            return at < keysAndValues.length;
                        }

                        @Override
                        public Entry<String, String> next() {
                            if (at >= keysAndValues.length) {
                                throw new java.util.NoSuchElementException();
                            }
                            Entry<String, String> e = new java.util.AbstractMap.SimpleImmutableEntry<>(
                                    keysAndValues[at], keysAndValues[at + 1]);
                            at += 2;
                            return e;
                        }
                    };
                }

                @Override
                public int size() {
                    return keysAndValues.length / 2;
                }
            };
        }

        @Override
        public String get(Object key) {
            int i = indexOf(key);
            return i < 0 ? null : keysAndValues[i + 1];
        }

        @Override
        public boolean containsKey(Object key) {
            return indexOf(key) >= 0;
        }

        @Override
        public int size() {
            return keysAndValues.length / 2;
        }

        private int indexOf(Object key) {
            for (int i = 0; i < keysAndValues.length; i += 2) {
                if (java.util.Objects.equals(keysAndValues[i], key)) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** The registry key and the {@code {id}} in URLs: instanceId, else the AWS instance id, else the host name. */
    public String id() {
        if (instanceId != null && !instanceId.isEmpty()) {
            return instanceId;
        }
        if (dataCenterInfo != null && dataCenterInfo.isAmazon()) {
            String awsId = dataCenterInfo.metadata().get("instance-id");
            if (awsId != null && !awsId.isEmpty()) {
                return awsId;
            }
        }
        return hostName;
    }

    /**
     * The VIP addresses of that kind: the list as sent is comma-separated (Eureka's format), split here once for
     * the registry's VIP views and the cache's invalidation alike. Empty when the instance has none.
     */
    public List<String> vips(VipKind kind) {
        String list = kind == VipKind.SECURE_VIP ? secureVipAddress : vipAddress;
        if (list == null) {
            return List.of();
        }
        String[] parts = list.split(",");
        List<String> vips = new ArrayList<>(parts.length);
        for (String part : parts) {
            vips.add(part.trim());
        }
        return vips;
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    public static Builder builder() {
        return new Builder();
    }

    public InstanceInfo withLeaseInfo(LeaseInfo newLeaseInfo) {
        return toBuilder().leaseInfo(newLeaseInfo).build();
    }

    /** Fills a decoded instance; the defaults are Eureka's. */
    public static final class Builder {
        private String instanceId;
        private String hostName;
        private String app;
        private String ipAddr;
        private String sid = "na";
        private InstanceStatus status = InstanceStatus.UP;
        private InstanceStatus overriddenStatus = InstanceStatus.UNKNOWN;
        private PortInfo port = PortInfo.DEFAULT_PORT;
        private PortInfo securePort = PortInfo.DEFAULT_SECURE_PORT;
        private int countryId = 1;
        private DataCenterInfo dataCenterInfo;
        private LeaseInfo leaseInfo = LeaseInfo.DEFAULT;
        private Map<String, String> metadata = Map.of();
        private String appGroupName;
        private String homePageUrl;
        private String statusPageUrl;
        private String healthCheckUrl;
        private String secureHealthCheckUrl;
        private String vipAddress;
        private String secureVipAddress;
        private boolean isCoordinatingDiscoveryServer;
        private long lastUpdatedTimestamp;
        private long lastDirtyTimestamp;
        private ActionType actionType;
        private String asgName;

        private Builder() {
        }

        private Builder(InstanceInfo i) {
            instanceId = i.instanceId;
            hostName = i.hostName;
            app = i.app;
            ipAddr = i.ipAddr;
            sid = i.sid;
            status = i.status;
            overriddenStatus = i.overriddenStatus;
            port = i.port;
            securePort = i.securePort;
            countryId = i.countryId;
            dataCenterInfo = i.dataCenterInfo;
            leaseInfo = i.leaseInfo;
            metadata = i.metadata;
            appGroupName = i.appGroupName;
            homePageUrl = i.homePageUrl;
            statusPageUrl = i.statusPageUrl;
            healthCheckUrl = i.healthCheckUrl;
            secureHealthCheckUrl = i.secureHealthCheckUrl;
            vipAddress = i.vipAddress;
            secureVipAddress = i.secureVipAddress;
            isCoordinatingDiscoveryServer = i.isCoordinatingDiscoveryServer;
            lastUpdatedTimestamp = i.lastUpdatedTimestamp;
            lastDirtyTimestamp = i.lastDirtyTimestamp;
            actionType = i.actionType;
            asgName = i.asgName;
        }

        public Builder instanceId(String v) { instanceId = v; return this; }
        public Builder hostName(String v) { hostName = v; return this; }
        public Builder app(String v) { app = v; return this; }
        public Builder ipAddr(String v) { ipAddr = v; return this; }
        public Builder sid(String v) { sid = v; return this; }
        public Builder status(InstanceStatus v) { status = v; return this; }
        public Builder overriddenStatus(InstanceStatus v) { overriddenStatus = v; return this; }
        public Builder port(PortInfo v) { port = v; return this; }
        public Builder securePort(PortInfo v) { securePort = v; return this; }
        public Builder countryId(int v) { countryId = v; return this; }
        public Builder dataCenterInfo(DataCenterInfo v) { dataCenterInfo = v; return this; }
        public Builder leaseInfo(LeaseInfo v) { leaseInfo = v; return this; }
        public Builder metadata(Map<String, String> v) { metadata = v; return this; }
        public Builder appGroupName(String v) { appGroupName = v; return this; }
        public Builder homePageUrl(String v) { homePageUrl = v; return this; }
        public Builder statusPageUrl(String v) { statusPageUrl = v; return this; }
        public Builder healthCheckUrl(String v) { healthCheckUrl = v; return this; }
        public Builder secureHealthCheckUrl(String v) { secureHealthCheckUrl = v; return this; }
        public Builder vipAddress(String v) { vipAddress = v; return this; }
        public Builder secureVipAddress(String v) { secureVipAddress = v; return this; }
        public Builder isCoordinatingDiscoveryServer(boolean v) { isCoordinatingDiscoveryServer = v; return this; }
        public Builder lastUpdatedTimestamp(long v) { lastUpdatedTimestamp = v; return this; }
        public Builder lastDirtyTimestamp(long v) { lastDirtyTimestamp = v; return this; }
        public Builder actionType(ActionType v) { actionType = v; return this; }
        public Builder asgName(String v) { asgName = v; return this; }

        public InstanceInfo build() {
            return new InstanceInfo(instanceId, hostName, app, ipAddr, sid, status, overriddenStatus, port, securePort,
                    countryId, dataCenterInfo, leaseInfo, metadata, appGroupName, homePageUrl, statusPageUrl,
                    healthCheckUrl, secureHealthCheckUrl, vipAddress, secureVipAddress, isCoordinatingDiscoveryServer,
                    lastUpdatedTimestamp, lastDirtyTimestamp, actionType, asgName);
        }
    }
}
