package io.muster.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.muster.chaos.AbuseRow.Check;
import io.muster.testing.Http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The rows of issue 22 that send values or framing the registry must refuse, and the one about its files: each a
 * handful of requests, checked against what the fix promises (a 400, nothing stored or changed, owner-only modes).
 */
final class InputRows {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final AbuseTarget t;

    InputRows(AbuseTarget t) {
        this.t = t;
    }

    /** Ids and app names that cannot be one path segment: refused at registration, so none is ever stored. */
    Check unaddressableIds(long heapBeforeKb) {
        String[] ids = {"a/b", "a\\b", "..", ".", "x/../../peerreplication/batch", "tab\there", "nul\u0001x"};
        List<String> answers = new ArrayList<>();
        boolean holds = true;
        for (String id : ids) {
            int code = t.http.postJson("apps/IDS", InstanceBodies.plain("IDS", id.replace("\\", "\\\\")
                    .replace("\t", "\\t").replace("\u0001", "\\u0001"))).status();
            answers.add(code + "");
            holds &= code == 400;
        }
        int app = t.http.postJson("apps/A%2FB", InstanceBodies.plain("A/B", "ok-1")).status();
        holds &= app == 400;
        int stored = t.http.getJson("apps/IDS").status();
        holds &= stored == 404;
        return new Check("register instanceId a/b, a\\b, .., ., x/../../peerreplication/batch, TAB, U+0001;"
                + " app name A/B", "answers " + String.join(", ", answers) + "; app A/B " + app
                + "; GET /apps/IDS afterwards " + stored, holds);
    }

    /** The snapshot directory (CATALINA_BASE/work/muster) and the sendfile bodies: 0700 directories, 0600 files. */
    Check privateFiles(long heapBeforeKb) throws IOException {
        List<Path> dirs = new ArrayList<>();
        if (Files.isDirectory(t.node.base().resolve("work/muster"))) {
            dirs.add(t.node.base().resolve("work/muster"));
        }
        try (Stream<Path> s = Files.walk(t.node.base().resolve("work"))) {
            s.filter(p -> p.getFileName().toString().equals("muster-bodies")).forEach(dirs::add);
        }
        List<String> loose = new ArrayList<>();
        int files = 0;
        boolean snapshot = false;
        boolean key = false;
        for (Path dir : dirs) {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
                    boolean ok = Files.isDirectory(p) ? mode.equals("rwx------") : mode.equals("rw-------");
                    if (Files.isSymbolicLink(p) || !ok) {
                        loose.add(t.node.base().relativize(p) + " " + mode);
                    }
                    if (Files.isRegularFile(p)) {
                        files++;
                        snapshot |= p.getFileName().toString().contains("snapshot");
                        key |= p.getFileName().toString().equals("integrity.key");
                    }
                }
            }
        }
        boolean holds = dirs.size() >= 2 && loose.isEmpty() && snapshot && key;
        return new Check("modes of the snapshot directory (CATALINA_BASE/work/muster) and of the sendfile"
                        + " bodies (the context's temp/muster-bodies), after 30 s+ of writes",
                dirs.size() + " directories, " + files + " files (snapshot " + snapshot + ", integrity.key " + key
                        + "); not owner-only: " + (loose.isEmpty() ? "none" : String.join(", ", loose)), holds);
    }

    /** Another client's instance re-registered with a dirty stamp far in the future: refused, owner keeps it. */
    Check permanentHijack(long heapBeforeKb) throws IOException {
        long owner = System.currentTimeMillis();
        t.http.postJson("apps/VICTIM", Http.instanceJson("VICTIM", "victim-1", "UP", owner));
        List<String> answers = new ArrayList<>();
        boolean holds = true;
        for (String stamp : new String[]{"\"9223372036854775807\"", "9223372036854775807", "1e400",
                "\"" + (owner + Duration.ofDays(2).toMillis()) + "\""}) {
            String body = Http.instanceJson("VICTIM", "victim-1", "DOWN", owner)
                    .replace("\"lastDirtyTimestamp\":\"" + owner + "\"", "\"lastDirtyTimestamp\":" + stamp);
            int code = t.http.postJson("apps/VICTIM", body).status();
            answers.add(stamp.replace("\"", "") + " " + code);
            holds &= code == 400;
        }
        long later = owner + 1_000;
        int reRegister = t.http.postJson("apps/VICTIM", Http.instanceJson("VICTIM", "victim-1", "UP", later)).status();
        int renew = t.http.put("apps/VICTIM/victim-1?status=UP&lastDirtyTimestamp=" + later).status();
        JsonNode stored = JSON.readTree(t.http.getJson("apps/VICTIM/victim-1").body()).path("instance");
        String storedStamp = stored.path("lastDirtyTimestamp").asText();
        String status = stored.path("status").asText();
        holds &= reRegister == 204 && renew == 200 && storedStamp.equals(Long.toString(later)) && status.equals("UP");
        t.http.delete("apps/VICTIM/victim-1");
        return new Check("POST another client's instance with lastDirtyTimestamp Long.MAX_VALUE (string and"
                        + " number), 1e400, now+48h",
                "answers " + String.join(", ", answers) + "; owner's re-registration " + reRegister + ", heartbeat "
                        + renew + ", stored stamp " + (storedStamp.equals(Long.toString(later)) ? "the owner's"
                        : storedStamp) + ", status " + status, holds);
    }

    /**
     * A PUT with both Transfer-Encoding: chunked and Content-Length whose body hides a DELETE of a registered
     * instance: answered 400 once, the connection closed, and the instance still there.
     */
    Check requestSmuggling(long heapBeforeKb) throws IOException {
        t.http.postJson("apps/SMUGGLED", InstanceBodies.plain("SMUGGLED", "smuggled-1"));
        String hidden = "0\r\n\r\n" + RawHttp.head("DELETE", t.node.port, t.path("apps/SMUGGLED/smuggled-1"), "");
        List<String> shown = new ArrayList<>();
        boolean holds = true;
        for (String framing : new String[]{"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n",
                "Content-Length: " + hidden.length() + "\r\nTransfer-Encoding: chunked\r\n"}) {
            String answer = RawHttp.exchange(t.node.port, (RawHttp.head("PUT", t.node.port,
                    t.path("apps/SMUGGLED/smuggled-1"), framing) + hidden).getBytes(StandardCharsets.US_ASCII),
                    Duration.ofSeconds(10));
            int answers = answer.split("HTTP/1\\.1 ", -1).length - 1;
            boolean closed = !answer.endsWith(RawHttp.STILL_OPEN);
            String first = answer.isEmpty() ? "nothing" : answer.substring(0, Math.min(12, answer.length())).trim();
            shown.add(first + ", " + answers + " answer(s), connection " + (closed ? "closed" : "OPEN"));
            // Payara shows both headers and the front door answers 400; Tomcat's connector drops the
            // Content-Length before any filter sees it, reads the body as chunked and closes the connection after
            // answering (RFC 9112 6.3): either way one answer, a closed connection, and the hidden request not run
            holds &= (answer.startsWith("HTTP/1.1 400") || answer.startsWith("HTTP/1.1 200")) && answers == 1
                    && closed;
        }
        int still = t.http.getJson("apps/SMUGGLED/smuggled-1").status();
        holds &= still == 200;
        t.http.delete("apps/SMUGGLED/smuggled-1");
        return new Check("PUT heartbeat with TE: chunked + Content-Length (both orders), a DELETE hidden in the body",
                String.join("; ", shown) + "; the instance afterwards " + still + " (hidden DELETE "
                        + (still == 200 ? "not run" : "RAN") + ")", holds);
    }

    /** A timeout the server cannot represent: 400, and no stack trace in the log. */
    Check errorPath(long heapBeforeKb) {
        int severe = t.logCount("SEVERE");
        List<String> answers = new ArrayList<>();
        boolean holds = true;
        for (String q : new String[]{"timeout=153722867280912931m", "timeout=99999999999999999999", "timeout=-1s"}) {
            for (int i = 0; i < 20; i++) {
                int code = t.http.get("apps/?waitForChangeAfter=0&" + q).status();
                holds &= code == 400;
                if (i == 0) {
                    answers.add(q + " " + code);
                }
            }
        }
        int severeAfter = t.logCount("SEVERE") - severe;
        holds &= severeAfter == 0;
        return new Check("20 each of GET /apps/?waitForChangeAfter=0&timeout= 153722867280912931m,"
                + " 99999999999999999999, -1s", "answers " + String.join(", ", answers) + "; SEVERE lines "
                + severeAfter, holds);
    }

    /** A lease of 0 s and a host name with an overlong UTF-8 '/' (C0 AF): refused, nothing stored. */
    Check oddValues(long heapBeforeKb) throws IOException {
        int zero = t.http.postJson("apps/ODD", InstanceBodies.with("ODD", "odd-1", "\"durationInSecs\":90",
                "\"durationInSecs\":0")).status();
        byte[] plain = InstanceBodies.plain("ODD", "odd-2").getBytes(StandardCharsets.UTF_8);
        String text = new String(plain, StandardCharsets.ISO_8859_1);
        int at = text.indexOf("\"hostName\":\"") + "\"hostName\":\"".length();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(plain, 0, at);
        body.write(new byte[]{(byte) 0xC0, (byte) 0xAF});
        body.write(plain, at, plain.length - at);
        String answer = RawHttp.exchange(t.node.port, concat(RawHttp.head("POST", t.node.port, t.path("apps/ODD"),
                "Content-Type: application/json\r\nContent-Length: " + body.size() + "\r\nConnection: close\r\n")
                .getBytes(StandardCharsets.US_ASCII), body.toByteArray()), Duration.ofSeconds(10));
        String utf8 = answer.length() >= 12 ? answer.substring(9, 12) : "nothing";
        int stored = t.http.getJson("apps/ODD").status();
        boolean holds = zero == 400 && utf8.equals("400") && stored == 404;
        return new Check("register with durationInSecs 0; with hostName containing C0 AF (overlong '/')",
                "durationInSecs 0: " + zero + "; overlong UTF-8: " + utf8 + "; GET /apps/ODD afterwards " + stored,
                holds);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = new byte[a.length + b.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
