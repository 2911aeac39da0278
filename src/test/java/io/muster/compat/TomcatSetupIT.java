package io.muster.compat;

import com.sun.net.httpserver.HttpServer;
import io.muster.testing.Http;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Set-ups that go wrong on a real Tomcat 10.1, and the commands of README.md and server-config/tomcat/ run as
 * written (read out of the files, so a changed document is tested as it now reads): the manager's deploy with the
 * context file, its redeploy and undeploy, the curl examples, a WAR under another context, the HTTP port taken.
 * Ports: {@code -Dtomcat.setup.port=P} uses P, P+1 and P+2 (default 18491).
 */
class TomcatSetupIT {
    private static final Path WAR = Path.of(System.getProperty("muster.war")).toAbsolutePath();
    private static final int PORT = Integer.getInteger("tomcat.setup.port", 18491);
    private static final Pattern CURL = Pattern.compile("^\\s*(curl .*)$", Pattern.MULTILINE);

    @BeforeAll
    static void serversUnpacked() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(RealTomcat.SERVERS),
                "the build unpacks the servers unless -Dservers.skip=true");
    }

    /**
     * Tomcat starts the application although it could not bind the connector of the node's own URL. The node must
     * then not sync, register itself or replicate as the owner of a URL where another process answers: the peer
     * hears nothing from it, the log says why once at SEVERE, and it answers no reads on the connector it has.
     */
    @Test
    void aNodeWhoseHttpPortIsTakenStaysOutOfItsCluster() throws Exception {
        List<String> heardByPeer = new CopyOnWriteArrayList<>();
        HttpServer peer = recordingPeer(PORT + 2, heardByPeer);
        try (ServerSocket taken = new ServerSocket(PORT, 50, InetAddress.getByName("127.0.0.1"));
             RealTomcat tomcat = new RealTomcat(Path.of("target", "tomcat-port-clash"), PORT, PORT + 1)) {
            String own = "http://127.0.0.1:" + PORT + "/eureka/";
            Files.writeString(tomcat.base().resolve("conf/Catalina/localhost/eureka.xml"), RealTomcat.contextFile(WAR,
                    Map.of("eureka.client.serviceUrl.defaultZone", own + ",http://127.0.0.1:" + (PORT + 2) + "/eureka/")));
            tomcat.start();
            Http other = new Http("http://127.0.0.1:" + (PORT + 1) + "/eureka/");
            RealTomcat.awaitStatus(other, "health/live", 200, 120);
            assertThat(tomcat.console()).as("the clash happened").contains("java.net.BindException");
            Thread.sleep(5_000);   // a node that joined would have synced and sent its registration by now
            assertThat(heardByPeer).as("requests the peer got from the node without its port").isEmpty();
            assertThat(tomcat.consoleLines("this node does not join its cluster")).singleElement()
                    .satisfies(line -> assertThat(line).contains("SEVERE", "its own URL " + own, "port " + PORT));
            assertThat(other.get("health/ready").status()).isNotEqualTo(200);
            assertThat(other.getJson("apps/").status()).as("reads").isEqualTo(403);
        } finally {
            peer.stop(0);
        }
    }

    /**
     * The manager commands of README.md (which must include those of the context file's comment) with the shipped
     * context file, the curl examples against the deployed WAR, and what Tomcat does to context files; then the
     * same WAR under /registry with the usual peer list, and as ROOT.
     */
    @Test
    void theDocumentedCommandsWorkAsWritten() throws Exception {
        List<String> readme = curlLines(Files.readString(Path.of("README.md")));
        List<String> manager = readme.stream().filter(c -> c.contains("/manager/text/")).toList();
        assertThat(manager).as("README's manager commands").hasSize(3);
        assertThat(manager).as("the context file's commands are README's")
                .containsAll(curlLines(Files.readString(Path.of("server-config/tomcat/eureka.xml"))));
        List<String> examples = readme.stream().filter(c -> c.contains("localhost:8761/eureka/apps/ORDERS")).toList();
        assertThat(examples).as("README's curl examples").hasSize(4);

        Path ops = Path.of("target", "tomcat-docs-ops").toAbsolutePath();
        io.muster.testing.Trees.deleteTree(ops);
        Files.createDirectories(ops);
        Path war = Files.copy(WAR, ops.resolve("eureka.war"));
        Path contextFile = ops.resolve("eureka.xml");
        Files.writeString(contextFile, RealTomcat.contextFile(war, Map.of("eureka.environment", "docs-first")));
        try (RealTomcat tomcat = new RealTomcat(Path.of("target", "tomcat-docs"), PORT)) {
            tomcat.start();
            String host = "http://127.0.0.1:" + PORT + "/";
            Http managerApi = new Http(host + "manager/text/").as("deployer", RealTomcat.DEPLOYER_PASSWORD);
            RealTomcat.awaitStatus(managerApi, "list", 200, 120);
            Http eureka = new Http(host + "eureka/");

            assertThat(runManager(manager.get(0), host, ops)).startsWith("OK");
            RealTomcat.awaitStatus(eureka, "health/live", 200, 60);
            assertThat(eureka.getJson("status").body()).as("the context file's settings").contains("docs-first");

            Files.writeString(contextFile, RealTomcat.contextFile(war, Map.of("eureka.environment", "docs-second")));
            assertThat(runManager(manager.get(1), host, ops)).startsWith("OK");
            awaitBody(eureka, "status", "docs-second", 60);

            List<String> answers = new ArrayList<>();
            for (String example : examples) {
                answers.add(run(example.replace("http://localhost:8761/eureka/", eureka.baseUrl())));
            }
            assertThat(answers).extracting(TomcatSetupIT::statusOf).containsExactly(204, 200, 200, 200);
            assertThat(answers.get(2)).contains("\"instanceId\":\"orders-1\"");

            Path copied = tomcat.base().resolve("conf/Catalina/localhost/eureka.xml");
            assertThat(copied).as("the manager's copy of the context file").exists();
            assertThat(runManager(manager.get(2), host, ops)).startsWith("OK");
            assertThat(copied).as("deleted by the undeploy, as the documents say").doesNotExist();
            assertThat(war).as("the WAR at docBase is kept").exists();
            assertThat(contextFile).as("the file given as config= is kept").exists();

            misnamedContext(tomcat, managerApi, war, ops, host);
            deployedAsRoot(tomcat, managerApi, war, ops, host);
        }
    }

    /** Deployed at /registry with a peer list that names this node as .../eureka/: named so, and reads open. */
    private static void misnamedContext(RealTomcat tomcat, Http managerApi, Path war, Path ops, String host)
            throws Exception {
        Path file = ops.resolve("registry.xml");
        Files.writeString(file, RealTomcat.contextFile(war,
                Map.of("eureka.client.serviceUrl.defaultZone", host + "eureka/")));
        assertThat(managerApi.get("deploy?path=/registry&config=file:" + file).body()).startsWith("OK");
        Http registry = new Http(host + "registry/");
        assertThat(registry.getJson("apps/").status()).as("reads open at once, nothing to wait for").isEqualTo(200);
        assertThat(tomcat.consoleLines("has this node's host and port")).singleElement().satisfies(line ->
                assertThat(line).contains("peer URL " + host + "eureka/ has this node's host and port but context"
                        + " path /eureka/ while this node is deployed at /registry/", "must use " + host + "registry/"));
        assertThat(tomcat.consoleLines("clients' serviceUrl is http://host:port/registry/")).isNotEmpty();
        assertThat(managerApi.get("undeploy?path=/registry").body()).startsWith("OK");
    }

    /** As ROOT, the start-up log says where clients point, and the usual /eureka/apps/ says where the API is. */
    private static void deployedAsRoot(RealTomcat tomcat, Http managerApi, Path war, Path ops, String host)
            throws Exception {
        Path file = ops.resolve("ROOT.xml");
        Files.writeString(file, RealTomcat.contextFile(war, Map.of()));
        assertThat(managerApi.get("deploy?path=/&config=file:" + file).body()).startsWith("OK");
        Http root = new Http(host);
        RealTomcat.awaitStatus(root, "health/live", 200, 60);
        Http.Reply misdirected = root.getJson("eureka/apps/");
        assertThat(misdirected.status()).isEqualTo(404);
        assertThat(misdirected.body()).contains("deployed as the root context", "/apps/");
        assertThat(root.getJson("apps/").status()).isEqualTo(200);
        assertThat(tomcat.consoleLines("deployed as the server's root context")).singleElement()
                .satisfies(line -> assertThat(line).contains("http://host:port/"));
        assertThat(managerApi.get("undeploy?path=/").body()).startsWith("OK");
    }

    private static List<String> curlLines(String document) {
        List<String> lines = new ArrayList<>();
        Matcher m = CURL.matcher(document);
        while (m.find()) {
            lines.add(m.group(1).trim());
        }
        return lines;
    }

    /** A documented manager command, with this test's server, directory and deployer password in it. */
    private static String runManager(String documented, String host, Path ops) throws Exception {
        return run(documented.replace("PASSWORD", RealTomcat.DEPLOYER_PASSWORD)
                .replace("http://localhost:8080/", host).replace("/opt/muster/", ops + "/"));
    }

    /** Runs a shell command line as an operator would paste it; its standard output. */
    private static String run(String commandLine) throws Exception {
        Process p = new ProcessBuilder("bash", "-c", commandLine).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(commandLine).isTrue();
        assertThat(p.exitValue()).as(commandLine).isZero();
        return new String(out, StandardCharsets.UTF_8);
    }

    /** The status of {@code curl -i}'s output (its first line, HTTP/1.1 204). */
    private static int statusOf(String curlOutput) {
        return Integer.parseInt(curlOutput.lines().findFirst().orElse("").split(" ")[1]);
    }

    /** A peer that answers as an empty Muster or Eureka node would and records what it is asked. */
    private static HttpServer recordingPeer(int port, List<String> heard) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/", exchange -> {
            heard.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            byte[] body = ("GET".equals(exchange.getRequestMethod())
                    ? "{\"applications\":{\"versions__delta\":\"1\",\"apps__hashcode\":\"\",\"application\":[]}}"
                    : "{\"responseList\":[]}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return server;
    }

    private static void awaitBody(Http http, String path, String text, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String last = "";
        while (System.nanoTime() < deadline && !last.contains(text)) {
            try {
                last = http.getJson(path).body();
            } catch (RuntimeException notListening) {
                last = "";
            }
            Thread.sleep(250);
        }
        assertThat(last).as(http.baseUrl() + path + " within " + seconds + " s").contains(text);
    }
}
