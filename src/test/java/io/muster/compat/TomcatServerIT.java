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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.muster.compat.RealServerChecks.SERVERS;
import static io.muster.compat.RealServerChecks.WAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * eureka.war on a real Apache Tomcat 10.1 (unpacked from Maven Central by the build into target/servers), set up
 * with the files in server-config/ as an operator would and managed through Tomcat's manager text API. One Tomcat
 * for the class; each check is a test of its own, in this order, so a failing one does not hide the others.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TomcatServerIT {
    /** Tomcat's HTTP port ({@code -Dtomcat.it.port}), so that runs on one machine need not share it. */
    private static final int PORT = Integer.getInteger("tomcat.it.port", 18280);
    private final Path base = Path.of("target", "tomcat-base").toAbsolutePath();
    private final Http eureka = new Http("http://127.0.0.1:" + PORT + "/eureka/");
    private final Http manager = new Http("http://127.0.0.1:" + PORT + "/manager/text/")
            .as("deployer", "CHANGE-ME-deployer");
    private Process tomcat;

    @BeforeAll
    void startTomcatAsAnOperatorSetsItUp() throws Exception {
        RealServerChecks.assumeServersUnpacked();
        Path home;
        try (Stream<Path> s = Files.list(SERVERS)) {
            home = s.filter(p -> p.getFileName().toString().startsWith("apache-tomcat-10.1")).findFirst().orElseThrow();
        }
        io.muster.testing.Trees.deleteTree(base);
        for (String d : new String[]{"conf/Catalina/localhost", "logs", "temp", "webapps", "work"}) {
            Files.createDirectories(base.resolve(d));
        }
        io.muster.testing.Trees.copyTree(home.resolve("conf"), base.resolve("conf"));
        io.muster.testing.Trees.copyTree(home.resolve("webapps/manager"), base.resolve("webapps/manager"));
        String serverXml = Files.readString(base.resolve("conf/server.xml"))
                .replace("<Server port=\"8005\"", "<Server port=\"-1\"")
                .replace("<Connector port=\"8080\"", "<Connector address=\"127.0.0.1\" port=\"" + PORT + "\"");
        Files.writeString(base.resolve("conf/server.xml"), serverXml);
        Files.writeString(base.resolve("conf/tomcat-users.xml"), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<tomcat-users xmlns=\"http://tomcat.apache.org/xml\" version=\"1.0\">\n"
                + Files.readString(Path.of("server-config/tomcat/tomcat-users-fragment.xml"))
                + "<user username=\"nobody\" password=\"nobody-pw\" roles=\"staff\"/>\n</tomcat-users>\n");
        // the operator's context file, pointing at the WAR, with one setting changed to see it take effect
        Files.writeString(base.resolve("conf/Catalina/localhost/eureka.xml"),
                Files.readString(Path.of("server-config/tomcat/eureka.xml"))
                        .replace("/opt/muster/eureka.war", WAR.toString())
                        .replace("\"eureka.environment\" value=\"prod\"", "\"eureka.environment\" value=\"tomcat-it\""));

        ProcessBuilder pb = new ProcessBuilder("bash", home.resolve("bin/catalina.sh").toString(), "run")
                .redirectErrorStream(true).redirectOutput(base.resolve("logs/console.log").toFile());
        pb.environment().putAll(Map.of("CATALINA_HOME", home.toString(), "CATALINA_BASE", base.toString(),
                "CATALINA_OPTS", ChildJvm.quickStartOptions(512)));   // as RealTomcat
        tomcat = pb.start();
        RealTomcat.awaitStatus(eureka, "health/ready", 200, 120);
    }

    @AfterAll
    void stopTomcat() throws InterruptedException {
        if (tomcat != null) {
            tomcat.destroy();
            if (!tomcat.waitFor(30, TimeUnit.SECONDS)) {
                tomcat.destroyForcibly();
            }
        }
    }

    @Test
    @Order(1)
    void theOperatorsContextFileAppliesAndTheManagerListsTheWar() {
        assertThat(eureka.getJson("status").body()).as("context file settings apply").contains("tomcat-it");
        assertThat(manager.get("list").body()).contains("/eureka:running");
    }

    @Test
    @Order(2)
    void aRealClientRegistersAnotherSeesItAndItCancelsOnShutdown() throws Exception {
        RealServerChecks.roundTrip("tomcat", eureka.baseUrl());
    }

    @Test
    @Order(3)
    void largeFetchesGoBySendfile() throws Exception {
        RealServerChecks.largeFetchesGoBySendfile(eureka, base.resolve("work/Catalina/localhost/eureka/muster-bodies"));
    }

    @Test
    @Order(4)
    void changesArriveOnAnOpenStreamAndEndAWaitingFetch() throws Exception {
        RealServerChecks.changesArriveAsEvents(eureka);
    }

    @Test
    @Order(5)
    void theRealmEnforcesTheRolesAndWrongPasswordsLockNobodyOut() {
        RealServerChecks.rolesAreEnforced(eureka, "peer", "CHANGE-ME-peer", "admin", "CHANGE-ME-admin");
        RealServerChecks.wrongPasswordsLockNobodyOut(eureka, "peer", "CHANGE-ME-peer");
    }

    @Test
    @Order(6)
    void noSpellingGetsPastAccessControl() {
        RealServerChecks.noSpellingGetsPastAccessControl(eureka, List.of(
                new AttackMatrix.Caller("peer", eureka.as("peer", "CHANGE-ME-peer"), Set.of("eureka-peer")),
                new AttackMatrix.Caller("admin", eureka.as("admin", "CHANGE-ME-admin"), Set.of("eureka-admin")),
                new AttackMatrix.Caller("client", eureka.as("client-orders", "CHANGE-ME-client-orders"),
                        Set.of("eureka-client")),
                new AttackMatrix.Caller("no role", eureka.as("nobody", "nobody-pw"), Set.of("staff"))));
    }

    @Test
    @Order(6)
    void clientsThatSendTheirBodiesSlowlyHoldNoRequestThread() throws Exception {
        RealServerChecks.stalledBodiesHoldNoThread(eureka, true);
    }

    @Test
    @Order(7)
    void theManagerStopsStartsReloadsUndeploysAndDeploysIt() throws Exception {
        RealServerChecks.overrideAndHeartbeat(eureka.as("admin", "CHANGE-ME-admin"));
        assertThat(manager.get("stop?path=/eureka").body()).startsWith("OK");
        RealTomcat.awaitStatus(eureka, "health/live", 404, 30);
        assertThat(manager.get("start?path=/eureka").body()).startsWith("OK");
        RealTomcat.awaitStatus(eureka, "health/ready", 200, 60);
        assertThat(manager.get("reload?path=/eureka").body()).startsWith("OK");
        RealTomcat.awaitStatus(eureka, "health/ready", 200, 60);

        assertThat(manager.get("undeploy?path=/eureka").body()).startsWith("OK");
        RealTomcat.awaitStatus(eureka, "health/live", 404, 30);
        assertThat(manager.get("deploy?path=/eureka&war=file:" + WAR).body()).startsWith("OK");
        RealTomcat.awaitStatus(eureka, "health/ready", 200, 60);
        RealServerChecks.roundTrip("tomcat-redeployed", eureka.baseUrl());
    }

    @Test
    @Order(8)
    void anUndeployedWarLeavesNoClassLoaderThreadOrThreadLocalBehind() throws Exception {
        assertThat(manager.get("undeploy?path=/eureka").body()).startsWith("OK");
        String leaks = RealTomcat.findLeaksSettled(manager);
        if (!leaks.contains("No memory leaks found")) {
            // what holds the loader is in the heap: keep it for the reader of the failure
            RealServerChecks.run(List.of("jcmd", Long.toString(tomcat.pid()), "GC.heap_dump",
                    base.resolve("leak.hprof").toString()), Map.of(), 120);
        }
        assertThat(leaks).as("no class loader of an undeployed Muster left behind (heap dump: "
                + base.resolve("leak.hprof") + ")").contains("No memory leaks found");
        String logs = RealServerChecks.readLogs(base.resolve("logs"));
        // Tomcat's own utility thread is named when it happens to run the context's background work (with the
        // context's class loader) at the moment the context stops: not a thread of ours
        assertThat(logs.replaceAll("\\[eureka\\] appears to have started a thread named \\[Catalina-utility-\\d+\\]",
                "")).doesNotContain("[eureka] appears to have started a thread");
        assertThat(logs).doesNotContain("[eureka] created a ThreadLocal");
        assertThat(logs).as("no Jersey warning about how the resources are registered").doesNotContain("will be ignored");
    }
}
