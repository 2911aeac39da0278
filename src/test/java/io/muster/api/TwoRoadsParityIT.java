package io.muster.api;

import io.muster.testing.Await;
import io.muster.testing.Http;
import io.muster.testing.Http.Reply;
import io.muster.testing.PackagedWar;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same requests through the servlet fast paths and through Jersey (the same WAR with
 * {@code eureka.server.fastPaths=false}) get the same answers: status, the headers clients read, and body. Each
 * server gets the same writes in the same order, so their registries match but for timestamps.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class TwoRoadsParityIT {
    @Deployment(name = "fast", testable = false)
    static WebArchive fast() {
        return PackagedWar.named("fast", Map.of());
    }

    @Deployment(name = "jaxrs", testable = false)
    static WebArchive jaxrs() {
        return PackagedWar.named("jaxrs", Map.of("eureka.server.fastPaths", "false"));
    }

    @ArquillianResource
    @OperateOnDeployment("fast")
    URL fastUrl;

    @ArquillianResource
    @OperateOnDeployment("jaxrs")
    URL jaxrsUrl;

    private record Call(String method, String path, String body, String... headers) {
        @Override
        public String toString() {
            return method + " " + path + " " + String.join(" ", headers);
        }
    }

    private static final String JSON = "application/json";
    private static final String SPRING_ID = "10.0.0.1:parity:8080";

    @Test
    void bothRoadsAnswerEveryHotEndpointAlike() throws Exception {
        Http fast = new Http(fastUrl.toString());
        Http jaxrs = new Http(jaxrsUrl.toString());
        List<Call> writes = List.of(
                new Call("POST", "apps/PARITY", instanceJson("PARITY", "p-1", "UP", 1000), "Content-Type", JSON),
                new Call("POST", "v2/apps/parity", instanceJson("PARITY", SPRING_ID, "UP", 1000),
                        "Content-Type", "application/json; charset=UTF-8"),
                new Call("POST", "apps/OTHER", instanceJson("PARITY", "p-2", "UP", 1000), "Content-Type", JSON),
                new Call("POST", "apps/PARITY", instanceJson("PARITY", "p-3", "UP", 1000), "Content-Type", "foo/notjson"),
                new Call("POST", "apps/PARITY", "{not json", "Content-Type", JSON),
                new Call("POST", "apps/PARITY", "", "Content-Type", JSON),
                new Call("PUT", "apps/PARITY/p-1", null),
                new Call("PUT", "v2/apps/PARITY/10.0.0.1%3Aparity%3A8080", null),
                new Call("PUT", "apps/PARITY/" + SPRING_ID + "?lastDirtyTimestamp=1000&status=UP", null),
                new Call("PUT", "apps/PARITY/p-1?lastDirtyTimestamp=soon", null),
                new Call("PUT", "apps/PARITY/nobody", null),
                new Call("PUT", "apps/PARITY/p-1?overriddenstatus=OUT_OF_SERVICE", null),
                new Call("DELETE", "apps/PARITY/nobody", null),
                new Call("POST", "apps/GONE", instanceJson("GONE", "g-1", "UP", 1000), "Content-Type", JSON),
                new Call("DELETE", "apps/GONE/g-1", null));
        for (Call call : writes) {
            assertAlike(call, fast, jaxrs);
        }
        for (Http road : List.of(fast, jaxrs)) {
            // the last write (g-1's cancel) in the delta, and the VIP view refreshed: every cached view caught up
            awaitVisible(road, "apps/PARITY", SPRING_ID);
            awaitVisible(road, "apps/delta", "\"DELETED\"");
            awaitVisible(road, "vips/parity", SPRING_ID);
        }
        List<Call> reads = new ArrayList<>();
        for (String path : List.of("apps/", "v2/apps", "apps/delta", "apps/PARITY", "apps/parity", "apps/NONE",
                "vips/parity", "svips/parity-secure", "vips/none", "apps/PARITY/p-1", "apps/PARITY/nobody",
                "instances/p-1", "instances/" + SPRING_ID.replace(":", "%3A"), "instances/nobody")) {
            reads.add(new Call("GET", path, null));
            reads.add(new Call("GET", path, null, "Accept", JSON));
            reads.add(new Call("GET", path, null, "Accept", JSON, "Accept-Encoding", "gzip"));
            reads.add(new Call("GET", path, null, "Accept", "application/xml", "X-Eureka-Accept", "compact"));
            reads.add(new Call("HEAD", path, null, "Accept", JSON));
        }
        for (Call call : reads) {
            assertAlike(call, fast, jaxrs);
        }
    }

    private static void assertAlike(Call call, Http fast, Http jaxrs) {
        Reply a = fast.send(call.method(), call.path(), call.body(), call.headers());
        Reply b = jaxrs.send(call.method(), call.path(), call.body(), call.headers());
        assertThat(b.status()).as("status of " + call).isEqualTo(a.status());
        for (String header : List.of("Content-Encoding", "Vary", "Retry-After", "Allow")) {
            assertThat(b.header(header)).as(header + " of " + call).isEqualTo(a.header(header));
        }
        assertThat(mediaType(b.header("Content-Type"))).as("Content-Type of " + call)
                .isEqualTo(mediaType(a.header("Content-Type")));
        assertThat(timeless(b.text())).as("body of " + call).isEqualTo(timeless(a.text()));
    }

    private static String mediaType(String contentType) {
        return contentType == null ? null : contentType.replace(" ", "").toLowerCase();
    }

    /** Registration and renewal times differ between the two servers; nothing else may. */
    private static String timeless(String body) {
        return body.replaceAll("\\d{13}", "T").replaceAll("internal error [0-9a-f-]+", "internal error");
    }

    private static void awaitVisible(Http http, String path, String text) throws InterruptedException {
        Await.until("'" + text + "' in " + path, Duration.ofSeconds(5), () -> http.getJson(path).body(),
                body -> body.contains(text));
    }
}
