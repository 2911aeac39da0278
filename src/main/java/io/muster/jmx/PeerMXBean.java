package io.muster.jmx;

/** One peer this node replicates to. */
@Description("One peer of this node: whether replication to it works, how far behind it is, and whether the"
        + " cluster check finds it in sync")
public interface PeerMXBean {
    @Description("The peer's service URL (without credentials)")
    String getUrl();

    @Description("ok, unreachable, refusing (credentials or role; the reason follows), not contacted yet, or"
            + " gone (no longer a peer)")
    String getState();

    @Description("Whether the peer answered the last attempt")
    boolean isReachable();

    @Description("Replication tasks waiting to be sent to it")
    int getQueueDepth();

    @Description("Replication lag, median of recent batches, in seconds; -1 before the first batch")
    double getLagP50Seconds();

    @Description("Replication lag, 99th percentile of recent batches, in seconds; -1 before the first batch")
    double getLagP99Seconds();

    @Description("When a batch last succeeded (ISO-8601), or null")
    String getLastSuccess();

    @Description("The last error, or null")
    String getLastError();

    @Description("Tasks sent since start")
    long getSent();

    @Description("Batches that failed since start")
    long getFailedBatches();

    @Description("Tasks dropped (queue full or the peer refusing) since start")
    long getDropped();

    @Description("Tasks that expired in the queue since start")
    long getExpired();

    @Description("The cluster check's verdict: in sync, N instances differ for S s, or not checked yet")
    String getSyncState();

    @Description("Instances that differ from this node at the last check")
    int getDifferences();

    @Description("How long the oldest difference has lasted, in seconds")
    long getLongestDifferenceSeconds();

    @Description("Differences repaired since start")
    long getRepairs();

    @Description("When the cluster check last compared (ISO-8601), or null")
    String getCheckedAt();

    @Description("Why the last check could not compare, or null")
    String getCheckNote();
}
