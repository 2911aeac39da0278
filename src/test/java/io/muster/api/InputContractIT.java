package io.muster.api;

import io.muster.testing.Await;
import io.muster.testing.EmbeddedRealm;
import io.muster.testing.Http;
import io.muster.testing.Http.Reply;
import io.muster.testing.PackagedWar;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import javax.xml.parsers.DocumentBuilderFactory;
import java.time.Duration;
import java.io.ByteArrayInputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the registry refuses, over HTTP: each input that once made the registry unreadable for some client is a 4xx
 * with a one-line reason, and the registry is unchanged; a registry-wide cap is a 503 with Retry-After.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class InputContractIT {
    @Deployment(name = "default", testable = false)
    static WebArchive war() {
        return PackagedWar.named("contract", Map.of());
    }

    @Deployment(name = "small", testable = false)
    static WebArchive small() {
        return PackagedWar.named("small", Map.of("eureka.server.maxInstancesPerApp", "2"));
    }

    @ArquillianResource
    @OperateOnDeployment("default")
    URL base;

    @ArquillianResource
    @OperateOnDeployment("small")
    URL smallBase;

    Http http;

    @BeforeEach
    void registered() throws Exception {
        EmbeddedRealm.ensureUsers();
        http = new Http(base.toString());
        assertThat(http.postJson("apps/APPA", instanceJson("APPA", "a1", "UP", 1000)).status()).isEqualTo(204);
    }

    @Test
    void aDataCenterNameNoJavaClientCanDecodeIsRefused() {
        String body = instanceJson("X", "x-1", "UP", 1000).replace(
                "{\"@class\":\"com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo\",\"name\":\"MyOwn\"}",
                "{\"@class\":\"no.such.Class\",\"name\":\"Nope\"}");
        Reply r = http.postJson("apps/X", body);
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body()).doesNotContain("\n\n").isNotBlank();
        assertThat(http.getJson("apps/X/x-1").status()).isEqualTo(404);
    }

    @Test
    void metadataKeysThatAreNotXmlNamesAreRefusedAndTheXmlRegistryStaysWellFormed() throws Exception {
        Await.until("a1 in the registry's reads", Duration.ofSeconds(10), () -> http.get("apps/").body(),
                body -> body.contains("<instanceId>a1</instanceId>"));
        String before = http.get("apps/").header("X-Muster-Index");
        for (String key : new String[]{"%40class", "a%3Eb", "--%3E%3Capplication%3E", "1abc", "x%20y"}) {
            assertThat(http.put("apps/APPA/a1/metadata?" + key + "=evil").status()).as(key).isEqualTo(400);
        }
        assertThat(http.getJson("apps/APPA/a1").body()).doesNotContain("evil");
        Reply registry = http.get("apps/");
        assertThat(registry.header("X-Muster-Index")).as("no change was made").isEqualTo(before);
        byte[] xml = registry.raw();
        DocumentBuilderFactory strict = DocumentBuilderFactory.newInstance();
        strict.setNamespaceAware(true);
        assertThat(strict.newDocumentBuilder().parse(new ByteArrayInputStream(xml)).getDocumentElement()
                .getTagName()).isEqualTo("applications");
        assertThat(new String(xml, StandardCharsets.UTF_8)).doesNotContain("evil");
    }

    @Test
    void peerBatchItemsGoThroughTheSameRules() {
        Http peer = http.as(EmbeddedRealm.PEER, EmbeddedRealm.PEER_PASSWORD);
        String batch = "{\"replicationList\":["
                + "{\"appName\":\"PB\",\"id\":\"p2\",\"action\":\"Register\",\"instanceInfo\":{\"instanceId\":\"p2\",\"app\":\"PB\"}},"
                + "{\"appName\":\"PB\",\"action\":\"Register\",\"instanceInfo\":{\"app\":\"PB\"}},"
                + "{\"appName\":\"APPA\",\"id\":\"other\",\"action\":\"Register\",\"instanceInfo\":"
                + instanceJson("APPA", "a9", "UP", 1000).replaceFirst("^\\{\"instance\":", "").replaceFirst("}$", "")
                + "}]}";
        Reply r = peer.send("POST", "peerreplication/batch", batch, "Content-Type", "application/json");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("{\"responseList\":[{\"statusCode\":400},{\"statusCode\":400},"
                + "{\"statusCode\":400}]}");
        assertThat(http.getJson("apps/PB").status()).isEqualTo(404);
        assertThat(http.getJson("apps/APPA/a9").status()).isEqualTo(404);
        assertThat(http.getJson("apps/APPA/other").status()).isEqualTo(404);
    }

    @Test
    void strictParsingAndBoundedSizes() {
        assertThat(http.send("POST", "apps/Y", instanceJson("Y", "y-1", "UP", 1000), "Content-Type",
                "foo/notjson").status()).isEqualTo(415);
        assertThat(http.postJson("apps/Y", instanceJson("Y", "y-1", "UP", 1000)
                .replace("\"hostName\":\"host-y-1\"", "\"hostName\":\"host-y-1\",\"hostName\":\"evil\"")).status())
                .as("duplicate keys").isEqualTo(400);
        Reply longHost = http.postJson("apps/Y", instanceJson("Y", "y-1", "UP", 1000)
                .replace("\"hostName\":\"host-y-1\"", "\"hostName\":\"" + "h".repeat(300) + "\""));
        assertThat(longHost.status()).isEqualTo(400);
        assertThat(longHost.body()).contains("maxFieldLength");
        Reply forever = http.postJson("apps/Y", instanceJson("Y", "y-1", "UP", 1000)
                .replace("\"durationInSecs\":90", "\"durationInSecs\":99999999999999"));
        assertThat(forever.status()).isEqualTo(400);
        assertThat(http.postJson("apps/Y", "{\"instance\":{\"hostName\":\"" + "h".repeat(3 << 19) + "\"}}")
                .status()).isEqualTo(413);
        assertThat(http.getJson("apps/Y").status()).isEqualTo(404);
    }

    @Test
    void aFullAppIs503WithRetryAfterAndRoomComesBackAfterACancel() {
        Http small = new Http(smallBase.toString());
        assertThat(small.postJson("apps/CAPPED", instanceJson("CAPPED", "c-1", "UP", 1000)).status()).isEqualTo(204);
        assertThat(small.postJson("apps/CAPPED", instanceJson("CAPPED", "c-2", "UP", 1000)).status()).isEqualTo(204);
        Reply full = small.postJson("apps/CAPPED", instanceJson("CAPPED", "c-3", "UP", 1000));
        assertThat(full.status()).isEqualTo(503);
        assertThat(full.header("Retry-After")).isNotNull();
        assertThat(full.body()).contains("maxInstancesPerApp");
        assertThat(small.postJson("apps/CAPPED", instanceJson("CAPPED", "c-1", "UP", 2000)).status())
                .as("re-registering a known instance always works").isEqualTo(204);
        assertThat(small.delete("apps/CAPPED/c-2").status()).isEqualTo(200);
        assertThat(small.postJson("apps/CAPPED", instanceJson("CAPPED", "c-3", "UP", 1000)).status()).isEqualTo(204);
    }
}
