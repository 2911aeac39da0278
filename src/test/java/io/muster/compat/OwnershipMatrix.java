package io.muster.compat;

import io.muster.testing.Http;
import io.muster.testing.Http.Reply;

import java.util.ArrayList;
import java.util.List;

import static io.muster.testing.Http.instanceJson;

/**
 * Every client write to one application's instance (register, heartbeat, cancel, status override and its removal,
 * metadata), in every spelling a container or Jersey routes alike, as a caller with ownership on must not make
 * them: each canonical call gets the expected refusal, each other spelling that or no endpoint at all.
 */
final class OwnershipMatrix {
    private OwnershipMatrix() {
    }

    /** The calls that were not refused as expected, described; empty when every one was. */
    static List<String> notRefused(Http caller, String app, String id, int status, String reason) {
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
