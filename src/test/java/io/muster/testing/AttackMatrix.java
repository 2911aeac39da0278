package io.muster.testing;

import io.muster.testing.Http.Reply;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every protected endpoint called as an attacker would: each spelling of its path that a container or Jersey might
 * route to it ({@code ;x} on any segment, {@code /v2} and other version segments, trailing and doubled slashes,
 * percent-encoded letters, upper case) by every caller that lacks the role. None may get a 2xx, and the registry
 * must not change: the victim instance stays UP and registered, the intruder never appears.
 */
public final class AttackMatrix {
    public static final String VICTIM_APP = "VICTIM";
    public static final String VICTIM_ID = "v-1";
    private static final String REPLICATED = "x-netflix-discovery-replication";

    /** One protected call: method, path segments (each a literal or a value), body, extra headers, role needed. */
    public record Call(String method, List<String> segments, String body, List<String> headers, String role) {
        String describe(String path) {
            return method + " " + path + " " + headers;
        }
    }

    private AttackMatrix() {
    }

    public static List<Call> protectedCalls() {
        String batch = "{\"replicationList\":[" + "{\"appName\":\"INTRUDER\",\"id\":\"x-1\",\"action\":\"Register\","
                + "\"instanceInfo\":" + Http.instanceJson("INTRUDER", "x-1", "UP", 1).replaceFirst("^\\{\"instance\":", "")
                .replaceFirst("}$", "") + "},"
                + "{\"appName\":\"VICTIM\",\"id\":\"v-1\",\"action\":\"Cancel\"},"
                + "{\"appName\":\"VICTIM\",\"id\":\"v-1\",\"action\":\"StatusUpdate\",\"status\":\"OUT_OF_SERVICE\"}]}";
        List<String> json = List.of("Content-Type", "application/json");
        List<String> replicated = List.of(REPLICATED, "true");
        List<String> replicatedJson = List.of(REPLICATED, "true", "Content-Type", "application/json");
        List<String> csrf = List.of("X-Muster-CSRF", "guess");
        return List.of(
                new Call("POST", List.of("peerreplication", "batch"), batch, json, "eureka-peer"),
                new Call("POST", List.of("apps", "INTRUDER"), Http.instanceJson("INTRUDER", "x-1", "UP", 1),
                        replicatedJson, "eureka-peer"),
                new Call("DELETE", List.of("apps", VICTIM_APP, VICTIM_ID), null, replicated, "eureka-peer"),
                new Call("PUT", List.of("apps", VICTIM_APP, VICTIM_ID, "status?value=OUT_OF_SERVICE"), null,
                        replicated, "eureka-peer"),
                new Call("DELETE", List.of("apps", VICTIM_APP, VICTIM_ID, "status?value=DOWN"), null, replicated,
                        "eureka-peer"),
                new Call("PUT", List.of("apps", VICTIM_APP, VICTIM_ID, "metadata?k=v"), null, replicated,
                        "eureka-peer"),
                // the digest lists every app and the recent cancellations: peers only
                new Call("GET", List.of("api", "cluster", "digest"), null, List.of(), "eureka-peer"),
                new Call("GET", List.of("api", "admin", "csrf"), null, List.of(), "eureka-admin"),
                new Call("POST", List.of("api", "admin", "instances", VICTIM_APP, VICTIM_ID, "deregister"), "",
                        csrf, "eureka-admin"),
                new Call("POST", List.of("api", "admin", "instances", VICTIM_APP, VICTIM_ID, "out-of-service"), "",
                        csrf, "eureka-admin"),
                // who did what, from where: operators only
                new Call("GET", List.of("api", "audit?app=" + VICTIM_APP), null, List.of(), "eureka-admin"));
    }

    /** The spellings of a path; the first is the plain one. Version forms only for the Eureka API. */
    public static Set<String> variants(List<String> segments) {
        boolean eurekaApi = !segments.get(0).equals("api");
        Set<String> out = new LinkedHashSet<>();
        out.add(join(segments));
        out.add(join(segments) + "/");
        if (eurekaApi) {
            for (String version : List.of("v2", "V2", "v3", "v9", "v1")) {
                out.add(version + "/" + join(segments));
                out.add(version + ";x/" + join(segments));
            }
        }
        for (int i = 0; i < segments.size(); i++) {
            List<String> s = new ArrayList<>(segments);
            s.set(i, withMatrix(s.get(i), ";x"));
            out.add(join(s));
            out.add("v2/" + join(s));
            List<String> j = new ArrayList<>(segments);
            j.set(i, withMatrix(j.get(i), ";jsessionid=abc"));
            out.add(join(j));
            List<String> e = new ArrayList<>(segments);
            e.set(i, encodeFirstLetter(e.get(i)));
            out.add(join(e));
            List<String> u = new ArrayList<>(segments);
            u.set(i, upper(u.get(i)));
            out.add(join(u));
        }
        out.add(String.join("//", segments));
        out.add("/" + join(segments));
        return out;
    }

    /**
     * Calls every protected endpoint in every spelling as each caller without the role, then checks the registry
     * is unchanged. Returns the number of refused requests.
     */
    public static int run(Http anonymous, List<Caller> callers) {
        int requests = 0;
        for (Call call : protectedCalls()) {
            for (String path : variants(call.segments())) {
                for (Caller caller : callers) {
                    if (caller.roles().contains(call.role())) {
                        continue;
                    }
                    Reply r = caller.http().send(call.method(), path, call.body(), call.headers().toArray(String[]::new));
                    requests++;
                    assertThat(r.status()).as(caller.name() + ": " + call.describe(path)).isIn(401, 403, 404, 405);
                }
            }
        }
        assertUnchanged(anonymous);
        return requests;
    }

    public static void assertUnchanged(Http anonymous) {
        Reply victim = anonymous.getJson("apps/" + VICTIM_APP + "/" + VICTIM_ID);
        assertThat(victim.status()).as("the victim is still registered").isEqualTo(200);
        assertThat(victim.body()).as("the victim's status").contains("\"status\":\"UP\"")
                .contains("\"overriddenStatus\":\"UNKNOWN\"").doesNotContain("\"k\":\"v\"");
        assertThat(anonymous.getJson("apps/INTRUDER/x-1").status()).as("the intruder").isEqualTo(404);
    }

    /** A caller of the matrix: a name for messages, its client, and the roles its realm user has. */
    public record Caller(String name, Http http, Set<String> roles) {
    }

    private static String withMatrix(String segment, String matrix) {
        int query = segment.indexOf('?');
        return query < 0 ? segment + matrix : segment.substring(0, query) + matrix + segment.substring(query);
    }

    private static String encodeFirstLetter(String segment) {
        char c = segment.charAt(0);
        return String.format(Locale.ROOT, "%%%02X", (int) c) + segment.substring(1);
    }

    private static String upper(String segment) {
        int query = segment.indexOf('?');
        return query < 0 ? segment.toUpperCase(Locale.ROOT)
                : segment.substring(0, query).toUpperCase(Locale.ROOT) + segment.substring(query);
    }

    private static String join(List<String> segments) {
        return String.join("/", segments);
    }
}
