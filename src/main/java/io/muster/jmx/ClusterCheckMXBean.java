package io.muster.jmx;

import java.util.List;

/** The periodic comparison of this node's registry with each peer's. */
@Description("The cluster check: this node's registry compared with each peer's (digests, then the differing"
        + " applications), differences repaired once they outlast the grace period")
public interface ClusterCheckMXBean {
    @Description("Whether the check runs (eureka.server.clusterCheck.enabled, and peers configured)")
    boolean isEnabled();

    @Description("Seconds between checks (eureka.server.clusterCheck.intervalMs)")
    long getIntervalSeconds();

    @Description("Peers compared")
    int getPeers();

    @Description("Peers found in sync at their last check")
    int getPeersInSync();

    @Description("Differences at the last check, all peers together")
    int getDifferences();

    @Description("How long the oldest difference with any peer has lasted, in seconds")
    long getLongestDifferenceSeconds();

    @Description("Differences repaired since start, all peers together")
    long getRepairs();

    @Description("When a peer was last compared (ISO-8601), or null")
    String getLastCheckedAt();

    @Description("Each peer's verdict: url: in sync, or how many differ for how long")
    List<String> getSummaries();

    @Description("Runs one check of every peer now, on the server's peer lane (waits up to two minutes), and"
            + " answers each peer's verdict")
    String runNow();
}
