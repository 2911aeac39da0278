package io.muster.compat;

import java.io.BufferedReader;
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

    private final Process process;
    final String baseUrl;
    /** System.nanoTime() when the child reported that it serves. */
    final long readyAt;

    private ChildServer(Process process, String baseUrl, long readyAt) {
        this.process = process;
        this.baseUrl = baseUrl;
        this.readyAt = readyAt;
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
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(List.of(System.getProperty("payara.jvm.flags").trim().split("\\s+")));
        // a child starts from an empty registry unless its test asks for snapshots (later -D's win)
        cmd.add("-Deureka.server.snapshot.enabled=false");
        cmd.addAll(List.of(systemProperties));
        cmd.addAll(List.of("-Xmx512m", portArgument + port, "-Dmuster.users=" + ADMIN + ":" + ADMIN_PASSWORD
                        + ":eureka-admin," + PEER + ":" + PEER_PASSWORD + ":eureka-peer," + CLIENT + ":" + CLIENT_PASSWORD
                        + ":eureka-client" + moreUsers, "-Dpayara.domain.xml=" + System.getProperty("payara.domain.xml"),
                "-cp", System.getProperty("payara.embedded.jar"),
                "src/test/java/io/muster/dev/RunEmbedded.java", System.getProperty("muster.war")));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = r.readLine()) != null) {
            if (line.contains("SEVERE") || line.contains("MUSTER-DEPLOY-FAILED")) {
                System.out.println("[child] " + line);
            }
            if (line.startsWith("MUSTER-READY")) {
                Thread drain = new Thread(() -> {   // keep the child's output pipe from filling up
                    try {
                        while (r.readLine() != null) {
                            // discarded
                        }
                    } catch (Exception ignored) {
                        // the child ended
                    }
                }, "child-server-drain");
                drain.setDaemon(true);
                drain.start();
                return new ChildServer(p, "http://127.0.0.1:" + port + "/eureka/", System.nanoTime());
            }
        }
        p.destroyForcibly();
        throw new IllegalStateException("child server exited with " + p.waitFor());
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
        }
    }
}
