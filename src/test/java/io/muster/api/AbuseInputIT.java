package io.muster.api;

import io.muster.testing.EmbeddedRealm;
import io.muster.testing.Http;
import io.muster.testing.Http.Reply;
import io.muster.testing.PackagedWar;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 22, items 6, 8 and 9, over HTTP: ids no endpoint could address, values the registry cannot order, bodies
 * that are not UTF-8, query values out of range and ambiguous request framing are each a 400 with a one-line
 * reason, and the registry is left as it was.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class AbuseInputIT {
    @Deployment(testable = false)
    static WebArchive war() {
        return PackagedWar.named("abuse", Map.of());
    }

    @ArquillianResource
    URL base;

    Http http;

    @BeforeEach
    void victim() throws Exception {
        EmbeddedRealm.ensureUsers();
        http = new Http(base.toString());
        assertThat(http.postJson("apps/VICTIM", instanceJson("VICTIM", "v-1", "UP", 1000)).status()).isEqualTo(204);
        index();
    }

    // ---- item 6: ids every endpoint can address

    @Test
    void anIdThatIsNotOnePathSegmentIsRefusedAtRegistration() {
        String index = index();
        // as JSON string literals: a/b, a\b, ., .., a path climbing to the peer endpoint, and what containers
        // decode (%), strip (;) or cut off (?, #), and non-ASCII (Grizzly decodes %C3%A9 as two Latin-1 letters)
        for (String id : new String[]{"a/b", "a\\\\b", ".", "..", "x/../../peerreplication/batch", "a%2Fb", "a;b",
                "a?b", "a#b", "a\u00e9b"}) {
            Reply r = http.postJson("apps/ABUSE", instanceJson("ABUSE", id, "UP", 1000));
            assertThat(r.status()).as(id).isEqualTo(400);
            assertThat(r.body().strip()).as(id).contains("URL path segment").doesNotContain("\n");
        }
        assertThat(http.getJson("apps/ABUSE").status()).isEqualTo(404);
        assertThat(index()).as("nothing changed").isEqualTo(index);
    }

    @Test
    void peerBatchesAreHeldToTheSameIdRule() {
        Http peer = http.as(EmbeddedRealm.PEER, EmbeddedRealm.PEER_PASSWORD);
        String item = instanceJson("ABUSE", "a/b", "UP", 1000).replaceFirst("^\\{\"instance\":", "")
                .replaceFirst("}$", "");
        String batch = "{\"replicationList\":[{\"appName\":\"ABUSE\",\"id\":\"a/b\",\"action\":\"Register\","
                + "\"instanceInfo\":" + item + "}]}";
        Reply r = peer.send("POST", "peerreplication/batch", batch, "Content-Type", "application/json");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("{\"responseList\":[{\"statusCode\":400}]}");
        assertThat(http.getJson("apps/ABUSE").status()).isEqualTo(404);
    }

    @Test
    void realClientsIdsAreRenewedCancelledAndDeregisteredByAnAdminInEverySpelling() {
        // Spring's host:app:port plain (as Netflix's client sends it) and escaped (as the dashboard and Spring's
        // URI builders send it), a Netflix host name, an AWS instance id
        String[][] ids = {
                {"10.0.0.1:spring-app:8080", "10.0.0.1%3Aspring-app%3A8080"},
                {"host-1.example.com", "host-1.example.com"},
                {"i-0123456789abcdef0", "i-0123456789abcdef0"},
        };
        for (String[] id : ids) {
            for (String spelling : id) {
                addressable(id[0], spelling);
            }
        }
    }

    /** Any other character the registry accepts reaches the instance at least as the dashboard spells it. */
    @Test
    void everyOtherAcceptedCharacterIsAddressableAsTheDashboardEscapesIt() {
        java.util.List<String> unreachable = new java.util.ArrayList<>();
        for (char c : "+@~!$'()*,=&[]: \"<>{}|^`".toCharArray()) {
            String id = "a" + c + "b";
            String escaped = java.net.URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20")
                    .replace("%21", "!").replace("%27", "'").replace("%28", "(").replace("%29", ")")
                    .replace("%7E", "~");   // what the dashboard's encodeURIComponent leaves as it is
            try {
                addressable(id, escaped);
            } catch (AssertionError e) {
                unreachable.add(id + " as " + escaped + ": " + e.getMessage().lines().findFirst().orElse(""));
            }
        }
        assertThat(unreachable).isEmpty();
    }

    private void addressable(String id, String spelling) {
        Http admin = http.as(EmbeddedRealm.ADMIN, EmbeddedRealm.ADMIN_PASSWORD);
        String token = admin.getJson("api/admin/csrf").body().replaceAll(".*\"token\":\"([0-9a-f]+)\".*", "$1");
        String json = instanceJson("REAL", "ID", "UP", 1000).replace("\"ID\"", "\"" + id.replace("\\", "\\\\")
                .replace("\"", "\\\"") + "\"");
        assertThat(http.postJson("apps/REAL", json).status()).as("register " + id).isEqualTo(204);
        assertThat(http.put("apps/REAL/" + spelling).status()).as("renew " + spelling).isEqualTo(200);
        assertThat(admin.send("POST", "api/admin/instances/REAL/" + spelling + "/out-of-service", "",
                "X-Muster-CSRF", token).status()).as("admin out-of-service " + spelling).isEqualTo(200);
        assertThat(http.getJson("apps/REAL/" + spelling).body()).as("read " + spelling).contains("OUT_OF_SERVICE");
        assertThat(admin.send("POST", "api/admin/instances/REAL/" + spelling + "/deregister", "",
                "X-Muster-CSRF", token).status()).as("admin deregister " + spelling).isEqualTo(200);
        assertThat(http.getJson("apps/REAL/" + spelling).status()).as("gone " + spelling).isEqualTo(404);

        assertThat(http.postJson("apps/REAL", json).status()).isEqualTo(204);
        assertThat(http.delete("apps/REAL/" + spelling).status()).as("cancel " + spelling).isEqualTo(200);
        assertThat(http.getJson("apps/REAL/" + spelling).status()).as("gone " + spelling).isEqualTo(404);
    }

    // ---- item 8: values the registry cannot order

    @Test
    void aLeaseOfZeroOrNegativeSecondsIsRefusedAndRealClientsDefaultsAreKept() {
        String index = index();
        for (String duration : new String[]{"0", "-5", "\"0\""}) {
            Reply r = http.postJson("apps/LEASE", instanceJson("LEASE", "l-1", "UP", 1000)
                    .replace("\"durationInSecs\":90", "\"durationInSecs\":" + duration));
            assertThat(r.status()).as(duration).isEqualTo(400);
            assertThat(r.body()).contains("durationInSecs");
        }
        String xml = "<instance><instanceId>l-1</instanceId><hostName>h</hostName><app>LEASE</app>"
                + "<ipAddr>127.0.0.1</ipAddr><status>UP</status><dataCenterInfo><name>MyOwn</name></dataCenterInfo>"
                + "<leaseInfo><durationInSecs>0</durationInSecs></leaseInfo></instance>";
        assertThat(http.send("POST", "apps/LEASE", xml, "Content-Type", "application/xml").status()).isEqualTo(400);
        assertThat(index()).isEqualTo(index);

        assertThat(http.postJson("apps/LEASE", instanceJson("LEASE", "l-1", "UP", 1000)).status()).isEqualTo(204);
        assertThat(http.getJson("apps/LEASE/l-1").body()).contains("\"durationInSecs\":90");
        String noLease = instanceJson("LEASE", "l-2", "UP", 1000)
                .replace("\"leaseInfo\":{\"renewalIntervalInSecs\":30,\"durationInSecs\":90},", "");
        assertThat(http.postJson("apps/LEASE", noLease).status()).as("eureka-js-client sends none").isEqualTo(204);
        assertThat(http.getJson("apps/LEASE/l-2").body()).contains("\"durationInSecs\":90");
    }

    @Test
    void aDirtyTimestampFarAheadOrNegativeIsRefusedAndCannotHijackAnInstance() {
        String before = http.getJson("apps/VICTIM/v-1").body();
        String index = index();
        long dayAndMore = System.currentTimeMillis() + 25 * 3600_000L;
        for (String stamp : new String[]{"\"9223372036854775807\"", "9223372036854775807", "1e400", "-1",
                "\"" + dayAndMore + "\""}) {
            Reply r = http.postJson("apps/VICTIM", instanceJson("VICTIM", "v-1", "UP", 1000)
                    .replace("\"lastDirtyTimestamp\":\"1000\"", "\"lastDirtyTimestamp\":" + stamp));
            assertThat(r.status()).as(stamp).isEqualTo(400);
            assertThat(r.body().strip()).as(stamp).doesNotContain("\n");
        }
        for (String stamp : new String[]{"9223372036854775807", "-1", String.valueOf(dayAndMore), "1e400",
                "99999999999999999999"}) {
            assertThat(http.put("apps/VICTIM/v-1?lastDirtyTimestamp=" + stamp).status()).as(stamp).isEqualTo(400);
            assertThat(http.put("apps/VICTIM/v-1/status?value=OUT_OF_SERVICE&lastDirtyTimestamp=" + stamp)
                    .status()).as(stamp).isEqualTo(400);
        }
        assertThat(index()).as("nothing changed").isEqualTo(index);
        assertThat(http.getJson("apps/VICTIM/v-1").body()).isEqualTo(before);

        long tenMinutesAhead = System.currentTimeMillis() + 600_000L;
        assertThat(http.postJson("apps/VICTIM", instanceJson("VICTIM", "v-1", "UP", tenMinutesAhead)).status())
                .as("a client whose clock runs ten minutes ahead").isEqualTo(204);
        assertThat(http.put("apps/VICTIM/v-1?lastDirtyTimestamp=" + tenMinutesAhead).status()).isEqualTo(200);
        assertThat(http.postJson("apps/VICTIM", instanceJson("VICTIM", "v-1", "DOWN", 1000)).status())
                .as("the owner, its clock put right, registers again").isEqualTo(204);
        assertThat(http.getJson("apps/VICTIM/v-1").body()).contains("\"status\":\"DOWN\"")
                .contains("\"lastDirtyTimestamp\":\"" + (tenMinutesAhead + 1) + "\"");
    }

    @Test
    void aBodyThatIsNotUtf8IsRefused() throws IOException {
        String index = index();
        byte[] slash = {(byte) 0xC0, (byte) 0xAF};   // an overlong '/'
        for (String type : new String[]{"application/json", "application/xml"}) {
            String body = type.endsWith("json") ? instanceJson("UTF", "u-1", "UP", 1000)
                    : "<instance><instanceId>u-1</instanceId><hostName>host-u-1</hostName><app>UTF</app>"
                    + "<ipAddr>127.0.0.1</ipAddr><status>UP</status>"
                    + "<dataCenterInfo><name>MyOwn</name></dataCenterInfo></instance>";
            byte[] bytes = splice(body.getBytes(StandardCharsets.UTF_8), "host-u", slash);
            String answer = exchange(request("POST", "apps/UTF", "Content-Type: " + type + "\r\nContent-Length: "
                    + bytes.length + "\r\nConnection: close\r\n"), bytes);
            assertThat(answer).as(type).startsWith("HTTP/1.1 400");
        }
        assertThat(http.getJson("apps/UTF").status()).isEqualTo(404);
        assertThat(index()).isEqualTo(index);
    }

    @Test
    void queryValuesOutOfRangeAreA400NeverA500() {
        for (String query : new String[]{"waitForChangeAfter=0&timeout=153722867280912931m",
                "waitForChangeAfter=0&timeout=99999999999999999999", "waitForChangeAfter=0&timeout=6m",
                "waitForChangeAfter=0&timeout=-1s", "waitForChangeAfter=-5", "waitForChangeAfter=abc",
                "waitForChangeAfter=99999999999999999999"}) {
            Reply r = http.get("apps/?" + query);
            assertThat(r.status()).as(query).isEqualTo(400);
            assertThat(r.body().strip()).as(query).doesNotContain("\n");
            assertThat(http.get("apps/delta?" + query).status()).as("delta " + query).isEqualTo(400);
        }
        assertThat(http.get("api/changes", "Last-Event-ID", "99999999999999999999").status()).isEqualTo(400);
        assertThat(http.put("apps/VICTIM/v-1?lastDirtyTimestamp=abc").status()).isEqualTo(400);
        assertThat(http.put("apps/VICTIM/v-1/status?value=BOGUS").status()).isEqualTo(400);
    }

    // ---- item 9: ambiguous framing

    /**
     * A request on whose end a proxy and the container could disagree, with a DELETE hidden after its chunked
     * body: refused, and the connection closed before the hidden request is read.
     */
    @Test
    void ambiguousFramingIsRefusedAndTheConnectionClosedBeforeAHiddenRequestRuns() throws IOException {
        String before = index();
        String smuggled = "0\r\n\r\n" + request("DELETE", "apps/VICTIM/v-1", "");
        String[] framings = {
                "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n",
                "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n",
                "Transfer-Encoding: gzip, chunked\r\n",
                "Transfer-Encoding: chunked, chunked\r\n",
                "Transfer-Encoding: identity\r\n",
                "Content-Length: 0\r\nContent-Length: " + smuggled.length() + "\r\n",
                "Content-Length: 0, 0\r\n",
                "Content-Length: +0\r\n",
        };
        for (String framing : framings) {
            String shown = framing.replace("\r\n", " | ");
            String answer = exchange(request("PUT", "apps/VICTIM/v-1", framing),
                    smuggled.getBytes(StandardCharsets.US_ASCII));
            assertThat(answer).as(shown).startsWith("HTTP/1.1 400");
            assertThat(answer.split("HTTP/1\\.1 ", -1)).as(shown + ": one answer, then EOF").hasSize(2);
            assertThat(index()).as(shown + ": the hidden DELETE never ran").isEqualTo(before);
        }
    }

    /**
     * Content-Length before Transfer-Encoding: Grizzly removes the length before any filter runs, so on Payara the
     * request looks plainly chunked and is answered; Tomcat refuses it itself. Either way the connection is closed
     * after the one answer and the hidden DELETE is never read.
     */
    @Test
    void aLengthTheContainerDroppedStillEndsTheConnection() throws IOException {
        String before = index();
        String smuggled = "0\r\n\r\n" + request("DELETE", "apps/VICTIM/v-1", "");
        String answer = exchange(request("PUT", "apps/VICTIM/v-1", "Content-Length: " + smuggled.length()
                + "\r\nTransfer-Encoding: chunked\r\n"), smuggled.getBytes(StandardCharsets.US_ASCII));
        assertThat(answer).matches("(?s)HTTP/1\\.1 (200|400) .*");
        assertThat(answer.split("HTTP/1\\.1 ", -1)).as("one answer, then EOF").hasSize(2);
        assertThat(index()).as("the hidden DELETE never ran").isEqualTo(before);
        assertThat(http.getJson("apps/VICTIM/v-1").status()).isEqualTo(200);
    }

    @Test
    void plainChunkedAndPlainContentLengthBodiesStillWork() throws IOException {
        byte[] body = instanceJson("FRAMED", "f-1", "UP", 1000).getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream chunked = new ByteArrayOutputStream();
        chunked.write((Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        chunked.write(body);
        chunked.write("\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        String answer = exchange(request("POST", "apps/FRAMED", "Content-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n"), chunked.toByteArray());
        assertThat(answer).as("served, and the connection closed after it").startsWith("HTTP/1.1 204");
        assertThat(http.getJson("apps/FRAMED/f-1").status()).isEqualTo(200);
        answer = exchange(request("DELETE", "apps/FRAMED/f-1", "Content-Length: 0\r\nConnection: close\r\n"),
                new byte[0]);
        assertThat(answer).startsWith("HTTP/1.1 200");
        assertThat(http.getJson("apps/FRAMED/f-1").status()).isEqualTo(404);
    }

    /**
     * A refused connection is remembered for 10 s so that nothing read behind the refusal runs; a later connection
     * from the same client port is another connection and is served. Ports are reused that fast when the server
     * closed first, as it does after a refusal.
     */
    @Test
    void aLaterConnectionFromARefusedConnectionsClientPortIsServed() throws IOException {
        int conclusive = 0;
        for (int attempt = 0; attempt < 5 && conclusive < 2; attempt++) {
            int port;
            try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
                port = free.getLocalPort();
            }
            String refused = exchange(request("PUT", "apps/VICTIM/v-1", "Transfer-Encoding: identity\r\n"),
                    new byte[0], port);
            assertThat(refused).startsWith("HTTP/1.1 400");
            String later;
            try {
                later = exchange(request("GET", "apps/VICTIM/v-1", "Accept: application/json\r\n"
                        + "Connection: close\r\n"), new byte[0], port);
            } catch (java.net.BindException | java.net.ConnectException e) {
                continue;   // the port was still held: this attempt says nothing
            }
            assertThat(later).as("a new connection on client port " + port).startsWith("HTTP/1.1 200");
            conclusive++;
        }
        assertThat(conclusive).as("attempts that could reuse their client port").isPositive();
    }

    // ---- helpers

    /**
     * The registry's index once reads show every write made so far: reads are served from a cache that follows
     * writes within about a second, so the index is taken when it has not moved for a second.
     */
    private String index() {
        String index = http.get("apps/").header("X-Muster-Index");
        for (int k = 0; k < 20; k++) {
            String next = http.get("apps/?waitForChangeAfter=" + index + "&timeout=1s").header("X-Muster-Index");
            if (index.equals(next)) {
                return index;
            }
            index = next;
        }
        throw new AssertionError("the registry kept changing");
    }

    /** A request head; without {@code Connection: close} among the headers the server may keep it open. */
    private String request(String method, String path, String headers) {
        return method + " " + base.getPath() + path + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                + "\r\n" + headers + "\r\n";
    }

    /**
     * Sends the head and body on a fresh connection and reads until the server closes it; a server that keeps a
     * connection open after answering (waiting for a next request) fails the read timeout.
     */
    private String exchange(String head, byte[] body) throws IOException {
        return exchange(head, body, 0);
    }

    /** {@link #exchange(String, byte[])} from this client port (0: any). */
    private String exchange(String head, byte[] body, int clientPort) throws IOException {
        try (Socket s = new Socket()) {
            s.setReuseAddress(true);
            s.bind(new java.net.InetSocketAddress(base.getHost(), clientPort));
            s.connect(new java.net.InetSocketAddress(base.getHost(), base.getPort()));
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();   // and never half-closed: the server must close by itself
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buffer = new byte[4096];
            try {
                for (int n; (n = in.read(buffer)) > 0; ) {
                    got.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("connection still open 10 s after the answer: "
                        + got.toString(StandardCharsets.ISO_8859_1));
            }
            return got.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static byte[] splice(byte[] body, String after, byte[] inserted) {
        String text = new String(body, StandardCharsets.ISO_8859_1);
        int at = text.indexOf(after) + after.length();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(body, 0, at);
        out.write(inserted, 0, inserted.length);
        out.write(body, at, body.length - at);
        return out.toByteArray();
    }
}
