package io.muster.chaos;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Three Muster nodes on Tomcat (ports 18951-18953), each reaching the others through a {@link LinkProxy} of its
 * own per peer (ports 18961-18969, see {@link #proxyPort}), each listing all three URLs with the eureka-peer
 * credentials, as operators configure a cluster.
 */
final class Cluster implements AutoCloseable {
    static final int FIRST_NODE_PORT = 18951;
    static final int FIRST_PROXY_PORT = 18961;
    static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    final List<TomcatNode> nodes = new ArrayList<>();
    /** links[from][to], null on the diagonal. */
    final LinkProxy[][] links;
    private final List<String> settings;

    Cluster(Path repo, Path work, int size, List<String> settings) throws IOException {
        this.settings = settings;
        Path home = TomcatNode.catalinaHome(repo);
        // -Dchaos.war=other.war runs the faults against another build (to see a defect before its fix)
        Path war = Path.of(System.getProperty("chaos.war", repo.resolve("target/eureka.war").toString()))
                .toAbsolutePath();
        links = new LinkProxy[size][size];
        for (int i = 0; i < size; i++) {
            nodes.add(new TomcatNode("node" + (i + 1), FIRST_NODE_PORT + i, home, work.resolve("node" + (i + 1)), war,
                    repo));
            for (int j = 0; j < size; j++) {
                if (i != j) {
                    links[i][j] = new LinkProxy(proxyPort(i, j, size), FIRST_NODE_PORT + j);
                }
            }
        }
    }

    static int proxyPort(int from, int to, int size) {
        return FIRST_PROXY_PORT + from * size + to;
    }

    /** Node i's JVM options: heap, its peer URLs (its own direct URL first, the others through its links). */
    List<String> options(int i) {
        StringBuilder zone = new StringBuilder();
        for (int j = 0; j < nodes.size(); j++) {
            int port = i == j ? FIRST_NODE_PORT + j : proxyPort(i, j, nodes.size());
            zone.append(zone.length() == 0 ? "" : ",").append("http://peer:CHANGE-ME-peer@127.0.0.1:").append(port)
                    .append("/eureka/");
        }
        List<String> out = new ArrayList<>(List.of("-Xms64m", "-Xmx384m", "-XX:+UseG1GC",
                "-Deureka.client.serviceUrl.defaultZone=" + zone));
        out.addAll(settings);
        return out;
    }

    void start(int i) throws IOException, InterruptedException {
        nodes.get(i).start(options(i), START_TIMEOUT);
    }

    /** Every node's log lines that mention the text, node by node. */
    List<String> logLinesAbout(String text) {
        return nodes.stream().flatMap(n -> n.logLines(text).stream()).toList();
    }

    List<String> urls() {
        return nodes.stream().map(TomcatNode::url).toList();
    }

    /** Every link between a and b, both ways, set to the mode. */
    void linkBetween(int a, int b, LinkProxy.Mode mode, long delay) {
        links[a][b].set(mode, delay);
        links[b][a].set(mode, delay);
    }

    /** Every link into node b set to the mode (as if b itself misbehaved on replication). */
    void linksInto(int b, LinkProxy.Mode mode) {
        for (int a = 0; a < nodes.size(); a++) {
            if (a != b) {
                links[a][b].set(mode, 0);
            }
        }
    }

    void healLinks() {
        for (LinkProxy[] row : links) {
            for (LinkProxy l : row) {
                if (l != null) {
                    l.set(LinkProxy.Mode.PASS, 0);
                }
            }
        }
    }

    @Override
    public void close() {
        for (TomcatNode n : nodes) {
            try {
                n.close();
            } catch (Exception e) {
                // the others are still stopped
            }
        }
        for (LinkProxy[] row : links) {
            for (LinkProxy l : row) {
                if (l != null) {
                    try {
                        l.close();
                    } catch (IOException ignored) {
                        // closing anyway
                    }
                }
            }
        }
    }
}
