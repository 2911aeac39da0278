package io.muster.replication;

import io.muster.model.InstanceStatus;
import io.muster.model.ReplicationItem;
import io.muster.model.ReplicationResult;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.InvalidInstanceException;
import io.muster.registry.Origin;
import io.muster.registry.RegistryFullException;
import io.muster.registry.RenewOutcome;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Applies a batch a peer sent, item by item with {@link Origin#PEER} (so nothing is replicated further), and
 * answers one status per item in order. A bad item gets a 4xx and the rest still apply: an instance the registry's
 * rules refuse gets 400, one refused because the registry is full gets 503 (the peer may retry later).
 */
public final class InboundBatch {
    private static final Logger LOG = Logger.getLogger(InboundBatch.class.getName());
    private final InstanceRegistry registry;

    public InboundBatch(InstanceRegistry registry) {
        this.registry = registry;
    }

    public List<ReplicationResult> apply(List<ReplicationItem> items) {
        List<ReplicationResult> results = new ArrayList<>(items.size());
        for (ReplicationItem item : items) {
            try {
                results.add(applyOne(item));
            } catch (InvalidInstanceException e) {
                LOG.fine(() -> "Muster: replicated " + item.action() + " refused: " + e.getMessage());
                results.add(ReplicationResult.of(400));
            } catch (RegistryFullException e) {
                LOG.fine(() -> "Muster: replicated " + item.action() + " refused: " + e.getMessage());
                results.add(ReplicationResult.of(503));
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Muster: replicated " + item.action() + " of " + item.appName() + "/"
                        + item.id() + " failed", e);
                results.add(ReplicationResult.of(500));
            }
        }
        return results;
    }

    private ReplicationResult applyOne(ReplicationItem item) {
        if (item.action() == null || isBlank(item.appName()) || isBlank(item.id())) {
            return ReplicationResult.of(400);
        }
        String app = item.appName().toUpperCase(Locale.ROOT);
        return switch (item.action()) {
            case ReplicationItem.REGISTER -> {
                // the item's id is the key the peer uses for later heartbeats and cancels: it must be the instance's
                if (item.instanceInfo() == null || !app.equals(item.instanceInfo().app())
                        || !item.id().equals(item.instanceInfo().id())) {
                    yield ReplicationResult.of(400);
                }
                registry.register(item.instanceInfo(), Origin.PEER);
                yield ReplicationResult.of(200);
            }
            case ReplicationItem.HEARTBEAT -> {
                InstanceStatus override = item.overriddenStatus() == null ? null
                        : InstanceStatus.parseOrUnknown(item.overriddenStatus());
                RenewOutcome outcome = registry.renew(app, item.id(), item.lastDirtyTimestamp(), override,
                        Origin.PEER);
                yield switch (outcome.result()) {
                    case OK -> ReplicationResult.of(200);
                    case NOT_FOUND -> ReplicationResult.of(404);
                    case CONFLICT -> new ReplicationResult(409, outcome.newerInstance());
                };
            }
            case ReplicationItem.CANCEL -> ReplicationResult.of(registry.cancel(app, item.id(), Origin.PEER) ? 200 : 404);
            case ReplicationItem.STATUS_UPDATE -> {
                Optional<InstanceStatus> status = InstanceStatus.parse(item.status());
                if (status.isEmpty()) {
                    yield ReplicationResult.of(400);
                }
                yield ReplicationResult.of(registry.statusUpdate(app, item.id(), status.get(),
                        item.lastDirtyTimestamp(), Origin.PEER) ? 200 : 404);
            }
            case ReplicationItem.DELETE_STATUS_OVERRIDE -> {
                InstanceStatus status = item.status() == null ? InstanceStatus.UNKNOWN
                        : InstanceStatus.parse(item.status()).orElse(null);
                if (status == null) {
                    yield ReplicationResult.of(400);
                }
                yield ReplicationResult.of(registry.deleteStatusOverride(app, item.id(), status,
                        item.lastDirtyTimestamp(), Origin.PEER) ? 200 : 404);
            }
            default -> ReplicationResult.of(400);
        };
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
