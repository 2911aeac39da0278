package io.muster.compat;

import io.muster.testing.Http;
import io.muster.testing.Http.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every client write to one application's instance (register, heartbeat, cancel, status override and its removal,
 * metadata), in every spelling a container or Jersey routes alike, as a caller with ownership on must not make
 * them: each canonical call gets the expected refusal, each other spelling that or no endpoint at all.
 */
final class OwnershipMatrix {
    private OwnershipMatrix() {
    }

    /**
     * The owner registers {@code ORDERS/o-1}; then each stranger (a caller and the name its refusal gives) gets a
     * 403 naming it, the anonymous caller a 401, for every write and spelling; and the instance is as it was.
     */
    static void assertStrangersWriteNothing(Http owner, Http anonymous, Map<Http, String> strangers) {
        assertThat(owner.postJson("apps/ORDERS", instanceJson("ORDERS", "o-1", "UP", 1000)).status())
                .isEqualTo(204);
        String before = owner.getJson("apps/ORDERS/o-1").body();
        List<String> failures = new ArrayList<>();
        strangers.forEach((caller, name) -> failures.addAll(notRefused(caller, "ORDERS", "o-1", 403,
                name + " may not write application ORDERS")));
        failures.addAll(notRefused(anonymous, "ORDERS", "o-1", 401, ""));
        assertThat(failures).as("writes that were not refused").isEmpty();
        assertThat(owner.getJson("apps/ORDERS/o-1").body()).as("unchanged").isEqualTo(before);
        assertThat(owner.getJson("apps/ORDERS/o-1-intruder").status()).as("never registered").isEqualTo(404);
    }

    /** The calls that were not refused as expected, described; empty when every one was. */
    private static List<String> notRefused(Http caller, String app, String id, int status, String reason) {
        List<String> failures = new ArrayList<>();
        for (String[] call : writesTo(app, id)) {
            for (String path : spellings(call[1])) {
                Reply r = call[2] == null ? caller.send(call[0], path, null)
                        : caller.send(call[0], path, call[2], "Content-Type", "application/json");
                // a spelling the container does not normalize names no endpoint at all: refused before any handler
                boolean ok = r.status() == status && r.body().contains(reason)
                        || !path.equals(call[1]) && (r.status() == 404 || r.status() == 405);
                if (!ok) {
                    failures.add(call[0] + " " + path + " -> " + r.status() + " " + r.body());
                }
            }
        }
        return failures;
    }

    /** Method, path and body; the registration names an instance of its own ({@code <id>-intruder}). */
    private static List<String[]> writesTo(String app, String id) {
        return List.of(
                new String[]{"POST", "apps/" + app, instanceJson(app, id + "-intruder", "UP", 5000)},
                new String[]{"PUT", "apps/" + app + "/" + id, null},
                new String[]{"DELETE", "apps/" + app + "/" + id, null},
                new String[]{"PUT", "apps/" + app + "/" + id + "/status?value=OUT_OF_SERVICE", null},
                new String[]{"DELETE", "apps/" + app + "/" + id + "/status?value=DOWN", null},
                new String[]{"PUT", "apps/" + app + "/" + id + "/metadata?owner=intruder", null});
    }

    /** Version segment, matrix parameters on either segment, lower case, a percent-escape, a doubled slash. */
    private static List<String> spellings(String path) {
        String app = path.split("/")[1];
        return List.of(path, "v2/" + path, path.replaceFirst("^apps/", "apps;x/"),
                path.replaceFirst("^apps/" + app, "apps/" + app.toLowerCase()),
                path.replaceFirst("^apps/" + app, "apps/%" + Integer.toHexString(app.charAt(0)).toUpperCase()
                        + app.substring(1)),
                path.replaceFirst("^apps/" + app, "apps/" + app + ";y"),
                path.replaceFirst("^apps/", "apps//"));
    }
}
