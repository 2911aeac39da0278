package io.muster.compat;

import io.muster.testing.ChildJvm;
import io.muster.testing.Trees;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Tomcat 10.1 from target/servers in a JVM of its own, laid out as an operator would: a CATALINA_BASE with
 * the conf of CATALINA_HOME, its HTTP connectors on 127.0.0.1 at the ports given, no shutdown port, the users of
 * server-config/tomcat/tomcat-users-fragment.xml and the manager. Only the process started here is stopped.
 */
final class RealTomcat implements AutoCloseable {
    static final Path SERVERS = Path.of("target", "servers").toAbsolutePath();
    static final String DEPLOYER_PASSWORD = "CHANGE-ME-deployer";

    private final Path home;
    private final Path base;
    private Process process;

    /** @param ports the connectors: the first replaces Tomcat's 8080, the others are added beside it */
    RealTomcat(Path base, int... ports) throws IOException {
        this.home = home();
        this.base = base.toAbsolutePath();
        Trees.deleteTree(this.base);
        for (String d : new String[]{"conf/Catalina/localhost", "logs", "temp", "webapps", "work"}) {
            Files.createDirectories(this.base.resolve(d));
        }
        Trees.copyTree(home.resolve("conf"), this.base.resolve("conf"));
        Trees.copyTree(home.resolve("webapps/manager"), this.base.resolve("webapps/manager"));
        String connectors = IntStream.of(ports).skip(1)
                .mapToObj(p -> "<Connector address=\"127.0.0.1\" port=\"" + p + "\"/>").collect(Collectors.joining());
        Path serverXml = this.base.resolve("conf/server.xml");
        Files.writeString(serverXml, Files.readString(serverXml)
                .replace("<Server port=\"8005\"", "<Server port=\"-1\"")
                .replace("<Connector port=\"8080\"", connectors + "<Connector address=\"127.0.0.1\" port=\""
                        + ports[0] + "\""));
        Files.writeString(this.base.resolve("conf/tomcat-users.xml"), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<tomcat-users xmlns=\"http://tomcat.apache.org/xml\" version=\"1.0\">\n"
                + Files.readString(Path.of("server-config/tomcat/tomcat-users-fragment.xml")) + "</tomcat-users>\n");
    }

    static Path home() throws IOException {
        try (Stream<Path> s = Files.list(SERVERS)) {
            return s.filter(p -> p.getFileName().toString().startsWith("apache-tomcat-10.1")).findFirst()
                    .orElseThrow(() -> new IOException("no Tomcat 10.1 under " + SERVERS));
        }
    }

    Path base() {
        return base;
    }

    /** The shipped context file with docBase pointing at the WAR and the settings replaced as given. */
    static String contextFile(Path war, Map<String, String> settings) throws IOException {
        String xml = Files.readString(Path.of("server-config/tomcat/eureka.xml"))
                .replace("/opt/muster/eureka.war", war.toAbsolutePath().toString());
        for (Map.Entry<String, String> s : settings.entrySet()) {
            String before = xml;
            xml = xml.replaceFirst("name=\"" + java.util.regex.Pattern.quote(s.getKey()) + "\" value=\"[^\"]*\"",
                    java.util.regex.Matcher.quoteReplacement("name=\"" + s.getKey() + "\" value=\"" + s.getValue()
                            + "\""));
            if (xml.equals(before)) {
                throw new IllegalArgumentException("no Parameter " + s.getKey() + " in the shipped context file");
            }
        }
        return xml;
    }

    /**
     * @param jvmOptions added to CATALINA_OPTS (JMX remote settings, say); the child JVM options of every server
     *                   these checks start ({@link io.muster.testing.ChildJvm}): they measure behaviour, not speed
     */
    void start(String... jvmOptions) throws IOException {
        ProcessBuilder pb = new ProcessBuilder("bash", home.resolve("bin/catalina.sh").toString(), "run")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(
                        base.resolve("logs/console.log").toFile()));
        pb.environment().putAll(Map.of("CATALINA_HOME", home.toString(), "CATALINA_BASE", base.toString(),
                "CATALINA_PID", "", "JAVA_OPTS", "", "CATALINA_OPTS",
                String.join(" ", Stream.concat(Stream.of(ChildJvm.quickStartOptions(384)), Stream.of(jvmOptions)).toList())));
        process = pb.start();
    }

    /** Everything the server logged to its console so far. */
    String console() throws IOException {
        return Files.readString(base.resolve("logs/console.log"), StandardCharsets.ISO_8859_1);
    }

    /** The console lines that contain the text. */
    List<String> consoleLines(String text) throws IOException {
        return console().lines().filter(l -> l.contains(text)).toList();
    }

    /**
     * The console lines that contain the text, once one of them matches (within 5 s): the audit lane writes its
     * lines a moment after the request that caused them was answered.
     */
    List<String> awaitConsoleLines(String text, java.util.function.Predicate<String> match) {
        return io.muster.testing.Await.until("a console line with \"" + text + "\"", java.time.Duration.ofSeconds(5),
                () -> {
                    try {
                        return consoleLines(text);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }, lines -> lines.stream().anyMatch(match));
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            Trees.stop(process);
            process = null;
        }
    }

    /**
     * Tomcat's findleaks runs one full GC and lists stopped applications whose class loader survived it. Right after
     * an undeploy the loader can still be reachable for a moment (Tomcat renews its worker threads over the next
     * seconds; one run in seven here reported the WAR and the next call, three seconds later, did not), so a leak is a
     * loader that is still there after 30 s of asking, which is what an operator redeploying every day would see.
     *
     * @param manager the manager's text API as a manager-script user
     */
    static String findLeaksSettled(io.muster.testing.Http manager) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String answer = manager.get("findleaks?statusLine=true").body();
        while (!answer.contains("No memory leaks found") && System.nanoTime() < deadline) {
            Thread.sleep(2_000);
            answer = manager.get("findleaks?statusLine=true").body();
        }
        return answer;
    }

    /** Waits until the path answers with that status (-1 while nothing listens), or fails the test. */
    static void awaitStatus(io.muster.testing.Http http, String path, int status, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        int last = -1;
        while (System.nanoTime() < deadline) {
            try {
                last = http.get(path).status();
                if (last == status) {
                    return;
                }
            } catch (RuntimeException notListening) {
                last = -1;
            }
            Thread.sleep(250);
        }
        assertThat(last).as(http.baseUrl() + path + " within " + seconds + " s").isEqualTo(status);
    }
}
