package io.muster.compat;

import io.muster.testing.ChildJvm;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packaged WAR on embedded Payara in a child JVM (started through RunEmbedded as a single source file), so the
 * test JVM can hold real Eureka clients whose Jersey and JSON stack must not meet Payara's. Stopped by the PID
 * this class started.
 */
final class ChildServer implements AutoCloseable {
    /** Realm users every child server gets (RunEmbedded creates them from -Dmuster.users). */
    static final String ADMIN = "admin";
    static final String ADMIN_PASSWORD = "admin-pw";
    static final String PEER = "peer";
    static final String PEER_PASSWORD = "peer-pw";
    static final String CLIENT = "client";
    static final String CLIENT_PASSWORD = "client-pw";

    private static final int LOG_LINES_KEPT = 2_000;
    private final Process process;
    final String baseUrl;
    /** The child's own log lines ("Muster: ..."), the first {@value #LOG_LINES_KEPT}, for tests of what it logs. */
    final List<String> musterLog;
    /** System.nanoTime() when the child reported that it serves. */
    final long readyAt;

    private ChildServer(Process process, String baseUrl, long readyAt, List<String> musterLog) {
        this.process = process;
        this.musterLog = musterLog;
        this.baseUrl = baseUrl;
        this.readyAt = readyAt;
    }

    /** The peers setting of a cluster of child servers on these ports, each named with the realm's peer user. */
    static String peersOn(int... ports) {
        StringBuilder urls = new StringBuilder();
        for (int port : ports) {
            urls.append(urls.length() == 0 ? "" : ",").append("http://peer:peer-pw@127.0.0.1:").append(port)
                    .append("/eureka/");
        }
        return "-Deureka.client.serviceUrl.defaultZone=" + urls;
    }

    static ChildServer start(int port, String... systemProperties) throws Exception {
        return start("-Dport=", port, "", systemProperties);
    }

    /** A child whose realm has these users too ({@code user:password:group[;group...]}, comma-separated). */
    static ChildServer startWithUsers(int port, String moreUsers, String... systemProperties) throws Exception {
        return start("-Dport=", port, "," + moreUsers, systemProperties);
    }

    /**
     * A child whose application is not told its port (no {@code -Dport}), as on a container where nothing says it:
     * the server then learns the port from its first request.
     */
    static ChildServer startWithoutPortHint(int port, String... systemProperties) throws Exception {
        return start("-Dembedded.port=", port, "", systemProperties);
    }

    /** Starts several children at once (as a cluster is started), each with its own settings. */
    static List<ChildServer> startTogether(int[] ports, String... systemProperties) throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(ports.length);
        try {
            List<java.util.concurrent.Future<ChildServer>> futures = new ArrayList<>();
            for (int port : ports) {
                futures.add(pool.submit(() -> start(port, systemProperties)));
            }
            List<ChildServer> servers = new ArrayList<>();
            for (java.util.concurrent.Future<ChildServer> f : futures) {
                servers.add(f.get(5, TimeUnit.MINUTES));
            }
            return servers;
        } finally {
            pool.shutdown();
        }
    }

    private static ChildServer start(String portArgument, int port, String moreUsers, String... systemProperties)
            throws Exception {
        return start(portArgument, port, moreUsers, null, systemProperties);
    }

    /** @param classData the class-data archive's JVM options, or null for those {@link ChildLauncher} gives */
    private static ChildServer start(String portArgument, int port, String moreUsers, List<String> classData,
                                     String... systemProperties) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(List.of(System.getProperty("payara.jvm.flags").trim().split("\\s+")));
        // Payara's start is mostly one-off code: C2 compiling it took a second core from whatever the test runs
        // beside it (27 s of CPU per start with C2, 13 s with C1; 16 s to serving, 10.5 s)
        cmd.addAll(ChildJvm.FUNCTIONAL_CHECK);
        cmd.addAll(classData != null ? classData : ChildLauncher.classDataOptions(options -> {
            // the warm-up: the same child on the same port, stopped once it serves (it writes the archive then)
            start(portArgument, port, moreUsers, options).close();
        }));
        // a child starts from an empty registry unless its test asks for snapshots (later -D's win)
        cmd.add("-Deureka.server.snapshot.enabled=false");
        cmd.addAll(List.of(systemProperties));
        cmd.addAll(List.of("-Xmx512m", portArgument + port, "-Dmuster.users=" + ADMIN + ":" + ADMIN_PASSWORD
                        + ":eureka-admin," + PEER + ":" + PEER_PASSWORD + ":eureka-peer," + CLIENT + ":" + CLIENT_PASSWORD
                        + ":eureka-client" + moreUsers, "-Dpayara.domain.xml=" + System.getProperty("payara.domain.xml"),
                "-cp", ChildLauncher.jar() + File.pathSeparator + System.getProperty("payara.embedded.jar"),
                "io.muster.dev.RunEmbedded", System.getProperty("muster.war")));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        List<String> musterLog = new java.util.concurrent.CopyOnWriteArrayList<>();
        String line;
        while ((line = r.readLine()) != null) {
            keep(musterLog, line);
            if (line.contains("SEVERE") || line.contains("MUSTER-DEPLOY-FAILED")) {
                System.out.println("[child] " + line);
            }
            if (line.startsWith("MUSTER-READY")) {
                Thread drain = new Thread(() -> {   // keep the child's output pipe from filling up
                    try {
                        String more;
                        while ((more = r.readLine()) != null) {
                            keep(musterLog, more);
                        }
                    } catch (Exception ignored) {
                        // the child ended
                    }
                }, "child-server-drain");
                drain.setDaemon(true);
                drain.start();
                return new ChildServer(p, "http://127.0.0.1:" + port + "/eureka/", System.nanoTime(), musterLog);
            }
        }
        p.destroyForcibly();
        throw new IllegalStateException("child server exited with " + p.waitFor());
    }

    private static void keep(List<String> musterLog, String line) {
        if (line.contains("Muster: ") && musterLog.size() < LOG_LINES_KEPT) {
            musterLog.add(line);
        }
    }

    /** The base URL with credentials in it, as operators write peer and client service URLs. */
    String urlWithCredentials(String user, String password) {
        return baseUrl.replace("://", "://" + user + ":" + password + "@");
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
