package io.muster.audit;

import java.time.Instant;

/**
 * One entry of the trail. {@code sequence} orders entries as they were appended (from 1, per trail); {@code at} is
 * when the request was answered. {@code app} and {@code instance} are null when the action names none;
 * {@code value} is the status set, the operation run or the reason of a refusal. {@code status} is the HTTP
 * status the caller got (200 for an MBean operation that succeeded).
 */
public record AuditEntry(long sequence, Instant at, AuditAction action, Actor actor, String app, String instance,
                         String value, int status) {

    public AuditEntry {
        app = Actor.bounded(app);
        instance = Actor.bounded(instance);
        value = Actor.bounded(value);
    }

    /** {@code ok}, {@code refused} (401, 403) or {@code failed}, for readers who do not speak HTTP. */
    public String result() {
        if (status >= 200 && status < 300) {
            return "ok";
        }
        return status == 401 || status == 403 ? "refused" : "failed";
    }

    AuditEntry numbered(long n) {
        return new AuditEntry(n, at, action, actor, app, instance, value, status);
    }

    /** The line on {@code io.muster.audit}: {@code audit: operator admin deregistered SHOP/shop-1 from ...: ok}. */
    String line() {
        if (action == AuditAction.REFUSED) {   // the words operators' log filters already look for
            return "audit: refused a write by " + actor.who() + " to " + app + ": " + value + actor.from()
                    + " (further refusals of this caller for this application are not logged for "
                    + QuietRefusals.QUIET.toSeconds() + " s; muster_rejected_writes_total{reason=\"not_owner\"}"
                    + " counts them)";
        }
        StringBuilder b = new StringBuilder("audit: ").append(actor.who()).append(' ').append(action.verb());
        if (app != null) {
            b.append(' ').append(app);
        }
        if (instance != null) {
            b.append('/').append(instance);
        }
        if (action == AuditAction.OVERRIDE_SET) {
            b.append(" to ").append(value);
        } else if (value != null && action != AuditAction.OVERRIDE_REMOVED) {
            b.append(": ").append(value);
        }
        return b.append(actor.from()).append(" -> ").append(status).append(' ').append(result()).toString();
    }
}
