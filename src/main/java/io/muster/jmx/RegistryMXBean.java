package io.muster.jmx;

import java.util.Map;

/** The registry of this deployment, and an operator's actions on its instances. */
@Description("Muster's registry: instances, renewals against the threshold, self-preservation and why, refused"
        + " writes; and an operator's actions on one instance, made as the dashboard's (replicated to the peers,"
        + " audited on the logger io.muster.audit)")
public interface RegistryMXBean {
    @Description("Instances registered here (all statuses)")
    int getInstances();

    @Description("Applications with at least one instance")
    int getApplications();

    @Description("Instances by status (up, down, starting, outOfService, unknown); counted over every lease at"
            + " each read")
    StatusCounts getInstancesByStatus();

    @Description("Renewals in the last whole minute, as self-preservation counts them")
    long getRenewalsLastMinute();

    @Description("Renewals per minute at or below which self-preservation keeps lapsed leases")
    int getRenewalThreshold();

    @Description("Clients expected to renew (the threshold is a share of their renewals)")
    int getExpectedClients();

    @Description("Whether self-preservation is enabled (eureka.server.enableSelfPreservation)")
    boolean isSelfPreservationEnabled();

    @Description("What self-preservation does now: OFF, EXPIRING, MEASURING, NOTHING_EXPECTED or PRESERVING")
    String getSelfPreservationMode();

    @Description("Why, in the words of the server log and the dashboard")
    String getSelfPreservationReason();

    @Description("True only in Eureka's emergency (mode PRESERVING: renewals at or below the threshold)")
    boolean isSelfPreservationActive();

    @Description("Whether lapsed leases are kept now, for whatever reason (not only the emergency)")
    boolean isLapsedLeasesKept();

    @Description("Whether this node accepts traffic (after its start-up sync)")
    boolean isOpenForTraffic();

    @Description("Whether registry reads are answered (false while the start-up sync holds them)")
    boolean isReadsAllowed();

    @Description("Until when reads are held (ISO-8601), or null")
    String getReadsHeldUntil();

    @Description("Leases evicted since start")
    long getEvictedTotal();

    @Description("Status overrides in force")
    int getStatusOverrides();

    @Description("Writes refused since start, by reason (as muster_rejected_writes_total)")
    Map<String, Long> getRejectedWrites();

    @Description("Writes refused since start, all reasons")
    long getRejectedWritesTotal();

    @Description(value = "Takes the instance out of service (the dashboard's 'out of service'): clients stop"
            + " getting it; replicated to the peers, audited. Answers what happened in one line",
            params = {"app", "id"})
    String takeOutOfService(String app, String id);

    @Description(value = "Removes the instance's status override (the dashboard's 'remove override'): UNKNOWN"
            + " until its next heartbeat makes it register again with its own status; replicated, audited",
            params = {"app", "id"})
    String removeOverride(String app, String id);

    @Description(value = "Deregisters the instance (the dashboard's 'deregister'); replicated, audited. A live"
            + " instance registers again at its next heartbeat", params = {"app", "id"})
    String deregister(String app, String id);

    @Description("Writes the registry snapshot now, on the server's file lane (waits up to a minute)")
    String writeSnapshotNow();
}
