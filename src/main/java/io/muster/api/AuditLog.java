package io.muster.api;

import io.muster.audit.Actor;
import io.muster.audit.AuditAction;
import io.muster.audit.AuditTrail;
import io.muster.model.InstanceStatus;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The audit trail for callers that hold no {@link Api}: an operator's action from the JMX console is recorded in
 * the trail of the server running in this class loader. Code that has the request uses {@link Api#audit()}, which
 * also records where the request came from.
 *
 * <p>Static state and live redeploys: a server attaches its trail at start and detaches it at stop, so nothing
 * outlives an undeploy. Each deployed WAR has a class loader, hence statics, of its own; should two servers run in
 * one class loader (tests), the statics cannot tell whose action it is, and only write the log line.
 */
public final class AuditLog {
    private static final List<AuditTrail> ATTACHED = new CopyOnWriteArrayList<>();
    private static final AuditTrail LOG_ONLY = AuditTrail.logOnly();

    private AuditLog() {
    }

    /** Called by the server at start. */
    public static void attach(AuditTrail trail) {
        ATTACHED.add(trail);
    }

    /** Called by the server at stop. */
    public static void detach(AuditTrail trail) {
        ATTACHED.remove(trail);
    }

    public static void overrideSet(String by, String app, String id, InstanceStatus status) {
        trail().record(AuditAction.OVERRIDE_SET, Actor.named(by), InstanceWrites.appName(app), id, status.name(), 200);
    }

    public static void overrideRemoved(String by, String app, String id) {
        trail().record(AuditAction.OVERRIDE_REMOVED, Actor.named(by), InstanceWrites.appName(app), id, null, 200);
    }

    public static void deregistered(String by, String app, String id) {
        trail().record(AuditAction.DEREGISTERED, Actor.named(by), InstanceWrites.appName(app), id, null, 200);
    }

    /** An operator's action on the server rather than on an instance: {@code operation} says which. */
    public static void operation(String by, String operation) {
        trail().record(AuditAction.OPERATION, Actor.named(by), null, null, operation, 200);
    }

    /** A write refused for want of a right: the first in a minute per caller and application is recorded. */
    public static void refused(String by, String app, String reason) {
        trail().refused(Actor.named(by), app, reason);
    }

    private static AuditTrail trail() {
        List<AuditTrail> now = List.copyOf(ATTACHED);
        return now.size() == 1 ? now.get(0) : LOG_ONLY;
    }
}
