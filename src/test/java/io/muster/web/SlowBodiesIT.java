package io.muster.web;

import io.muster.testing.Http;
import io.muster.testing.PackagedWar;
import io.muster.testing.SlowBodies;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

import static io.muster.testing.SlowBodies.STILL_OPEN;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Request bodies are taken into memory before anything answers the request, without a request thread waiting for
 * them: a body that comes in pieces is served when its last piece arrives, one that stops coming is answered 408
 * after 15 s, and clients that declare bodies and send nothing make no other client wait (on embedded Payara here;
 * TomcatServerIT and PayaraServerIT run the same hold on the real servers). Every refusal says it closes the
 * connection; Tomcat does, Grizzly keeps a connection whose body was not read to its end open until the client
 * closes it, without a thread.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class SlowBodiesIT {
    @Deployment(testable = false)
    static WebArchive war() {
        return PackagedWar.named("slow-bodies", Map.of());
    }

    @ArquillianResource
    URL base;

    private URI uri() {
        return URI.create(base.toString());
    }

    private static String json(String app, String id) {
        return Http.instanceJson(app, id, "UP", 1000);
    }

    @Test
    void aBodyThatArrivesInPiecesIsServedWhenItIsWholeAndTheConnectionStaysOpen() throws Exception {
        byte[] body = json("PIECES", "p-1").getBytes(StandardCharsets.UTF_8);
        try (Socket s = SlowBodies.begin(uri(), "POST", "apps/PIECES", "Content-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\n", Arrays.copyOf(body, 10))) {
            OutputStream out = s.getOutputStream();
            int third = body.length / 3;
            Thread.sleep(300);
            out.write(body, 10, third);
            out.flush();
            Thread.sleep(300);
            out.write(body, 10 + third, body.length - 10 - third);
            out.flush();
            Thread.sleep(300);
            out.write(("PUT " + uri().getPath() + "apps/PIECES/p-1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answers = SlowBodies.answer(s, Duration.ofSeconds(10));
            assertThat(answers).startsWith("HTTP/1.1 204").doesNotContain(STILL_OPEN);
            assertThat(answers.indexOf("HTTP/1.1 200")).as("the heartbeat on the same connection")
                    .isGreaterThan(0);
        }
        assertThat(new Http(base.toString()).getJson("apps/PIECES/p-1").status()).isEqualTo(200);
    }

    @Test
    void aChunkedBodySentInPiecesIsServedToo() throws Exception {
        byte[] body = json("CHUNKS", "c-1").getBytes(StandardCharsets.UTF_8);
        try (Socket s = SlowBodies.begin(uri(), "POST", "apps/CHUNKS", "Content-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n", new byte[0])) {
            OutputStream out = s.getOutputStream();
            for (int from = 0; from < body.length; from += 200) {
                Thread.sleep(200);
                int n = Math.min(200, body.length - from);
                out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body, from, n);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(SlowBodies.answer(s, Duration.ofSeconds(10))).startsWith("HTTP/1.1 204");
        }
        assertThat(new Http(base.toString()).getJson("apps/CHUNKS/c-1").status()).isEqualTo(200);
    }

    @Test
    void aBodyPastItsBoundIsAnswered413AndTheRestReadAndDropped() throws Exception {
        int declared = 46 * 64 * 1024;   // about 3 MB, sent in 64 KB pieces
        try (Socket s = SlowBodies.begin(uri(), "POST", "apps/HUGE", "Content-Type: application/json\r\n"
                + "Content-Length: " + declared + "\r\n", new byte[0])) {
            byte[] piece = new byte[64 * 1024];
            Arrays.fill(piece, (byte) ' ');
            try {
                for (int sent = 0; sent < declared; sent += piece.length) {
                    s.getOutputStream().write(piece);
                    s.getOutputStream().flush();
                    Thread.sleep(20);
                }
            } catch (java.io.IOException closedOnUs) {
                // the server answered and closed before the client was done: what it should do
            }
            // Grizzly keeps the connection after the answer (without a thread); Tomcat closes it
            String answer = SlowBodies.answer(s, Duration.ofSeconds(3));
            assertThat(answer).startsWith("HTTP/1.1 413").contains("Connection: close")
                    .contains("body larger than 1 MiB");
        }
        assertThat(new Http(base.toString()).getJson("apps/HUGE").status()).isEqualTo(404);
    }

    /** Only a caller signed in as a peer gets a batch's 16 MiB before access is decided; anyone else a client's 1 MiB. */
    @Test
    void aPeerBatchPastAClientsBoundIsTakenOnlyFromASignedInPeer() throws Exception {
        io.muster.testing.EmbeddedRealm.ensureUsers();
        String batch = " ".repeat(1_500_000) + "{\"replicationList\":[]}";
        byte[] bytes = batch.getBytes(StandardCharsets.US_ASCII);
        try (Socket s = SlowBodies.begin(uri(), "POST", "peerreplication/batch", "Content-Type: application/json\r\n"
                + "Content-Length: " + bytes.length + "\r\n", new byte[0])) {
            try {
                s.getOutputStream().write(bytes);
                s.getOutputStream().flush();
            } catch (java.io.IOException closedOnUs) {
                // read to a client's bound, then refused and closed: what it should do
            }
            assertThat(SlowBodies.answer(s, Duration.ofSeconds(3))).as("refused as any stranger is")
                    .startsWith("HTTP/1.1 401");
        }
        Http peer = new Http(base.toString()).as(io.muster.testing.EmbeddedRealm.PEER,
                io.muster.testing.EmbeddedRealm.PEER_PASSWORD);
        Http.Reply taken = peer.send("POST", "peerreplication/batch", batch, "Content-Type", "application/json");
        assertThat(taken.status()).as(taken.body()).isEqualTo(200);
        assertThat(taken.body()).contains("responseList");
    }

    /** Grizzly refuses one itself, with an empty 400; on Tomcat the front door does ("GET requests carry no body"). */
    @Test
    void aReadWithABodyIsRefusedWithoutWaitingForIt() throws Exception {
        try (Socket s = SlowBodies.begin(uri(), "GET", "apps/", "Content-Length: 5000\r\n", new byte[]{'x'})) {
            String answer = SlowBodies.answer(s, Duration.ofSeconds(5));
            assertThat(answer).startsWith("HTTP/1.1 400").contains("Connection: close").doesNotContain(STILL_OPEN);
        }
    }

    @Test
    void stalledBodiesHoldNoThreadAndEndIn408OrAt503BeyondTheirAddressesShare() throws Exception {
        Http http = new Http(base.toString());
        SlowBodies.Outcome o = SlowBodies.stall(http, 250, Duration.ofSeconds(18));
        assertThat(o.failures()).as(o.toString()).isZero();
        assertThat(o.slowest()).as(o.toString()).isLessThan(Duration.ofSeconds(1));
        SlowBodies.assertBounded(o, SlowBodies.GRIZZLY_STRAYS);
        assertThat(http.getJson("apps/SLOW-0").status()).isEqualTo(404);
        assertThat(http.getJson("apps/BYSTANDER/b-1").status()).isEqualTo(200);
        String metrics = http.get("metrics").body();
        assertThat(metrics).as("every slot and byte given back").contains("\nmuster_request_bodies_arriving 0.0\n");
        assertThat(metric(metrics, "muster_request_bodies_waited_total")).isGreaterThanOrEqualTo(250);
    }

    private static double metric(String scrape, String name) {
        return scrape.lines().filter(l -> l.startsWith(name + " ")).mapToDouble(l -> Double.parseDouble(
                l.substring(name.length() + 1))).findFirst().orElseThrow();
    }
}
