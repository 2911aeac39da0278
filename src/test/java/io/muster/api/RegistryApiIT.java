package io.muster.api;

import io.muster.testing.Await;
import io.muster.testing.EmbeddedRealm;
import io.muster.testing.Http;
import io.muster.testing.PackagedWar;
import io.muster.testing.Http.Reply;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.net.URL;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The REST API of the packaged WAR, deployed in embedded Payara and called over HTTP: every endpoint and status
 * code, JSON and XML, at both {@code /apps} (Spring Cloud) and {@code /v2/apps} (Netflix).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class RegistryApiIT {
    @Deployment(testable = false)
    static WebArchive war() {
        return PackagedWar.load();
    }

    @ArquillianResource
    URL base;
    Http http;

    Http admin;

    @BeforeEach
    void client() throws Exception {
        EmbeddedRealm.ensureUsers();
        http = new Http(base.toString());
        admin = http.as(EmbeddedRealm.ADMIN, EmbeddedRealm.ADMIN_PASSWORD);
    }

    private void register(String app, String id) {
        assertThat(http.postJson("apps/" + app, instanceJson(app, id, "UP", 1000)).status()).isEqualTo(204);
    }

    @Test
    void registerAnswers204AndTheInstanceIsReadableInJsonAndXml() {
        Reply r = http.postJson("v2/apps/REG", instanceJson("REG", "reg-1", "UP", 1000));
        assertThat(r.status()).isEqualTo(204);
        assertThat(r.body()).isEmpty();
        Reply json = http.getJson("apps/reg/reg-1");
        assertThat(json.status()).isEqualTo(200);
        assertThat(json.header("Content-Type")).startsWith("application/json");
        assertThat(json.body()).startsWith("{\"instance\":{\"instanceId\":\"reg-1\"")
                .contains("\"port\":{\"$\":8080,\"@enabled\":\"true\"}", "\"management.port\":\"8080\"");
        Reply xml = http.get("v2/apps/REG/reg-1/", "Accept", "application/xml");
        assertThat(xml.header("Content-Type")).startsWith("application/xml");
        assertThat(xml.body()).startsWith("<instance>").contains("<port enabled=\"true\">8080</port>");
        assertThat(http.getJson("instances/reg-1").body()).contains("\"app\":\"REG\"");
        assertThat(http.getJson("v2/instances/reg-1").status()).isEqualTo(200);
    }

    @Test
    void xmlRegistrationIsAccepted() {
        String xml = "<instance><instanceId>x-1</instanceId><hostName>h</hostName><app>XMLAPP</app>"
                + "<ipAddr>127.0.0.1</ipAddr><status>UP</status><port enabled=\"true\">9090</port>"
                + "<dataCenterInfo class=\"com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo\">"
                + "<name>MyOwn</name></dataCenterInfo></instance>";
        assertThat(http.send("POST", "apps/XMLAPP", xml, "Content-Type", "application/xml").status()).isEqualTo(204);
        assertThat(http.getJson("apps/XMLAPP/x-1").body()).contains("\"$\":9090");
    }

    @Test
    void heartbeatAnswers200Or404WithAnEmptyBody() {
        register("HB", "hb-1");
        Reply ok = http.send("PUT", "apps/HB/hb-1?status=UP&lastDirtyTimestamp=1000", "{}",
                "Content-Type", "application/json", "Accept", "application/json");
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.raw()).isEmpty();
        Reply missing = http.put("v2/apps/HB/nobody");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.raw()).isEmpty();
        Reply newer = http.put("apps/HB/hb-1?lastDirtyTimestamp=2000");
        assertThat(newer.status()).as("client copy newer: register again").isEqualTo(404);
        assertThat(newer.raw()).isEmpty();
        Reply bad = http.put("apps/HB/hb-1?lastDirtyTimestamp=abc");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body()).contains("lastDirtyTimestamp must be a number");
    }

    @Test
    void heartbeatIsAcceptedInEveryUrlForm() {
        assertThat(http.postJson("v2/apps/hbforms/", instanceJson("HBFORMS", "f-1", "UP", 1000)).status())
                .as("app names are case-insensitive, trailing slash or not").isEqualTo(204);
        register("HBFORMS", "f:2");
        for (String path : new String[]{"apps/HBFORMS/f-1/", "v2/apps/HBFORMS/f-1", "V2/apps/HBFORMS/f-1/",
                "apps/HBFORMS/f%3A2", "v2/apps/HBFORMS/f%3A2/"}) {
            Reply r = http.put(path);
            assertThat(r.status()).as(path).isEqualTo(200);
            assertThat(r.raw()).as(path).isEmpty();
        }
        assertThat(http.put("apps/HBFORMS/f%3A9").status()).isEqualTo(404);
    }

    @Test
    void replicatedHeartbeatWithAnOlderCopyGets409WithOurInstance() {
        http.postJson("apps/CONF", instanceJson("CONF", "c-1", "UP", 5000));
        Http peer = http.as(EmbeddedRealm.PEER, EmbeddedRealm.PEER_PASSWORD);
        Reply r = peer.send("PUT", "apps/CONF/c-1?lastDirtyTimestamp=1000", null,
                "x-netflix-discovery-replication", "true", "Accept", "application/json");
        assertThat(r.status()).isEqualTo(409);
        assertThat(r.body()).contains("\"lastDirtyTimestamp\":\"5000\"");
        Reply client = http.put("apps/CONF/c-1?lastDirtyTimestamp=1000");
        assertThat(client.status()).as("a normal client is not told").isEqualTo(200);
    }

    @Test
    void cancelAnswers200ThenTheInstanceIsGone() {
        register("CAN", "can-1");
        assertThat(http.delete("apps/CAN/can-1").status()).isEqualTo(200);
        assertThat(http.delete("apps/CAN/can-1").status()).isEqualTo(404);
        assertThat(http.getJson("apps/CAN/can-1").status()).isEqualTo(404);
        assertThat(http.getJson("apps/CAN").status()).isEqualTo(404);
    }

    @Test
    void statusOverrideAndItsRemoval() {
        register("OVR", "o-1");
        assertThat(admin.put("apps/OVR/o-1/status?value=OUT_OF_SERVICE").status()).isEqualTo(200);
        assertThat(http.getJson("apps/OVR/o-1").body())
                .contains("\"status\":\"OUT_OF_SERVICE\"", "\"overriddenStatus\":\"OUT_OF_SERVICE\"");
        assertThat(http.put("apps/OVR/o-1?status=UP").status()).isEqualTo(200);
        assertThat(http.getJson("apps/OVR/o-1").body()).contains("\"status\":\"OUT_OF_SERVICE\"");
        assertThat(admin.delete("apps/OVR/o-1/status").status()).isEqualTo(200);
        assertThat(http.getJson("apps/OVR/o-1").body()).contains("\"status\":\"UNKNOWN\"");
        assertThat(http.put("apps/OVR/o-1").status()).as("UNKNOWN makes the client re-register").isEqualTo(404);
        assertThat(admin.put("apps/OVR/nobody/status?value=UP").status()).isEqualTo(404);
        assertThat(admin.delete("apps/OVR/nobody/status").status()).isEqualTo(404);
    }

    @Test
    void unknownStatusValueIs400AndChangesNothing() {
        register("BADSTAT", "b-1");
        Reply r = admin.put("apps/BADSTAT/b-1/status?value=BOGUS");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body()).startsWith("Unknown status value: BOGUS");
        assertThat(admin.put("apps/BADSTAT/b-1/status").status()).isEqualTo(400);
        assertThat(admin.delete("apps/BADSTAT/b-1/status?value=up").status()).isEqualTo(400);
        assertThat(http.getJson("apps/BADSTAT/b-1").body()).contains("\"status\":\"UP\"");
    }

    @Test
    void metadataUpdateIsVisibleInFetches() {
        register("META", "m-1");
        assertThat(http.put("apps/META/m-1/metadata?weight=5&zone=b").status()).isEqualTo(200);
        assertThat(http.getJson("apps/META/m-1").body()).contains("\"weight\":\"5\"", "\"management.port\":\"8080\"");
        assertThat(http.put("apps/META/nobody/metadata?a=b").status()).isEqualTo(404);
    }

    @Test
    void appVipAndSecureVipFetchesInBothFormats() {
        register("VIPAPP", "v-1");
        assertThat(http.getJson("apps/VIPAPP").body()).startsWith("{\"application\":{\"name\":\"VIPAPP\",\"instance\":[");
        assertThat(http.get("v2/apps/vipapp/").body()).startsWith("<application><name>VIPAPP</name>");
        assertThat(http.getJson("vips/vipapp").body()).contains("\"versions__delta\":\"-1\"", "\"instanceId\":\"v-1\"");
        assertThat(http.getJson("svips/vipapp-secure").body()).contains("\"instanceId\":\"v-1\"");
        Reply none = http.getJson("v2/vips/no-such-vip");
        assertThat(none.status()).isEqualTo(200);
        assertThat(none.body()).contains("\"application\":[]");
        assertThat(http.getJson("apps/NO-SUCH-APP").status()).isEqualTo(404);
    }

    @Test
    void fullRegistryAndDeltaInJsonXmlGzipAndCompact() {
        register("FULL", "f-1");
        Reply json = awaitInFullFetch("\"f-1\"");
        assertThat(json.status()).isEqualTo(200);
        assertThat(json.body()).startsWith("{\"applications\":{\"versions__delta\":\"1\",\"apps__hashcode\":\"")
                .contains("\"instanceId\":\"f-1\"");
        Reply xml = http.get("v2/apps");
        assertThat(xml.body()).startsWith("<applications><versions__delta>1</versions__delta>");
        Reply gz = http.get("apps/", "Accept", "application/json", "Accept-Encoding", "gzip");
        assertThat(gz.header("Content-Encoding")).isEqualTo("gzip");
        assertThat(gz.header("Content-Type")).startsWith("application/json");
        assertThat(gz.text()).isEqualTo(json.body());
        Reply compact = http.get("apps", "Accept", "application/json", "X-Eureka-Accept", "compact");
        assertThat(compact.body()).contains("\"instanceId\":\"f-1\"").doesNotContain("leaseInfo");
        Reply delta = awaitDelta("\"f-1\"");
        assertThat(delta.status()).isEqualTo(200);
        assertThat(delta.body()).contains("\"instanceId\":\"f-1\"", "\"actionType\":\"ADDED\"");
        assertThat(http.get("apps/delta?regions=eu-west-1", "Accept", "application/xml").body())
                .startsWith("<applications>");
    }

    @Test
    void aChangeReplacesAWarmCachedFetch() {
        http.getJson("apps/");   // warm the cached entry so the change must replace it
        register("FRESH", "fr-1");
        // how soon is the cache's business (its unit tests drive its clock); here only that it happens at all
        assertThat(await("apps/", "\"fr-1\"").body()).contains("\"fr-1\"");
        assertThat(await("apps/delta", "\"fr-1\"").body()).contains("\"fr-1\"");
    }

    @Test
    void badRegistrationsAre4xxWithAMessageAndChangeNothing() {
        String ok = instanceJson("BAD", "bad-1", "UP", 1000);
        assertBad(http.postJson("apps/BAD", "{\"instance\":{\"app\":"), 400, "cannot parse request body");
        assertBad(http.postJson("apps/BAD", "not json"), 400, "cannot parse request body");
        assertBad(http.postJson("apps/BAD", ok.replace("\"hostName\":\"host-bad-1\",", "")
                .replace("\"instanceId\":\"bad-1\",", "")), 400, "Missing instanceId");
        assertBad(http.postJson("apps/BAD", ok.replace("\"ipAddr\":\"127.0.0.1\",", "")), 400, "Missing ip address");
        assertBad(http.postJson("apps/BAD", ok.replace("\"app\":\"BAD\",", "")), 400, "Missing appName");
        assertBad(http.postJson("apps/OTHER", ok), 400, "Mismatched appName, expecting OTHER but was BAD");
        assertBad(http.postJson("apps/BAD", ok.replaceAll("\"dataCenterInfo\":\\{[^}]*},", "")), 400,
                "Missing dataCenterInfo");
        assertBad(http.send("POST", "apps/BAD", ok, "Content-Type", "text/plain"), 415, "Content-Type");
        assertBad(http.send("POST", "apps/BAD", "<instance>", "Content-Type", "application/xml"), 400,
                "cannot parse request body");
        String huge = ok.replace("\"management.port\":\"8080\"", "\"pad\":\"" + "x".repeat(1_100_000) + "\"");
        assertThat(http.postJson("apps/BAD", huge).status()).isEqualTo(413);
        assertThat(http.getJson("apps/BAD").status()).isEqualTo(404);
        assertThat(http.getJson("apps/OTHER").status()).isEqualTo(404);
    }

    /** Fetches are cached: a change shows within a second (see aChangeIsVisibleInFetchesWithinASecond). */
    private Reply awaitInFullFetch(String text) {
        return await("apps/", text);
    }

    private Reply awaitDelta(String text) {
        return await("v2/apps/delta", text);
    }

    /** Polls until the body contains the text or a deadline generous enough for a loaded machine passes. */
    private Reply await(String path, String text) {
        return Await.until("'" + text + "' in " + path, Duration.ofSeconds(10), () -> http.getJson(path),
                r -> r.body().contains(text));
    }

    private static void assertBad(Reply r, int status, String message) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.body()).contains(message).doesNotContain("Exception").doesNotContain("<html");
        assertThat(r.body().strip().lines().count()).isEqualTo(1);
    }

    /**
     * Overrides belong to an application's instance, not to an id: an attacker's app reusing the victim's instance
     * id can neither set the victim's override, nor clear or inherit the operator's. Eureka keys them by id alone.
     */
    @Test
    void anotherApplicationsInstanceWithTheSameIdCannotSetClearOrInheritAnOverride() {
        register("VICTIM-K", "k-1");
        register("ATTACK-K", "k-1");
        assertThat(http.put("apps/ATTACK-K/k-1/status?value=OUT_OF_SERVICE").status()).isEqualTo(200);
        assertThat(http.put("apps/VICTIM-K/k-1").status()).as("the victim's heartbeat").isEqualTo(200);
        assertThat(http.getJson("apps/VICTIM-K/k-1").body()).contains("\"status\":\"UP\"");

        String token = admin.getJson("api/admin/csrf").body().replaceAll(".*\"token\":\"([0-9a-f]+)\".*", "$1");
        assertThat(admin.send("POST", "api/admin/instances/VICTIM-K/k-1/out-of-service", "", "X-Muster-CSRF", token)
                .status()).isEqualTo(200);
        String status = http.getJson("api/status").body();
        assertThat(status).as("who set it is shown; each of the two k-1 overrides once, with its app")
                .contains("\"app\":\"VICTIM-K\"", "\"setBy\":\"operator admin\"", "\"app\":\"ATTACK-K\"")
                .containsPattern("\"statusOverrideCount\":[2-9]")
                .doesNotContain("\"statusOverrides\"");
        assertThat(http.delete("apps/ATTACK-K/k-1/status?value=UP").status()).isEqualTo(200);
        assertThat(http.delete("apps/ATTACK-K/k-1").status()).isEqualTo(200);
        register("ATTACK-K", "k-1");
        assertThat(http.delete("apps/ATTACK-K/k-1").status()).isEqualTo(200);
        assertThat(http.put("apps/VICTIM-K/k-1").status()).isEqualTo(200);
        assertThat(http.getJson("apps/VICTIM-K/k-1").body()).as("the operator's override stands")
                .contains("\"status\":\"OUT_OF_SERVICE\"");

        assertThat(admin.send("POST", "api/admin/instances/VICTIM-K/k-1/remove-override", "", "X-Muster-CSRF",
                token).status()).as("and the operator's removal still clears it").isEqualTo(200);
        register("VICTIM-K", "k-1");
        assertThat(http.getJson("apps/VICTIM-K/k-1").body()).contains("\"status\":\"UP\"");
        assertThat(http.delete("apps/VICTIM-K/k-1").status()).isEqualTo(200);
    }

    @Test
    void statusAndHealthDocuments() {
        assertThat(http.getJson("status").body()).contains("\"generalStats\"", "\"num-of-cpus\"");
        assertThat(http.get("v2/status").body()).startsWith("<status><generalStats>");
        Reply ready = http.get("health/ready");
        assertThat(ready.status()).isEqualTo(200);
        assertThat(ready.body()).contains("\"status\":\"UP\"");
        assertThat(http.get("health/live").status()).isEqualTo(200);
        assertThat(http.get("health/started").body()).contains("\"name\":\"start-up-sync\",\"status\":\"UP\"");
        Reply all = http.get("health");
        assertThat(all.status()).isEqualTo(200);
        assertThat(all.body()).contains("start-up-sync", "registry", "reads");
        Reply doc = http.get("api/status");
        assertThat(doc.body()).contains("\"renewalThreshold\"", "\"leaseExpirationEnabled\"", "\"reason\"");
    }

    private int selfPreservationNumber(String name) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"" + name + "\":(\\d+)")
                .matcher(http.get("api/status").body());
        assertThat(m.find()).as(name).isTrue();
        return Integer.parseInt(m.group(1));
    }

    @Test
    void onlyInstancesThatRenewAreExpectedToRenew() {
        int expected = selfPreservationNumber("expectedClients");
        int never = selfPreservationNumber("neverRenewed");
        for (int i = 0; i < 3; i++) {
            register("JUNK", "junk-" + i);
        }
        register("RENEWING", "renewing-1");
        for (int i = 0; i < 20; i++) {   // a flood: still one expected client
            assertThat(http.put("apps/RENEWING/renewing-1").status()).isEqualTo(200);
        }
        assertThat(selfPreservationNumber("expectedClients")).isEqualTo(expected + 1);
        assertThat(selfPreservationNumber("neverRenewed")).isEqualTo(never + 3);
        assertThat(http.get("api/status").body()).contains("registered but never renewed are not expected");
        for (int i = 0; i < 3; i++) {
            assertThat(http.delete("apps/JUNK/junk-" + i).status()).isEqualTo(200);
        }
        assertThat(http.delete("apps/RENEWING/renewing-1").status()).isEqualTo(200);
        assertThat(selfPreservationNumber("expectedClients")).isEqualTo(expected);
        assertThat(selfPreservationNumber("neverRenewed")).isEqualTo(never);
    }

    @Test
    void unknownPathIsAnEmpty404() {
        Reply r = http.get("no/such/thing");
        assertThat(r.status()).isEqualTo(404);
        assertThat(r.body()).doesNotContain("<html");
    }
}
