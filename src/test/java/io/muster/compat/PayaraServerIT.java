package io.muster.compat;

import io.muster.testing.ChildJvm;
import io.muster.testing.AttackMatrix;
import io.muster.testing.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.muster.compat.RealServerChecks.SERVERS;
import static io.muster.compat.RealServerChecks.WAR;
import static io.muster.compat.RealServerChecks.concat;
import static io.muster.compat.RealServerChecks.run;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * eureka.war on a real Payara Server 6 (unpacked from Maven Central by the build into target/servers), in a domain
 * of its own set up with server-config/payara/setup.sh as an operator would, and managed with asadmin. One domain
 * for the class; each check is a test of its own, in this order, so a failing one does not hide the others.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PayaraServerIT {
    private final Path asadmin = SERVERS.resolve("payara6/bin/asadmin");
    /** Each asadmin command is a JVM of its own (some 1.7 s of CPU with the JVM's defaults): started as a child is. */
    private static final Map<String, String> ASADMIN_JVM = Map.of("AS_EXTRA_JAVA_OPTS", ChildJvm.quickStartOptions());
    private final Path domains = Path.of("target", "payara-domains").toAbsolutePath();
    private final List<String> admin = List.of("bash", asadmin.toString(), "--port", "21048");
    private final Http eureka = new Http("http://127.0.0.1:21080/eureka/");
    private boolean started;

    @BeforeAll
    void createAndStartADomainAndRunTheSetupScript() throws Exception {
        RealServerChecks.assumeServersUnpacked();
        io.muster.testing.Trees.deleteTree(domains);
        Files.createDirectories(domains);
        run(List.of("bash", asadmin.toString(), "create-domain", "--nopassword=true", "--portbase", "21000",
                "--domaindir", domains.toString(), "muster-it"), ASADMIN_JVM, 180);
        // Hazelcast off (its first occurrence is server-config), as for the embedded server, and the server's JVM
        // started as every child server is (ChildJvm): the checks are of behaviour, not speed
        Path domainXml = domains.resolve("muster-it/config/domain.xml");
        String childOptions = ChildJvm.FUNCTIONAL_CHECK.stream()
                .map(o -> "<jvm-options>" + o + "</jvm-options>").collect(java.util.stream.Collectors.joining());
        Files.writeString(domainXml, Files.readString(domainXml).replaceFirst(
                "<hazelcast-config-specific-configuration>",
                "<hazelcast-config-specific-configuration enabled=\"false\">")
                .replaceFirst("<jvm-options>-server</jvm-options>", "<jvm-options>-server</jvm-options>" + childOptions));
        run(List.of("bash", asadmin.toString(), "start-domain", "--domaindir", domains.toString(), "muster-it"),
                ASADMIN_JVM, 240);
        started = true;
        Map<String, String> setupEnv = new java.util.HashMap<>(ASADMIN_JVM);
        setupEnv.putAll(Map.of("ASADMIN", asadmin.toString(), "PEER_PASSWORD", "peer-secret",
                "ADMIN_PASSWORD", "admin-secret"));
        String setup = run(List.of("bash", "server-config/payara/setup.sh", WAR.toString(), "--port", "21048"),
                setupEnv, 240);
        Files.writeString(Path.of("target", "payara-setup.log"), setup);
        RealTomcat.awaitStatus(eureka, "health/ready", 200, 120);
    }

    @AfterAll
    void stopTheDomain() throws Exception {
        if (started) {
            run(List.of("bash", asadmin.toString(), "stop-domain", "--domaindir", domains.toString(), "muster-it"),
                    ASADMIN_JVM, 120);
        }
    }

    @Test
    @Order(1)
    void theSetupScriptDeployedTheWar() throws Exception {
        assertThat(run(concat(admin, "list-applications"), ASADMIN_JVM, 60)).contains("eureka");
    }

    @Test
    @Order(2)
    void aRealClientRegistersAnotherSeesItAndItCancelsOnShutdown() throws Exception {
        RealServerChecks.roundTrip("payara", eureka.baseUrl());
    }

    @Test
    @Order(3)
    void changesArriveOnAnOpenStreamAndEndAWaitingFetch() throws Exception {
        RealServerChecks.changesArriveAsEvents(eureka);
    }

    @Test
    @Order(4)
    void theRealmEnforcesTheRolesAndWrongPasswordsLockNobodyOut() {
        RealServerChecks.rolesAreEnforced(eureka, "peer", "peer-secret", "admin", "admin-secret");
        RealServerChecks.wrongPasswordsLockNobodyOut(eureka, "peer", "peer-secret");
    }

    @Test
    @Order(5)
    void noSpellingGetsPastAccessControl() {
        RealServerChecks.noSpellingGetsPastAccessControl(eureka, List.of(
                new AttackMatrix.Caller("peer", eureka.as("peer", "peer-secret"), Set.of("eureka-peer")),
                new AttackMatrix.Caller("admin", eureka.as("admin", "admin-secret"), Set.of("eureka-admin"))));
    }

    @Test
    @Order(5)
    void clientsThatSendTheirBodiesSlowlyHoldNoRequestThread() throws Exception {
        RealServerChecks.stalledBodiesHoldNoThread(eureka, false);
    }

    @Test
    @Order(6)
    void payarasOwnHealthCarriesMustersChecks() throws Exception {
        payarasOwnHealthListsMustersChecks();
    }

    @Test
    @Order(7)
    void settingsSetInTheConsoleArePendingThenInEffectAfterDisableAndEnable() throws Exception {
        // the console's two ways: a domain-wide property, and one of the application's own properties
        run(concat(admin, "set-config-property", "--source=domain",
                "--propertyName=eureka.server.renewalPercentThreshold", "--propertyValue=0.61"), ASADMIN_JVM, 60);
        run(concat(admin, "set-config-property", "--source=application", "--sourceName=eureka",
                "--propertyName=eureka.server.maxInstancesPerApp", "--propertyValue=777"), ASADMIN_JVM, 60);
        Map<String, Object> before = settings(eureka);
        assertThat(before).as("read at start: not yet in effect").containsEntry("renewalPercentThreshold", 0.85);
        assertThat(nextStartChanges(before)).as("the settings view says what the next start changes, and from where")
                .anySatisfy(c -> assertThat(c).containsEntry("name", "renewalPercentThreshold")
                        .containsEntry("next", 0.61)
                        .hasEntrySatisfying("source", v -> assertThat((String) v).startsWith("MicroProfile Config")))
                .anySatisfy(c -> assertThat(c).containsEntry("name", "maxInstancesPerApp").containsEntry("next", 777));

        run(concat(admin, "disable", "eureka"), ASADMIN_JVM, 60);
        RealTomcat.awaitStatus(eureka, "health/live", 404, 30);
        run(concat(admin, "enable", "eureka"), ASADMIN_JVM, 120);
        RealTomcat.awaitStatus(eureka, "health/ready", 200, 60);
        Map<String, Object> after = settings(eureka);
        assertThat(after).containsEntry("renewalPercentThreshold", 0.61).containsEntry("maxInstancesPerApp", 777);
        @SuppressWarnings("unchecked")
        Map<String, Object> sources = (Map<String, Object>) after.get("sources");
        assertThat((String) sources.get("renewalPercentThreshold")).startsWith("MicroProfile Config");
        assertThat((String) sources.get("maxInstancesPerApp")).startsWith("MicroProfile Config");
        assertThat(nextStartChanges(after)).as("in effect now: nothing left for the next start").isEmpty();
    }

    @Test
    @Order(8)
    void aRedeployServesAgainAndAnUndeployLeavesNoThreadOfTheWar() throws Exception {
        run(concat(admin, "deploy", "--force=true", "--name", "eureka", "--contextroot", "eureka",
                WAR.toString()), ASADMIN_JVM, 180);
        RealTomcat.awaitStatus(eureka, "health/ready", 200, 60);
        RealServerChecks.roundTrip("payara-redeployed", eureka.baseUrl());
        run(concat(admin, "undeploy", "eureka"), ASADMIN_JVM, 120);
        RealTomcat.awaitStatus(eureka, "health/live", 404, 30);
        String pid = Files.readString(domains.resolve("muster-it/config/pid")).trim();
        String threads = run(List.of("jcmd", pid, "Thread.print"), Map.of(), 60);
        assertThat(threads).as("threads of the undeployed WAR").doesNotContain("\"muster-");
    }

    /**
     * Payara's own {@code /health} (MicroProfile Health, on the HTTP listener) includes Muster's start-up, liveness
     * and readiness checks, named with the context path, with the same verdicts as Muster's own probes.
     */
    private static void payarasOwnHealthListsMustersChecks() throws Exception {
        Http payara = new Http("http://127.0.0.1:21080/");
        Http.Reply all = payara.getJson("health");
        assertThat(all.status()).as(all.text()).isEqualTo(200);
        assertThat(checkNames(all.text())).contains("muster /eureka start-up-sync", "muster /eureka registry",
                "muster /eureka reads");
        assertThat(checkNames(payara.getJson("health/ready").text())).contains("muster /eureka reads")
                .doesNotContain("muster /eureka registry");
        assertThat(checkNames(payara.getJson("health/live").text())).contains("muster /eureka registry");
        assertThat(checkNames(payara.getJson("health/started").text())).contains("muster /eureka start-up-sync");
    }

    private static List<String> checkNames(String healthJson) throws IOException {
        List<String> names = new ArrayList<>();
        RealServerChecks.JSON.readTree(healthJson).path("checks").forEach(c -> names.add(c.path("name").asText()));
        return names;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> settings(Http eureka) throws IOException {
        Http.Reply status = eureka.getJson("api/status");
        assertThat(status.status()).isEqualTo(200);
        return (Map<String, Object>) RealServerChecks.JSON.readValue(status.text(), Map.class).get("settings");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> nextStartChanges(Map<String, Object> settings) {
        Map<String, Object> next = (Map<String, Object>) settings.get("nextStart");
        assertThat(next).as("the settings view reads the sources again").isNotNull();
        assertThat(next.get("failure")).isNull();
        return (List<Map<String, Object>>) next.get("changes");
    }
}
