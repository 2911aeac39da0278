package io.muster.api;

import io.muster.testing.Await;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

import java.time.Duration;
import java.net.URL;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The audit trail over HTTP on embedded Payara: a client's status override, an operator's dashboard action and a
 * client's cancellation appear in {@code /api/audit} with who, from where and the result, newest first, filtered
 * by app, instance and time; a peer's replicated write does not (it was audited where it was asked for); and only
 * operators may read it.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class AuditIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ArquillianResource
    URL base;
    Http anonymous;
    /** The realm's operator: the only caller that may read the trail. */
    Http admin;

    @Deployment(testable = false)
    static WebArchive war() {
        return PackagedWar.load();
    }

    @BeforeEach
    void callers() throws Exception {
        EmbeddedRealm.ensureUsers();
        anonymous = new Http(base.toString());
        admin = anonymous.as(EmbeddedRealm.ADMIN, EmbeddedRealm.ADMIN_PASSWORD);
        for (String app : new String[]{"AUDITED", "LEAVING"}) {
            for (int i = 1; i <= 2; i++) {
                String id = app.substring(0, 1).toLowerCase(java.util.Locale.ROOT) + "-" + i;
                assertThat(anonymous.postJson("apps/" + app, instanceJson(app, id, "UP", 1000)).status())
                        .isEqualTo(204);
            }
        }
    }

    private List<JsonNode> audit(String query) throws Exception {
        Reply r = admin.getJson("api/audit" + query);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<JsonNode> out = new ArrayList<>();
        JSON.readTree(r.body()).get("entries").forEach(out::add);
        return out;
    }

    /** Entries are appended off the request thread: give the lane a moment. */
    private List<JsonNode> auditOf(String query, int expected) throws Exception {
        return Await.until(expected + " audit entries for " + query, Duration.ofSeconds(10), () -> {
            try {
                return audit(query);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, found -> found.size() >= expected);
    }

    @Test
    void aClientsOverrideAndAnOperatorsActionAreRecordedWithWhoWhereAndTheResult() throws Exception {
        Instant before = Instant.now().minusSeconds(1);
        // client endpoints are open by default, so the container names no principal: the address says who
        assertThat(anonymous.send("PUT", "apps/AUDITED/a-1/status?value=OUT_OF_SERVICE", null,
                "DiscoveryIdentity-Name", "DefaultClient", "DiscoveryIdentity-Version", "1.10.17",
                "DiscoveryIdentity-Id", "host-a-1").status()).isEqualTo(200);
        String token = admin.getJson("api/admin/csrf").body().replaceAll(".*\"token\":\"([0-9a-f]+)\".*", "$1");
        assertThat(admin.send("POST", "api/admin/instances/AUDITED/a-2/out-of-service", "", "X-Muster-CSRF", token)
                .status()).isEqualTo(200);
        assertThat(admin.send("POST", "api/admin/instances/AUDITED/nobody/deregister", "", "X-Muster-CSRF", token)
                .status()).as("an action on no instance").isEqualTo(404);

        List<JsonNode> entries = auditOf("?app=audited", 3);
        assertThat(entries).hasSize(3);
        JsonNode failed = entries.get(0);
        assertThat(failed.get("action").asText()).isEqualTo("deregistered");
        assertThat(failed.get("who").asText()).isEqualTo("operator admin");
        assertThat(failed.get("status").asInt()).isEqualTo(404);
        assertThat(failed.get("result").asText()).isEqualTo("failed");

        JsonNode operator = entries.get(1);
        assertThat(operator.get("action").asText()).isEqualTo("override-set");
        assertThat(operator.get("who").asText()).isEqualTo("operator admin");
        assertThat(operator.get("from").get("address").asText()).isEqualTo("127.0.0.1");
        assertThat(operator.get("app").asText()).isEqualTo("AUDITED");
        assertThat(operator.get("instance").asText()).isEqualTo("a-2");
        assertThat(operator.get("value").asText()).isEqualTo("OUT_OF_SERVICE");
        assertThat(operator.get("result").asText()).isEqualTo("ok");
        assertThat(operator.get("status").asInt()).isEqualTo(200);
        assertThat(Instant.parse(operator.get("at").asText())).isAfter(before).isBefore(Instant.now().plusSeconds(1));

        JsonNode byClient = entries.get(2);
        assertThat(byClient.get("who").asText()).isEqualTo("anonymous client 127.0.0.1");
        assertThat(byClient.get("instance").asText()).isEqualTo("a-1");
        assertThat(byClient.get("from").get("address").asText()).isEqualTo("127.0.0.1");
        assertThat(byClient.get("from").get("identityName").asText()).isEqualTo("DefaultClient");
        assertThat(byClient.get("from").get("identityVersion").asText()).isEqualTo("1.10.17");
        assertThat(byClient.get("from").get("identityId").asText()).isEqualTo("host-a-1");
        assertThat(byClient.get("sequence").asLong()).isLessThan(operator.get("sequence").asLong());

        assertThat(audit("?app=AUDITED&instance=a-1")).singleElement()
                .satisfies(e -> assertThat(e.get("value").asText()).isEqualTo("OUT_OF_SERVICE"));
        assertThat(audit("?app=AUDITED&limit=1")).hasSize(1);
        assertThat(audit("?app=AUDITED&since=" + before.toEpochMilli())).hasSize(3);
        assertThat(audit("?app=AUDITED&since=" + before)).hasSize(3);
        assertThat(audit("?app=AUDITED&since=" + Instant.now().plusSeconds(3600))).isEmpty();
        assertThat(audit("?app=NOT-AUDITED")).isEmpty();
    }

    @Test
    void aClientsCancellationIsADeregistrationByItButAPeersReplicatedOneIsNot() throws Exception {
        Http peer = anonymous.as(EmbeddedRealm.PEER, EmbeddedRealm.PEER_PASSWORD);
        assertThat(peer.send("DELETE", "apps/LEAVING/l-2", null, "x-netflix-discovery-replication", "true")
                .status()).isEqualTo(200);
        assertThat(anonymous.getJson("apps/LEAVING/l-2").status()).isEqualTo(404);
        assertThat(anonymous.delete("v2/apps/LEAVING/l-1").status()).isEqualTo(200);

        // the trail appends in the order it was given: had the replicated cancel been recorded, it came first
        assertThat(auditOf("?app=LEAVING&instance=l-1", 1)).hasSize(1);
        assertThat(audit("?app=LEAVING")).singleElement().satisfies(e -> {
            assertThat(e.get("action").asText()).isEqualTo("deregistered");
            assertThat(e.get("instance").asText()).isEqualTo("l-1");
            assertThat(e.get("who").asText()).isEqualTo("anonymous client 127.0.0.1");
            assertThat(e.get("result").asText()).isEqualTo("ok");
        });
    }

    /** Client authentication is off by default: credentials a client sends are named as its claim, not vouched for. */
    @Test
    void aClientThatSendsCredentialsNobodyChecksIsRecordedAsAnonymousWithTheNameItClaims() throws Exception {
        Http claiming = anonymous.as("orders-svc", "not-checked");
        assertThat(claiming.postJson("apps/CLAIMING", instanceJson("CLAIMING", "c-1", "UP", 1000)).status())
                .isEqualTo(204);
        assertThat(claiming.delete("apps/CLAIMING/c-1").status()).isEqualTo(200);
        assertThat(auditOf("?app=CLAIMING", 1)).singleElement().satisfies(e ->
                assertThat(e.get("who").asText()).isEqualTo("anonymous client 127.0.0.1 (claims orders-svc)"));
    }

    @Test
    void onlyOperatorsReadTheTrailAndABadQueryIsA400() {
        assertThat(anonymous.getJson("api/audit").status()).isEqualTo(401);
        for (String[] user : new String[][]{{EmbeddedRealm.CLIENT, EmbeddedRealm.CLIENT_PASSWORD},
                {EmbeddedRealm.PEER, EmbeddedRealm.PEER_PASSWORD}, {EmbeddedRealm.NOBODY, EmbeddedRealm.NOBODY_PASSWORD}}) {
            assertThat(anonymous.as(user[0], user[1]).getJson("api/audit").status()).as(user[0]).isEqualTo(403);
        }
        Reply badSince = admin.getJson("api/audit?since=yesterday");
        assertThat(badSince.status()).isEqualTo(400);
        assertThat(badSince.body()).contains("ISO-8601", "epoch milliseconds");
        assertThat(admin.getJson("api/audit?limit=0").status()).isEqualTo(400);
        assertThat(admin.getJson("api/audit?limit=many").status()).isEqualTo(400);
        assertThat(admin.getJson("api/audit?limit=100000").body()).contains("\"limit\":1000");
    }
}
