package io.muster.jmx;

import io.muster.replication.PeerCheck;
import io.muster.replication.PeerNode;

import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One peer, found by its URL in the current list at each read: the list is swapped on every peer refresh, and a
 * peer that left reads as {@code gone} until its bean is unregistered.
 */
final class PeerBean implements PeerMXBean {
    private static final PeerCheck.Report UNCHECKED = new PeerCheck.Report(null, 0, 0, 0, "not checked yet", null,
            List.of());
    private final String url;
    private final Supplier<List<PeerNode.Status>> peers;

    PeerBean(String url, Supplier<List<PeerNode.Status>> peers) {
        this.url = url;
        this.peers = peers;
    }

    private PeerNode.Status now() {
        for (PeerNode.Status s : peers.get()) {
            if (s.url().equals(url)) {
                return s;
            }
        }
        return null;
    }

    /** The figure from the peer's current state, or {@code gone} when it is no longer a peer. */
    private <T> T read(Function<PeerNode.Status, T> figure, T gone) {
        PeerNode.Status s = now();
        return s == null ? gone : figure.apply(s);
    }

    private PeerCheck.Report check() {
        PeerCheck.Report r = read(PeerNode.Status::check, null);
        return r == null ? UNCHECKED : r;
    }

    private static double seconds(double lag) {
        return Double.isNaN(lag) ? -1 : lag;
    }

    @Override
    public String getUrl() {
        return url;
    }

    @Override
    public String getState() {
        PeerNode.Status s = now();
        if (s == null) {
            return "gone";
        }
        if (s.refusal() != null) {
            return "refusing: " + s.refusal().problem();
        }
        if (!s.reachable()) {
            return "unreachable";
        }
        return s.lastSuccess() == null ? "not contacted yet" : "ok";
    }

    @Override
    public boolean isReachable() {
        return read(PeerNode.Status::reachable, false);
    }

    @Override
    public int getQueueDepth() {
        return read(PeerNode.Status::queueDepth, 0);
    }

    @Override
    public double getLagP50Seconds() {
        return seconds(read(PeerNode.Status::lagP50Seconds, Double.NaN));
    }

    @Override
    public double getLagP99Seconds() {
        return seconds(read(PeerNode.Status::lagP99Seconds, Double.NaN));
    }

    @Override
    public String getLastSuccess() {
        return text(read(PeerNode.Status::lastSuccess, null));
    }

    @Override
    public String getLastError() {
        return read(PeerNode.Status::lastError, null);
    }

    @Override
    public long getSent() {
        return read(PeerNode.Status::sent, 0L);
    }

    @Override
    public long getFailedBatches() {
        return read(PeerNode.Status::failedBatches, 0L);
    }

    @Override
    public long getDropped() {
        return read(PeerNode.Status::dropped, 0L);
    }

    @Override
    public long getExpired() {
        return read(PeerNode.Status::expired, 0L);
    }

    @Override
    public String getSyncState() {
        return check().summary();
    }

    @Override
    public int getDifferences() {
        return check().differences();
    }

    @Override
    public long getLongestDifferenceSeconds() {
        return check().longestSeconds();
    }

    @Override
    public long getRepairs() {
        return check().repairs();
    }

    @Override
    public String getCheckedAt() {
        return text(check().checkedAt());
    }

    @Override
    public String getCheckNote() {
        return check().note();
    }

    static String text(Instant at) {
        return at == null ? null : at.toString();
    }
}
