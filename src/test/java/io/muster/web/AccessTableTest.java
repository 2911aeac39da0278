package io.muster.web;

import org.junit.jupiter.api.Test;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.File;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which role each endpoint needs, and that the container's own constraints in web.xml agree with the table. */
class AccessTableTest {
    @Test
    void replicationNeedsAPeerAndTheDashboardsActionsAnAdmin() {
        assertThat(Endpoint.REPLICATION_BATCH.access().roles(false)).containsExactly("eureka-peer");
        assertThat(Endpoint.ADMIN_ACTION.access().roles(false)).containsExactly("eureka-admin");
        assertThat(Endpoint.ADMIN_CSRF.access().roles(true)).containsExactly("eureka-admin");
    }

    @Test
    void theAuditTrailIsForOperatorsOnlyWhateverClientAuthentication() {
        assertThat(Endpoint.AUDIT.access().roles(false)).containsExactly("eureka-admin");
        assertThat(Endpoint.AUDIT.access().roles(true)).containsExactly("eureka-admin");
    }

    @Test
    void statusOverridesFollowRegistersRuleAsInEureka() {
        for (Endpoint e : List.of(Endpoint.STATUS_OVERRIDE, Endpoint.DELETE_STATUS_OVERRIDE)) {
            assertThat(e.access()).isEqualTo(Endpoint.REGISTER.access());
            assertThat(e.access().roles(false)).isEmpty();
            assertThat(e.access().roles(true)).containsExactlyInAnyOrder("eureka-client", "eureka-admin",
                    "eureka-peer");
        }
    }

    /** With appOwnership on, these need a principal bound to the application; their roles are a client's. */
    @Test
    void theWritesAClientMakesToItsOwnApplicationAreTheOwnedOnes() {
        java.util.Set<Endpoint> owned = java.util.EnumSet.noneOf(Endpoint.class);
        for (Endpoint e : Endpoint.values()) {
            if (e.access() == Access.OWNER) {
                owned.add(e);
            }
        }
        assertThat(owned).containsExactlyInAnyOrder(Endpoint.REGISTER, Endpoint.RENEW, Endpoint.CANCEL,
                Endpoint.STATUS_OVERRIDE, Endpoint.DELETE_STATUS_OVERRIDE, Endpoint.METADATA, Endpoint.ASG_STATUS);
        for (boolean clientAuth : new boolean[]{false, true}) {
            assertThat(Access.OWNER.roles(clientAuth)).isEqualTo(Access.CLIENT.roles(clientAuth));
        }
    }

    @Test
    void healthMetricsAndTheDashboardPageStayOpenEvenWithClientAuthentication() {
        for (Endpoint e : List.of(Endpoint.HEALTH, Endpoint.METRICS, Endpoint.DASHBOARD)) {
            assertThat(e.access().roles(true)).as(e.name()).isEmpty();
        }
    }

    @Test
    void theChangeStreamNeedsWhatReadsNeed() {
        assertThat(Endpoint.CHANGES.access()).isEqualTo(Endpoint.FULL_REGISTRY.access());
        assertThat(Endpoint.CHANGES.access().roles(false)).isEmpty();
        assertThat(Endpoint.CHANGES.access().roles(true)).contains("eureka-client");
    }

    @Test
    void theClusterDigestIsForPeersOnlyWhateverClientAuthentication() {
        assertThat(Endpoint.CLUSTER_DIGEST.access()).isEqualTo(Access.PEER);
        assertThat(Endpoint.CLUSTER_DIGEST.access().roles(false)).containsExactly("eureka-peer");
        assertThat(Endpoint.CLUSTER_DIGEST.access().roles(true)).containsExactly("eureka-peer");
    }

    @Test
    void everyEndpointIsInTheTable() {
        for (Endpoint e : Endpoint.values()) {
            assertThat(e.access()).as(e.name()).isNotNull();
            assertThat(e.metricName()).as(e.name()).matches("[a-z_]+");
            assertThat(e.paths()).as(e.name()).isNotEmpty();
            for (String path : e.paths()) {
                // the table's own spelling is one the router takes (a variable given a value its regex accepts)
                String sample = path.replaceAll("\\{action: [^}]*\\}", "deregister")
                        .replaceAll("\\{file: [^}]*\\}", "dashboard.js").replaceAll("\\{[^}]*\\}", "X");
                assertThat(Router.classify(e.method(), "/" + sample).endpoint()).as(e + " " + path).isEqualTo(e);
            }
        }
    }

    /** Every endpoint the table puts on the fast road has a handler there, and no other has one. */
    @Test
    void theFastPathsAnswerExactlyTheEndpointsTheTableGivesThem() {
        assertThat(new FastPaths(null)).isNotNull();   // it refuses to be built otherwise
        assertThat(FastPaths.onTheFastRoad()).contains(Endpoint.RENEW, Endpoint.REGISTER, Endpoint.CANCEL,
                Endpoint.FULL_REGISTRY, Endpoint.DELTA, Endpoint.REPLICATION_BATCH);
    }

    /**
     * The front door alone decides access: a web.xml constraint would have the container answer 401 before the
     * body was read, and Tomcat reads the rest on a request thread (a slow body could then hold a thread with any
     * request to a constrained path). The realm's roles are still declared, for BASIC and isUserInRole.
     */
    @Test
    void webXmlLeavesAccessToTheFrontDoorAndDeclaresTheRolesItChecks() throws Exception {
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new File("src/main/webapp/WEB-INF/web.xml"));
        assertThat(doc.getElementsByTagName("security-constraint").getLength()).isZero();
        NodeList roles = doc.getElementsByTagName("role-name");
        java.util.Set<String> declared = new java.util.HashSet<>();
        for (int i = 0; i < roles.getLength(); i++) {
            declared.add(roles.item(i).getTextContent().trim());
        }
        java.util.Set<String> needed = new java.util.HashSet<>();
        for (Endpoint e : Endpoint.values()) {
            needed.addAll(e.access().roles(true));
        }
        assertThat(declared).containsAll(needed);
        assertThat(doc.getElementsByTagName("auth-method").item(0).getTextContent().trim()).isEqualTo("BASIC");
    }
}
