package io.muster.api;

import io.muster.testing.AttackMatrix;
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

import java.net.URL;
import java.util.List;
import java.util.Set;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Container-managed security on embedded Payara's file realm: for each protected endpoint, anonymous callers get
 * 401, callers without the role 403, callers with it through, whatever the path's spelling. Client endpoints
 * (status overrides among them, as in Eureka) stay open by default.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class SecurityIT {
    @Deployment(testable = false)
    static WebArchive war() {
        return PackagedWar.load();
    }

    @ArquillianResource
    URL base;
    Http anonymous;
    Http admin;
    Http peer;
    Http client;
    Http nobody;

    @BeforeEach
    void users() throws Exception {
        EmbeddedRealm.ensureUsers();
        anonymous = new Http(base.toString());
        admin = anonymous.as(EmbeddedRealm.ADMIN, EmbeddedRealm.ADMIN_PASSWORD);
        peer = anonymous.as(EmbeddedRealm.PEER, EmbeddedRealm.PEER_PASSWORD);
        client = anonymous.as(EmbeddedRealm.CLIENT, EmbeddedRealm.CLIENT_PASSWORD);
        nobody = anonymous.as(EmbeddedRealm.NOBODY, EmbeddedRealm.NOBODY_PASSWORD);
        assertThat(anonymous.postJson("apps/SEC", instanceJson("SEC", "s-1", "UP", 1000)).status()).isEqualTo(204);
    }

    private static final String BATCH = "{\"replicationList\":[{\"appName\":\"SEC\",\"id\":\"s-1\",\"action\":\"Heartbeat\"}]}";

    private static Reply batch(Http who, String path) {
        return who.send("POST", path, BATCH, "Content-Type", "application/json");
    }

    @Test
    void theReplicationBatchNeedsThePeerRole() {
        for (String path : new String[]{"peerreplication/batch/", "v2/peerreplication/batch", "v7/peerreplication/batch"}) {
            assertThat(batch(anonymous, path).status()).as(path).isEqualTo(401);
            assertThat(batch(anonymous, path).header("WWW-Authenticate")).as(path).startsWith("Basic");
            assertThat(batch(nobody, path).status()).as(path).isEqualTo(403);
            assertThat(batch(admin, path).status()).as(path).isEqualTo(403);
            assertThat(anonymous.as(EmbeddedRealm.PEER, "wrong").send("POST", path, BATCH,
                    "Content-Type", "application/json").status()).as(path).isEqualTo(401);
            Reply ok = batch(peer, path);
            assertThat(ok.status()).as(path).isEqualTo(200);
            assertThat(ok.body()).isEqualTo("{\"responseList\":[{\"statusCode\":200}]}");
        }
    }

    @Test
    void writesFlaggedAsReplicatedNeedThePeerRole() {
        assertThat(anonymous.send("PUT", "apps/SEC/s-1", null, "x-netflix-discovery-replication", "true").status())
                .isEqualTo(401);
        assertThat(client.send("PUT", "apps/SEC/s-1", null, "x-netflix-discovery-replication", "true").status())
                .isEqualTo(403);
        assertThat(peer.send("PUT", "apps/SEC/s-1", null, "x-netflix-discovery-replication", "true").status())
                .isEqualTo(200);
    }

    @Test
    void clientsSetAndClearTheirOwnStatusAsInEurekaButAReplicatedOneNeedsAPeer() {
        assertThat(anonymous.put("apps/SEC/s-1/status?value=OUT_OF_SERVICE").status()).isEqualTo(200);
        assertThat(anonymous.getJson("apps/SEC/s-1").body()).contains("\"status\":\"OUT_OF_SERVICE\"");
        assertThat(anonymous.delete("v2/apps/SEC/s-1/status?value=UP").status()).isEqualTo(200);
        assertThat(anonymous.getJson("apps/SEC/s-1").body()).contains("\"status\":\"UP\"");
        assertThat(anonymous.send("PUT", "apps/SEC/s-1/status?value=DOWN", null,
                "x-netflix-discovery-replication", "true").status()).isEqualTo(401);
        assertThat(client.send("PUT", "apps/SEC/s-1/status?value=DOWN", null,
                "x-netflix-discovery-replication", "true").status()).isEqualTo(403);
        assertThat(anonymous.getJson("apps/SEC/s-1").body()).contains("\"status\":\"UP\"");
    }

    @Test
    void noSpellingOfAProtectedPathLetsACallerWithoutTheRoleThrough() {
        assertThat(anonymous.postJson("apps/" + AttackMatrix.VICTIM_APP, instanceJson(AttackMatrix.VICTIM_APP,
                AttackMatrix.VICTIM_ID, "UP", 1000)).status()).isEqualTo(204);
        int refused = AttackMatrix.run(anonymous, List.of(
                new AttackMatrix.Caller("anonymous", anonymous, Set.of()),
                new AttackMatrix.Caller("no role", nobody, Set.of("staff")),
                new AttackMatrix.Caller("client", client, Set.of("eureka-client")),
                new AttackMatrix.Caller("admin", admin, Set.of("eureka-admin")),
                new AttackMatrix.Caller("peer", peer, Set.of("eureka-peer"))));
        assertThat(refused).isGreaterThan(500);
    }

    @Test
    void unknownPathsAre404AndOtherMethods405BeforeAnyHandler() {
        assertThat(anonymous.get("nothing/here").status()).isEqualTo(404);
        assertThat(anonymous.get("WEB-INF/web.xml").status()).isEqualTo(404);
        assertThat(anonymous.get("v2/health").status()).isEqualTo(404);
        Reply notAllowed = anonymous.send("POST", "apps/SEC/s-1", "");
        assertThat(notAllowed.status()).isEqualTo(405);
        assertThat(notAllowed.header("Allow")).isEqualTo("GET, HEAD, PUT, DELETE");
        assertThat(anonymous.send("OPTIONS", "apps/", null).status()).isEqualTo(405);
    }

    @Test
    void dashboardActionsNeedAnAdminAndTheCsrfToken() {
        String path = "api/admin/instances/SEC/s-1/out-of-service";
        assertThat(anonymous.send("POST", path, "").status()).isEqualTo(401);
        assertThat(anonymous.send("POST", path, "", "X-Muster-Dashboard", "1").header("WWW-Authenticate"))
                .as("the dashboard's own form is used, not the browser's dialog").isNull();
        assertThat(nobody.send("POST", path, "").status()).isEqualTo(403);
        Reply forged = admin.send("POST", path, "");
        assertThat(forged.status()).as("an admin's browser tricked into posting without the token").isEqualTo(403);
        assertThat(forged.body()).contains("X-Muster-CSRF");
        assertThat(admin.send("POST", path, "", "X-Muster-CSRF", "guess").status()).isEqualTo(403);
        assertThat(anonymous.getJson("apps/SEC/s-1").body()).contains("\"status\":\"UP\"");

        String token = admin.getJson("api/admin/csrf").body().replaceAll(".*\"token\":\"([0-9a-f]+)\".*", "$1");
        assertThat(admin.send("POST", path, "", "X-Muster-CSRF", token).status()).isEqualTo(200);
        assertThat(anonymous.getJson("apps/SEC/s-1").body()).contains("\"status\":\"OUT_OF_SERVICE\"");
        assertThat(admin.send("POST", "api/admin/instances/SEC/s-1/remove-override", "", "X-Muster-CSRF", token)
                .status()).isEqualTo(200);
        assertThat(admin.send("POST", "api/admin/instances/SEC/s-1/deregister", "", "X-Muster-CSRF", token)
                .status()).isEqualTo(200);
        assertThat(anonymous.getJson("apps/SEC/s-1").status()).isEqualTo(404);
    }

    @Test
    void clientEndpointsHealthAndMetricsAreOpenByDefault() {
        assertThat(anonymous.put("apps/SEC/s-1").status()).isEqualTo(200);
        assertThat(anonymous.getJson("apps/").status()).isEqualTo(200);
        assertThat(anonymous.get("health/ready").status()).isEqualTo(200);
        assertThat(anonymous.get("metrics").status()).isEqualTo(200);
        assertThat(anonymous.get("").status()).isEqualTo(200);
    }
}
