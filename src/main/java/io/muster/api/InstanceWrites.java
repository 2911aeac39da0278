package io.muster.api;

import io.muster.audit.Actor;
import io.muster.audit.AuditAction;
import io.muster.audit.AuditTrail;
import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormatException;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.registry.DirtyTimestamps;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.registry.RegistryFullException;
import io.muster.registry.RenewOutcome;

import java.io.InputStream;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;

/**
 * The rules of every write to one instance (register, heartbeat, cancel, status override, metadata), once for all
 * roads: the servlet fast paths, the JAX-RS resources and a peer's replication batch. Refusals are thrown as
 * {@link Problem}s before the registry is touched. Status overrides and cancellations asked for by a client or an
 * operator (not a peer's replicated ones) go to the audit trail with their result.
 */
public final class InstanceWrites {
    static final String BAD_TIMESTAMP = "lastDirtyTimestamp must be a number of milliseconds";

    /** Asks the peers whether one holds an instance (app, id); see {@link #register(String, InstanceInfo, Origin)}. */
    @FunctionalInterface
    public interface PeerLookup {
        PeerLookup NONE = (app, id) -> false;

        boolean anyPeerHolds(String app, String id);
    }

    private final InstanceRegistry registry;
    private final Clock clock;
    private final PeerLookup peers;
    private final AuditTrail audit;

    public InstanceWrites(InstanceRegistry registry, Clock clock) {
        this(registry, clock, PeerLookup.NONE);
    }

    public InstanceWrites(InstanceRegistry registry, Clock clock, PeerLookup peers) {
        this(registry, clock, peers, AuditTrail.logOnly());
    }

    public InstanceWrites(InstanceRegistry registry, Clock clock, PeerLookup peers, AuditTrail audit) {
        this.registry = registry;
        this.clock = clock;
        this.peers = peers;
        this.audit = audit;
    }

    /** Registers an instance: 204 as Eureka answers (Java clients count nothing else as success). */
    public Reply register(String app, InputStream body, String contentType, String contentEncoding,
                          Origin origin) {
        return register(app, body, -1, contentType, contentEncoding, origin, null);
    }

    /**
     * {@link #register(String, InputStream, String, String, Origin)} from a client at address {@code client}, of a
     * body whose Content-Length is {@code contentLength} (-1 when not given).
     */
    public Reply register(String app, InputStream body, long contentLength, String contentType,
                          String contentEncoding, Origin origin, String client) {
        var format = RequestBodies.format(contentType);
        byte[] bytes = RequestBodies.read(body, contentEncoding, RequestBodies.MAX_BYTES, contentLength);
        InstanceInfo info;
        try {
            info = EurekaCodec.decodeInstance(format, bytes, clock.millis());
        } catch (WireFormatException e) {
            throw Problem.badRequest(e.getMessage());
        }
        return register(appName(app), info, origin, client).toReply(null);
    }

    /**
     * The one check that needs the URL; everything else (required fields, values clients can decode, limits) is
     * the registry's, which refuses before anything changes. A client's registration refused at an instance cap is
     * taken after all when a peer holds the instance: a client that fails over (or re-registers after a 404) to a
     * node that missed its copy is not a new instance, and must not be turned away while the cluster holds it.
     */
    WriteResult register(String appName, InstanceInfo info, Origin origin) {
        return register(appName, info, origin, null);
    }

    /** @param client the address of the client that sent it, whose share of the heap it counts against */
    WriteResult register(String appName, InstanceInfo info, Origin origin, String client) {
        if (!isBlank(info.app()) && !appName.equals(info.app())) {
            throw Problem.badRequest("Mismatched appName, expecting " + appName + " but was " + info.app());
        }
        try {
            if (origin == Origin.CLIENT && client != null) {
                registry.register(info, client);
            } else {
                registry.register(info, origin);
            }
        } catch (RegistryFullException e) {
            if (origin == Origin.PEER || !e.reason().countsInstances() || !peers.anyPeerHolds(appName, info.id())) {
                throw e;
            }
            registry.registerHeldByPeer(info, e.reason(), client);
        }
        return WriteResult.REGISTERED;
    }

    /**
     * A heartbeat: 200 or an empty 404 (the client registers again); a peer may get 409 with this node's newer
     * copy. The {@code status} parameter clients send is ignored, as in Eureka: status changes come by
     * re-registration.
     */
    public Reply renew(String app, String id, String lastDirtyTimestamp, String overriddenStatus, Origin origin,
                       String accept) {
        InstanceStatus override = overriddenStatus == null ? null : InstanceStatus.parseOrUnknown(overriddenStatus);
        return renew(app, id, timestamp(lastDirtyTimestamp), override, origin).toReply(accept);
    }

    WriteResult renew(String app, String id, Long lastDirtyTimestamp, InstanceStatus override, Origin origin) {
        orderable(lastDirtyTimestamp);
        RenewOutcome outcome = registry.renew(appName(app), id, lastDirtyTimestamp, override, origin);
        return switch (outcome.result()) {
            case OK -> WriteResult.OK;
            case NOT_FOUND -> WriteResult.NOT_FOUND;
            case CONFLICT -> new WriteResult(409, outcome.newerInstance());
        };
    }

    /** A cancel the caller audits itself, if at all. */
    public Reply cancel(String app, String id, Origin origin) {
        return cancelled(app, id, origin).toReply(null);
    }

    /** A cancel, audited as a deregistration by {@code by} unless a peer replicated it. */
    public Reply cancel(String app, String id, Origin origin, Actor by) {
        WriteResult r = cancelled(app, id, origin);
        audit(AuditAction.DEREGISTERED, origin, by, app, id, null, r.status());
        return r.toReply(null);
    }

    WriteResult cancelled(String app, String id, Origin origin) {
        return WriteResult.found(registry.cancel(appName(app), id, origin));
    }

    /** A replicated cancel, with the version the peer cancelled when it sent one (see {@link InstanceRegistry}). */
    WriteResult cancelledByPeer(String app, String id, Long lastDirtyTimestamp) {
        return WriteResult.found(registry.cancelReplicated(appName(app), id, lastDirtyTimestamp));
    }

    /** Departure from Eureka: a missing or unknown status value is a 400 here (Eureka answers 500). */
    public Reply statusUpdate(String app, String id, String value, String lastDirtyTimestamp, Origin origin) {
        return statusUpdate(app, id, value, lastDirtyTimestamp, origin, (Actor) null);
    }

    /** @param setBy who asks, as the dashboard and the audit log name them; null for "a client" */
    public Reply statusUpdate(String app, String id, String value, String lastDirtyTimestamp, Origin origin,
                              String setBy) {
        return statusUpdate(app, id, value, lastDirtyTimestamp, origin, setBy == null ? null : Actor.named(setBy));
    }

    /** @param by who asks and from where; null for "a client" */
    public Reply statusUpdate(String app, String id, String value, String lastDirtyTimestamp, Origin origin,
                              Actor by) {
        if (value == null) {
            throw Problem.badRequest("Missing status value (?value=UP|DOWN|STARTING|OUT_OF_SERVICE|UNKNOWN)");
        }
        return statusUpdate(app, id, status(value), timestamp(lastDirtyTimestamp), origin, by).toReply(null);
    }

    WriteResult statusUpdate(String app, String id, InstanceStatus status, Long lastDirtyTimestamp, Origin origin) {
        return statusUpdate(app, id, status, lastDirtyTimestamp, origin, (Actor) null);
    }

    private WriteResult statusUpdate(String app, String id, InstanceStatus status, Long lastDirtyTimestamp,
                                     Origin origin, Actor by) {
        orderable(lastDirtyTimestamp);
        boolean found = by == null || origin == Origin.PEER
                ? registry.statusUpdate(appName(app), id, status, lastDirtyTimestamp, origin)
                : registry.statusUpdate(appName(app), id, status, lastDirtyTimestamp, origin, by.who());
        WriteResult r = WriteResult.found(found);
        audit(AuditAction.OVERRIDE_SET, origin, by, app, id, status.name(), r.status());
        return r;
    }

    public Reply deleteStatusOverride(String app, String id, String value, String lastDirtyTimestamp,
                                      Origin origin) {
        InstanceStatus status = value == null ? InstanceStatus.UNKNOWN : status(value);
        return deleteStatusOverride(app, id, status, timestamp(lastDirtyTimestamp), origin).toReply(null);
    }

    /** @param by who asks, for the audit log; null for "a client" */
    public Reply deleteStatusOverride(String app, String id, String value, String lastDirtyTimestamp,
                                      Origin origin, String by) {
        return deleteStatusOverride(app, id, value, lastDirtyTimestamp, origin, by == null ? null : Actor.named(by));
    }

    /** @param by who asks and from where, for the audit log; null for "a client" */
    public Reply deleteStatusOverride(String app, String id, String value, String lastDirtyTimestamp,
                                      Origin origin, Actor by) {
        InstanceStatus status = value == null ? InstanceStatus.UNKNOWN : status(value);
        WriteResult r = deleteStatusOverride(app, id, status, timestamp(lastDirtyTimestamp), origin);
        audit(AuditAction.OVERRIDE_REMOVED, origin, by, app, id, null, r.status());
        return r.toReply(null);
    }

    WriteResult deleteStatusOverride(String app, String id, InstanceStatus status, Long lastDirtyTimestamp,
                                     Origin origin) {
        orderable(lastDirtyTimestamp);
        return WriteResult.found(registry.deleteStatusOverride(appName(app), id, status, lastDirtyTimestamp,
                origin));
    }

    public Reply updateMetadata(String app, String id, Map<String, String> metadata) {
        return WriteResult.found(registry.updateMetadata(appName(app), id, metadata).isPresent()).toReply(null);
    }

    /** A peer's replicated write was audited where it was asked for. */
    private void audit(AuditAction action, Origin origin, Actor by, String app, String id, String value,
                       int status) {
        if (origin != Origin.PEER) {
            audit.record(action, by == null ? Actor.named("a client") : by, appName(app), id, value, status);
        }
    }

    /** App names are case-insensitive: Eureka upper-cases the one in the URL. */
    static String appName(String app) {
        return app.toUpperCase(Locale.ROOT);
    }

    static InstanceStatus status(String value) {
        return InstanceStatus.parse(value)
                .orElseThrow(() -> Problem.badRequest("Unknown status value: " + abbreviate(value)
                        + " (expected UP, DOWN, STARTING, OUT_OF_SERVICE or UNKNOWN)"));
    }

    static Long timestamp(String value) {
        try {
            return value == null || value.isEmpty() ? null : Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw Problem.badRequest(BAD_TIMESTAMP);
        }
    }

    /** A stamp the registry could not order against its own, on any road (a peer's batch items too). */
    private void orderable(Long lastDirtyTimestamp) {
        if (lastDirtyTimestamp != null && !DirtyTimestamps.orderable(lastDirtyTimestamp, clock.millis())) {
            throw Problem.badRequest(DirtyTimestamps.refusal("lastDirtyTimestamp", lastDirtyTimestamp));
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
