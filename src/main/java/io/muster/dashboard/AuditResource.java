package io.muster.dashboard;

import io.muster.api.Api;
import io.muster.api.Problem;
import io.muster.audit.Actor;
import io.muster.audit.AuditEntry;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code GET /api/audit?app=&instance=&since=&limit=}, for {@code eureka-admin} users (the front door checks the
 * role): the audit trail, newest first, at most {@value #MAX_LIMIT} entries an answer. {@code since} is an ISO-8601
 * instant or epoch milliseconds; {@code app} matches in any case, as app names do.
 */
@Path("api/audit")
@Produces(MediaType.APPLICATION_JSON)
public final class AuditResource {
    static final int DEFAULT_LIMIT = 200;
    static final int MAX_LIMIT = 1_000;
    private final Api api;

    public AuditResource(Api api) {
        this.api = api;
    }

    @GET
    public Map<String, Object> entries(@QueryParam("app") String app, @QueryParam("instance") String instance,
                                       @QueryParam("since") String since, @QueryParam("limit") String limit) {
        int n = Math.min(limit(limit), MAX_LIMIT);
        List<AuditEntry> found = api.audit().query(blankToNull(app), blankToNull(instance), since(since), n);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("entries", found.stream().map(AuditResource::json).toList());
        body.put("limit", n);
        body.put("maxEntries", api.audit().maxEntries());
        body.put("dropped", api.audit().dropped());
        return body;
    }

    private static Map<String, Object> json(AuditEntry e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sequence", e.sequence());
        m.put("at", e.at().toString());
        m.put("action", e.action().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        m.put("who", e.actor().who());
        Actor a = e.actor();
        Map<String, Object> from = new LinkedHashMap<>();
        putIfKnown(from, "address", a.address());
        putIfKnown(from, "identityName", a.identityName());
        putIfKnown(from, "identityVersion", a.identityVersion());
        putIfKnown(from, "identityId", a.identityId());
        m.put("from", from);
        putIfKnown(m, "app", e.app());
        putIfKnown(m, "instance", e.instance());
        putIfKnown(m, "value", e.value());
        m.put("status", e.status());
        m.put("result", e.result());
        return m;
    }

    private static void putIfKnown(Map<String, Object> m, String key, String value) {
        if (value != null) {
            m.put(key, value);
        }
    }

    static Instant since(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.trim();
        try {
            return v.chars().allMatch(Character::isDigit) && v.length() <= 18 ? Instant.ofEpochMilli(Long.parseLong(v))
                    : Instant.parse(v);
        } catch (DateTimeParseException e) {
            throw Problem.badRequest("since must be an ISO-8601 instant (2025-01-31T12:00:00Z) or epoch"
                    + " milliseconds");
        }
    }

    private static int limit(String value) {
        if (value == null || value.isBlank()) {
            return DEFAULT_LIMIT;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below, as for zero
        }
        throw Problem.badRequest("limit must be a whole number from 1 (at most " + MAX_LIMIT + " entries are"
                + " answered)");
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
