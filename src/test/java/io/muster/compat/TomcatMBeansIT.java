package io.muster.compat;

import io.muster.testing.Http;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Muster's MBeans on a real Tomcat 10.1 as an operator reaches them: through Tomcat's JMX proxy servlet (the
 * manager's {@code /manager/jmxproxy/}, role {@code manager-jmx}) and through a JMX connector with authentication
 * on, as JConsole connects. The values are live, an operation takes an instance out of service for every client,
 * the audit line names who did it, and after an undeploy nothing of Muster is left in Tomcat's MBean server, the
 * second time too (after a redeploy). Whether the class loader goes is TomcatServerIT's findleaks check.
 *
 * <p>Ports: {@code -Dtomcat.mbeans.port} for HTTP, the next one for the JMX connector.
 */
class TomcatMBeansIT {
    private static final Path WAR = Path.of(System.getProperty("muster.war")).toAbsolutePath();
    private static final int PORT = Integer.getInteger("tomcat.mbeans.port", 18291);
    private static final int JMX_PORT = PORT + 1;
    /** Tomcat's name for the virtual host the context is deployed to (ServletContext.getVirtualServerName). */
    private static final String REGISTRY = "io.muster:type=Registry,host=Catalina/localhost,context=/eureka";
    private static final String JMX_USER = "jmx-proxy";
    private static final String JMX_PASSWORD = "CHANGE-ME-jmx-proxy";

    @Test
    void theRegistryIsWatchedAndActedOnFromTomcatsOwnTools() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(RealTomcat.SERVERS),
                "the build unpacks the servers unless -Dservers.skip=true");
        try (RealTomcat tomcat = new RealTomcat(Path.of("target", "tomcat-mbeans"), PORT)) {
            Path users = tomcat.base().resolve("conf/tomcat-users.xml");
            // as server-config/jmx.md says: a user of its own for the JMX proxy
            Files.writeString(users, Files.readString(users).replace("</tomcat-users>", "<user username=\""
                    + JMX_USER + "\" password=\"" + JMX_PASSWORD + "\" roles=\"manager-jmx\"/>\n</tomcat-users>"));
            Path context = tomcat.base().resolve("eureka.xml");
            Files.writeString(context, RealTomcat.contextFile(WAR, Map.of()));
            Files.copy(context, tomcat.base().resolve("conf/Catalina/localhost/eureka.xml"));
            tomcat.start(jmxRemote(tomcat.base()).toArray(String[]::new));
            Http eureka = new Http("http://127.0.0.1:" + PORT + "/eureka/");
            Http proxy = new Http("http://127.0.0.1:" + PORT + "/manager/jmxproxy/").as(JMX_USER, JMX_PASSWORD);
            Http manager = new Http("http://127.0.0.1:" + PORT + "/manager/text/")
                    .as("deployer", RealTomcat.DEPLOYER_PASSWORD);
            RealTomcat.awaitStatus(eureka, "health/ready", 200, 120);

            String listed = proxy.get("?qry=" + encode("io.muster:*")).body();
            assertThat(listed).startsWith("OK").contains("Name: " + REGISTRY,
                    "Name: io.muster:type=ClusterCheck,host=Catalina/localhost,context=/eureka",
                    "Name: io.muster:type=ChangeStreams,host=Catalina/localhost,context=/eureka",
                    "Name: io.muster:type=Settings,host=Catalina/localhost,context=/eureka");
            int before = instances(proxy);
            assertThat(eureka.postJson("apps/ORDERS", instanceJson("ORDERS", "o-1", "UP", 1000)).status())
                    .isEqualTo(204);
            assertThat(eureka.postJson("apps/ORDERS", instanceJson("ORDERS", "o-2", "UP", 1000)).status())
                    .isEqualTo(204);
            assertThat(eureka.postJson("apps/BILLING", instanceJson("BILLING", "b-1", "UP", 1000)).status())
                    .isEqualTo(204);
            assertThat(instances(proxy)).as("live, not read once at start").isEqualTo(before + 3);
            assertThat(proxy.get("?qry=" + encode(REGISTRY)).body()).contains("SelfPreservationReason: ");

            String done = proxy.get("?invoke=" + encode(REGISTRY) + "&op=takeOutOfService&ps=ORDERS,o-1").body();
            assertThat(done).startsWith("OK").contains("OUT_OF_SERVICE set on ORDERS/o-1");
            assertThat(eureka.getJson("apps/ORDERS/o-1").body()).contains("\"status\":\"OUT_OF_SERVICE\"");
            assertThat(tomcat.awaitConsoleLines("audit: ", l -> l.contains("ORDERS/o-1")))
                    .as("the proxy's caller is Tomcat itself: no JMX principal")
                    .anyMatch(l -> l.contains("operator jmx") && l.contains("ORDERS/o-1"));
            assertThat(proxy.get("?invoke=" + encode(REGISTRY) + "&op=takeOutOfService&ps=ORDERS,nobody").body())
                    .contains("no instance ORDERS/nobody");

            try (JMXConnector jconsole = JMXConnectorFactory.connect(new JMXServiceURL(
                    "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + JMX_PORT + "/jmxrmi"),
                    Map.of(JMXConnector.CREDENTIALS, new String[]{"ops", "CHANGE-ME-ops"}))) {
                MBeanServerConnection jmx = jconsole.getMBeanServerConnection();
                assertThat(jmx.invoke(new ObjectName(REGISTRY), "deregister", new Object[]{"ORDERS", "o-2"},
                        new String[]{String.class.getName(), String.class.getName()}))
                        .isEqualTo("ORDERS/o-2 deregistered");
            }
            assertThat(eureka.getJson("apps/ORDERS/o-2").status()).isEqualTo(404);
            assertThat(tomcat.awaitConsoleLines("audit: ", l -> l.contains("ORDERS/o-2")))
                    .as("an authenticated JMX caller is named")
                    .anyMatch(l -> l.contains("operator ops") && l.contains("ORDERS/o-2"));

            assertThat(manager.get("undeploy?path=/eureka").body()).startsWith("OK");
            assertThat(proxy.get("?qry=" + encode("io.muster:*")).body()).as("nothing left after an undeploy")
                    .contains("Number of results: 0").doesNotContain("Name: io.muster");
            assertThat(manager.get("deploy?path=/eureka&config=file:" + context).body()).startsWith("OK");
            RealTomcat.awaitStatus(eureka, "health/ready", 200, 60);
            assertThat(proxy.get("?qry=" + encode("io.muster:*")).body()).contains("Name: " + REGISTRY);
            assertThat(manager.get("undeploy?path=/eureka").body()).startsWith("OK");
            assertThat(proxy.get("?qry=" + encode("io.muster:*")).body()).contains("Number of results: 0");
        }
    }

    /** The registry's instance count, read through the proxy's get. */
    private static int instances(Http proxy) {
        String answer = proxy.get("?get=" + encode(REGISTRY) + "&att=Instances").body();
        Matcher m = Pattern.compile("Instances = (\\d+)").matcher(answer);
        assertThat(m.find()).as(answer).isTrue();
        return Integer.parseInt(m.group(1));
    }

    /**
     * JMX remote as an operator turns it on for JConsole (server-config/jmx.md): loopback only, one port,
     * password and access files readable by Tomcat's user only.
     */
    private static List<String> jmxRemote(Path base) throws Exception {
        Path password = base.resolve("conf/jmxremote.password");
        Path access = base.resolve("conf/jmxremote.access");
        Files.writeString(password, "ops CHANGE-ME-ops\n");
        Files.writeString(access, "ops readwrite\n");
        for (Path p : List.of(password, access)) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
        }
        return List.of("-Dcom.sun.management.jmxremote.port=" + JMX_PORT,
                "-Dcom.sun.management.jmxremote.rmi.port=" + JMX_PORT,
                "-Dcom.sun.management.jmxremote.host=127.0.0.1", "-Djava.rmi.server.hostname=127.0.0.1",
                "-Dcom.sun.management.jmxremote.ssl=false", "-Dcom.sun.management.jmxremote.authenticate=true",
                "-Dcom.sun.management.jmxremote.password.file=" + password,
                "-Dcom.sun.management.jmxremote.access.file=" + access);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
