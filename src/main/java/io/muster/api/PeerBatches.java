package io.muster.api;

import io.muster.codec.ReplicationBatchCodec;
import io.muster.codec.WireFormat;
import io.muster.codec.WireFormatException;
import io.muster.model.InstanceStatus;
import io.muster.model.ReplicationItem;
import io.muster.model.ReplicationResult;
import io.muster.registry.Origin;
import io.muster.registry.RegistryFullException;

import java.io.InputStream;
import java.time.Clock;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code POST /peerreplication/batch}: writes a peer replicated, in Eureka's batch format, applied item by item
 * with {@link Origin#PEER} (so nothing is replicated further) through the same rules as a client's request, and
 * answered with one status per item, in order. A bad item gets its 4xx and the rest still apply.
 */
public final class PeerBatches {
    private static final Logger LOG = Logger.getLogger(PeerBatches.class.getName());

    private final InstanceWrites writes;
    private final Clock clock;

    public PeerBatches(InstanceWrites writes, Clock clock) {
        this.writes = writes;
        this.clock = clock;
    }

    public Reply apply(InputStream body, String contentType, String contentEncoding) {
        if (RequestBodies.format(contentType) != WireFormat.JSON) {
            throw Problem.of(415, "replication batches are JSON");
        }
        byte[] bytes = RequestBodies.read(body, contentEncoding, BodyLimits.PEER_BATCH_BYTES);
        List<ReplicationItem> items;
        try {
            items = ReplicationBatchCodec.decodeRequest(bytes, clock.millis());
        } catch (WireFormatException e) {
            throw Problem.badRequest(e.getMessage());
        }
        return Reply.ok("application/json", ReplicationBatchCodec.encodeResponse(apply(items)));
    }

    public List<ReplicationResult> apply(List<ReplicationItem> items) {
        List<ReplicationResult> results = new ArrayList<>(items.size());
        for (ReplicationItem item : items) {
            try {
                results.add(applyOne(item).toReplication());
            } catch (RuntimeException e) {
                Reply failure = Failures.toReply(e);
                // a refusal at the cap is counted in /metrics; a stack trace per item would flood the log
                if (failure.status() >= 500 && !(e instanceof Problem) && !(e instanceof RegistryFullException)) {
                    LOG.log(Level.WARNING, "Muster: replicated " + item.action() + " of " + item.appName() + "/"
                            + item.id() + " failed", e);
                }
                results.add(ReplicationResult.of(failure.status()));
            }
        }
        return results;
    }

    private WriteResult applyOne(ReplicationItem item) {
        if (item.action() == null || isBlank(item.appName()) || isBlank(item.id())) {
            throw Problem.badRequest("a batch item needs an action Eureka knows (Register, Heartbeat, Cancel, "
                    + "StatusUpdate, DeleteStatusOverride), an appName and an id");
        }
        String app = item.appName();
        String id = item.id();
        return switch (item.action()) {
            case REGISTER -> {
                if (item.instanceInfo() == null) {
                    throw Problem.badRequest("a Register item needs its instance");
                }
                if (!id.equals(item.instanceInfo().id())) {
                    throw Problem.badRequest("the item's id " + id + " is not its instance's id");
                }
                yield writes.register(InstanceWrites.appName(app), item.instanceInfo(), Origin.PEER);
            }
            case HEARTBEAT -> writes.renew(app, id, item.lastDirtyTimestamp(),
                    item.overriddenStatus() == null ? null : InstanceStatus.parseOrUnknown(item.overriddenStatus()),
                    Origin.PEER);
            case CANCEL -> writes.cancelledByPeer(app, id, item.lastDirtyTimestamp());
            case STATUS_UPDATE -> writes.statusUpdate(app, id, status(item.status()),
                    item.lastDirtyTimestamp(), Origin.PEER);
            case DELETE_STATUS_OVERRIDE -> writes.deleteStatusOverride(app, id,
                    item.status() == null ? InstanceStatus.UNKNOWN : status(item.status()),
                    item.lastDirtyTimestamp(), Origin.PEER);
        };
    }

    private static InstanceStatus status(String value) {
        Optional<InstanceStatus> status = value == null ? Optional.empty() : InstanceStatus.parse(value);
        return status.orElseThrow(() -> Problem.badRequest("unknown status " + value));
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
