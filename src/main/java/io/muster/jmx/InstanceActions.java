package io.muster.jmx;

import io.muster.api.AuditLog;
import io.muster.api.InstanceWrites;
import io.muster.api.Reply;
import io.muster.model.InstanceStatus;
import io.muster.registry.Origin;

import java.util.Locale;

/**
 * An operator's actions on one instance, made as the dashboard makes them: as a client's write (so peers get
 * them), with the same audit lines, and answered in one line that says what happened.
 */
final class InstanceActions {
    private final InstanceWrites writes;

    InstanceActions(InstanceWrites writes) {
        this.writes = writes;
    }

    String takeOutOfService(String app, String id, String by) {
        String where = where(app, id);
        Reply r = writes.statusUpdate(app, id, InstanceStatus.OUT_OF_SERVICE.name(), null, Origin.CLIENT, by);
        return r.status() == 200 ? "OUT_OF_SERVICE set on " + where : "no instance " + where;
    }

    /** As on the dashboard: UNKNOWN until the instance's next heartbeat, answered 404, makes it register again. */
    String removeOverride(String app, String id, String by) {
        String where = where(app, id);
        Reply r = writes.deleteStatusOverride(app, id, InstanceStatus.UNKNOWN.name(), null, Origin.CLIENT, by);
        return r.status() == 200 ? "override removed from " + where + ": UNKNOWN until it registers again"
                : "no instance " + where;
    }

    String deregister(String app, String id, String by) {
        String where = where(app, id);
        Reply r = writes.cancel(app, id, Origin.CLIENT);
        if (r.status() != 200) {
            return "no instance " + where;
        }
        AuditLog.deregistered(by, app.toUpperCase(Locale.ROOT), id);
        return where + " deregistered";
    }

    /** {@code ORDERS/o-1}, after refusing what no instance can be called. */
    private static String where(String app, String id) {
        return required(app, "app", "the application name, e.g. ORDERS").toUpperCase(Locale.ROOT) + "/"
                + required(id, "id", "the instance id, e.g. o-1");
    }

    private static String required(String value, String name, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " is required: " + what);
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException(name + " must not contain control characters");
        }
        if (!value.strip().equals(value)) {
            throw new IllegalArgumentException(name + " must not start or end with spaces: \"" + value + "\"");
        }
        return value;
    }
}
