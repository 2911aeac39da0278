package io.muster.jmx;

import io.muster.replication.PeerCheck;
import io.muster.replication.PeerNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.stream.Stream;

/** Thread safety: reads the peers' check reports, which any thread may read; runs a check on the peer lane only. */
final class ClusterCheckBean implements ClusterCheckMXBean {
    private static final Duration RUN_WAIT = Duration.ofMinutes(2);
    private final Parts.Check check;
    private final Supplier<List<PeerNode.Status>> peers;

    ClusterCheckBean(Parts.Check check, Supplier<List<PeerNode.Status>> peers) {
        this.check = check;
        this.peers = peers;
    }

    private Stream<PeerCheck.Report> reports() {
        return peers.get().stream().map(PeerNode.Status::check).filter(Objects::nonNull);
    }

    @Override
    public boolean isEnabled() {
        return check.enabled() && check.peersConfigured();
    }

    @Override
    public long getIntervalSeconds() {
        return check.interval().toSeconds();
    }

    @Override
    public int getPeers() {
        return peers.get().size();
    }

    @Override
    public int getPeersInSync() {
        return (int) reports().filter(r -> r.checkedAt() != null && r.differences() == 0).count();
    }

    @Override
    public int getDifferences() {
        return reports().mapToInt(PeerCheck.Report::differences).sum();
    }

    @Override
    public long getLongestDifferenceSeconds() {
        return reports().mapToLong(PeerCheck.Report::longestSeconds).max().orElse(0);
    }

    @Override
    public long getRepairs() {
        return reports().mapToLong(PeerCheck.Report::repairs).sum();
    }

    @Override
    public String getLastCheckedAt() {
        return PeerBean.text(reports().map(PeerCheck.Report::checkedAt).filter(Objects::nonNull)
                .max(Instant::compareTo).orElse(null));
    }

    @Override
    public List<String> getSummaries() {
        return peers.get().stream().map(ClusterCheckBean::summary).toList();
    }

    private static String summary(PeerNode.Status p) {
        PeerCheck.Report r = p.check();
        return p.url() + ": " + (r == null ? "not checked yet" : r.summary() + (r.note() == null ? ""
                : " (" + r.note() + ")"));
    }

    @Override
    public String runNow() {
        if (!check.peersConfigured()) {
            return "no peers to check: this node has no peers configured";
        }
        if (!check.enabled()) {
            return "the cluster check is off (eureka.server.clusterCheck.enabled=false): not run";
        }
        String by = JmxCaller.operator();   // the caller's subject is on this thread, not on the lane's
        return check.lane().call("cluster-check-now", () -> {
            check.run().run();
            io.muster.api.AuditLog.operation(by, "ran the cluster check now");
            List<String> each = getSummaries();
            return each.isEmpty() ? "no peers to check yet (the peer list is empty)"
                    : "checked " + each.size() + (each.size() == 1 ? " peer: " : " peers: ")
                    + String.join("; ", each);
        }, RUN_WAIT);
    }
}
