package io.muster.chaos;

import io.muster.testing.Trees;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One Muster node: the WAR on a real Tomcat 10.1 in its own JVM, laid out as bench/tomcat.sh does it (CATALINA_BASE
 * with conf copied from CATALINA_HOME, the connector on 127.0.0.1:port, no shutdown port, the operator's context
 * file pointing at the WAR, the users of tomcat-users-fragment.xml) plus Tomcat's manager, so the application can be
 * undeployed and deployed again while the JVM lives. Only the process started here is ever stopped, by its PID.
 */
final class TomcatNode implements AutoCloseable {
    private static final Pattern FULL_GC_AFTER = Pattern.compile("->(\\d+)M\\(");
    private static final Pattern HEAP_USED = Pattern.compile("heap\\s+total \\d+K, used (\\d+)K");

    final String name;
    final int port;
    private final Path home;
    private final Path base;
    private final Path war;
    private final Path contextFile;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;

    TomcatNode(String name, int port, Path home, Path base, Path war, Path repo) throws IOException {
        this(name, port, home, base, war, repo, true);
    }

    /**
     * @param traceWrites every registry write in the log (the fault harness follows instances by it; a harness
     *                    that writes tens of thousands of junk instances would only measure its own logging)
     */
    TomcatNode(String name, int port, Path home, Path base, Path war, Path repo, boolean traceWrites)
            throws IOException {
        this.name = name;
        this.port = port;
        this.home = home;
        this.base = base;
        this.war = war;
        this.contextFile = base.resolve("eureka-context.xml");
        Trees.deleteTree(base);
        for (String d : new String[]{"conf/Catalina/localhost", "logs", "temp", "webapps", "work"}) {
            Files.createDirectories(base.resolve(d));
        }
        Trees.copyTree(home.resolve("conf"), base.resolve("conf"));
        Trees.copyTree(home.resolve("webapps/manager"), base.resolve("webapps/manager"));
        String serverXml = Files.readString(base.resolve("conf/server.xml"))
                .replace("<Server port=\"8005\"", "<Server port=\"-1\"")
                .replace("<Connector port=\"8080\"", "<Connector address=\"127.0.0.1\" port=\"" + port + "\"")
                .replaceAll("(?s)<Valve className=\"org\\.apache\\.catalina\\.valves\\.AccessLogValve\".*?/>", "");
        Files.writeString(base.resolve("conf/server.xml"), serverXml);
        if (traceWrites) {
            // every visible registry write in the node's log, so a lost or resurrected instance can be followed
            Files.writeString(base.resolve("conf/logging.properties"), "\nio.muster.registry.InstanceRegistry.trace"
                    + ".level = FINE\n", java.nio.file.StandardOpenOption.APPEND);
        }
        Files.writeString(base.resolve("conf/tomcat-users.xml"), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<tomcat-users xmlns=\"http://tomcat.apache.org/xml\" version=\"1.0\">\n"
                + Files.readString(repo.resolve("server-config/tomcat/tomcat-users-fragment.xml")) + "</tomcat-users>\n");
        Files.writeString(contextFile, Files.readString(repo.resolve("server-config/tomcat/eureka.xml"))
                .replace("/opt/muster/eureka.war", war.toString()));
        Files.copy(contextFile, base.resolve("conf/Catalina/localhost/eureka.xml"));
    }

    /** The lines of this node's console log that mention the text (all of them: logs are per run). */
    List<String> logLines(String text) {
        try (java.util.stream.Stream<String> lines = Files.lines(base.resolve("logs/console.log"))) {
            return lines.filter(l -> l.contains(text)).map(l -> name + " " + l).toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            return List.of(name + ": log not readable: " + e.getMessage());
        }
    }

    /** CATALINA_BASE: logs, temp (java.io.tmpdir) and work (the context's temp, and muster: the snapshot's home). */
    Path base() {
        return base;
    }

    String url() {
        return "http://127.0.0.1:" + port + "/eureka/";
    }

    /** Starts the JVM (settings as -D options) and returns once the registry answers reads (or throws). */
    void start(List<String> jvmOptions, Duration timeout) throws IOException, InterruptedException {
        if (status("health/live") != -1) {
            // a Tomcat left over from an interrupted run would answer in this one's place, and every fault
            // would be injected into processes that are not the ones under test
            throw new IOException(name + ": port " + port + " is already served by another process");
        }
        ProcessBuilder pb = new ProcessBuilder("bash", home.resolve("bin/catalina.sh").toString(), "run")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(
                        base.resolve("logs/console.log").toFile()));
        pb.environment().put("CATALINA_HOME", home.toString());
        pb.environment().put("CATALINA_BASE", base.toString());
        pb.environment().put("CATALINA_PID", "");
        pb.environment().put("JAVA_OPTS", "");
        // the GC's own account of each collection: the heap after a full GC, read without a second attach
        pb.environment().put("CATALINA_OPTS", String.join(" ", jvmOptions) + " -Xlog:gc:file="
                + base.resolve("logs/gc.log") + ":uptime");
        process = pb.start();
        awaitStarted(timeout);
    }

    /**
     * Waits for the start-up probe, not readiness: a node started while none of its peers is up (the first of a
     * whole-cluster restart) holds reads until one answers, and the next node is started only after this returns.
     */
    void awaitStarted(Duration timeout) throws InterruptedException, IOException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (status("health/started") == 200) {
                return;
            }
            if (process != null && !process.isAlive()) {
                throw new IOException(name + " exited with " + process.exitValue() + " (see " + base + "/logs)");
            }
            Thread.sleep(250);
        }
        throw new IOException(name + " not started within " + timeout + " (see " + base + "/logs)");
    }

    /** SIGTERM, as an init system stops it: Tomcat undeploys, the node saves its snapshot on the way out. */
    void stop() throws InterruptedException {
        if (process != null) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
            process = null;
        }
    }

    /** SIGKILL: no shutdown hook, no listener, no snapshot on the way out. */
    void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
            process = null;
        }
    }

    /** The application undeployed through Tomcat's manager; the JVM stays up. */
    void undeploy() throws IOException, InterruptedException {
        manager("undeploy?path=/eureka");
    }

    /** Deployed again with the same context file, as an operator's redeploy does. */
    void deploy(Duration timeout) throws IOException, InterruptedException {
        manager("deploy?path=/eureka&war=file:" + war + "&config=file:" + contextFile);
        awaitStarted(timeout);
    }

    private void manager(String command) throws IOException, InterruptedException {
        String auth = Base64.getEncoder().encodeToString("deployer:CHANGE-ME-deployer".getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/manager/text/" + command)).header("Authorization", "Basic " + auth)
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        if (!r.body().startsWith("OK")) {
            throw new IOException(name + ": manager " + command + " answered " + r.body().strip());
        }
    }

    int status(String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    long pid() {
        return process == null ? -1 : process.pid();
    }

    boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Heap used right after a full GC, in KB (jcmd), or -1 when the JVM is not running. */
    long heapAfterGcKb() {
        if (!isRunning()) {
            return -1;
        }
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        try {
            run(jcmd, Long.toString(pid()), "GC.run");
            long logged = lastFullGcAfterKb();
            if (logged >= 0) {
                return logged;
            }
            // a second attach: what was allocated meanwhile counts too (tens of MB under load)
            Matcher m = HEAP_USED.matcher(run(jcmd, Long.toString(pid()), "GC.heap_info"));
            return m.find() ? Long.parseLong(m.group(1)) : -1;
        } catch (IOException e) {
            return -1;
        }
    }

    /** The classes holding the most live heap (jcmd GC.class_histogram), one "bytes class" line each. */
    List<String> largestClasses(int top) {
        if (!isRunning()) {
            return List.of();
        }
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        try {
            // rows are "num: instances bytes class"; jcmd's first line, "PID:", is not one
            return run(jcmd, Long.toString(pid()), "GC.class_histogram").lines()
                    .filter(l -> l.matches("\\s*\\d+:\\s+\\d+\\s+\\d+\\s+\\S.*")).limit(top)
                    .map(l -> l.trim().split("\\s+")).map(f -> f[2] + " " + f[3]).toList();
        } catch (IOException | RuntimeException e) {
            return List.of("histogram not read: " + e);
        }
    }

    /** The heap after the last full GC the JVM logged ("Pause Full (Diagnostic Command) 59M->32M(95M)"), or -1. */
    private long lastFullGcAfterKb() {
        try (Stream<String> lines = Files.lines(base.resolve("logs/gc.log"))) {
            String last = lines.filter(l -> l.contains("Pause Full (")).reduce((a, b) -> b).orElse(null);
            Matcher m = last == null ? null : FULL_GC_AFTER.matcher(last);
            return m != null && m.find() ? Long.parseLong(m.group(1)) * 1024 : -1;
        } catch (IOException | UncheckedIOException e) {
            return -1;
        }
    }

    int threads() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
                if (line.startsWith("Threads:")) {
                    return Integer.parseInt(line.substring(8).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // not running, or no /proc
        }
        return -1;
    }

    int openFiles() {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid()), "fd"))) {
            return (int) fds.count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static String run(String... command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(60, TimeUnit.SECONDS);
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted");
        }
    }

    /** A clean stop (SIGTERM: Tomcat stops the application first), forcibly after 30 s. */
    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            Trees.stop(process);
            process = null;
        }
    }

    static Path catalinaHome(Path repo) throws IOException {
        try (Stream<Path> s = Files.list(repo.resolve("target/servers"))) {
            return s.filter(p -> p.getFileName().toString().startsWith("apache-tomcat-10.1")).findFirst()
                    .orElseThrow(() -> new IOException("no Tomcat under target/servers: run"
                            + " mvn -o -q dependency:unpack@unpack-servers"));
        }
    }
}
