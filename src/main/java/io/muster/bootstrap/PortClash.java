package io.muster.bootstrap;

import io.muster.config.ServerConfig.PeerConfig;
import io.muster.replication.LocalNode;
import io.muster.replication.PeerUrl;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether this node may join its cluster although a connector of its server failed to bind. Tomcat starts the
 * applications when a connector's port is held by another process; the node would then sync, serve nobody, and
 * register itself with its peers as the owner of a URL where another process answers, replacing that process's
 * own registration. A node whose own URL is on such a port, or that listens on no port at all, stays out.
 */
final class PortClash {
    private PortClash() {
    }

    /** The SEVERE line that says why this node stays out of its cluster and what to fix, or empty. */
    static Optional<String> find(LocalNode self, PeerConfig peers) {
        if (self.unboundPorts().isEmpty()) {
            return Optional.empty();
        }
        Optional<PeerUrl> own = self.ownUrlOnUnboundPort(parse(peers.serviceUrls()));
        if (own.isEmpty() && !self.listensNowhere()) {
            return Optional.empty();   // the failed connector is not the one this node is known by
        }
        String ports = self.unboundPorts().toString().replaceAll("[\\[\\]]", "");
        String what = own.map(url -> "its own URL " + url + " is on port " + url.port()
                + ", which the server's connector could not bind, so whatever answers there is another process")
                .orElse("no connector of this server listens");
        return Optional.of("Muster: this node does not join its cluster: " + what + " (port " + ports
                + ": the port is taken, see the BindException above). It does not register itself with its peers,"
                + " replicates nothing to them, saves no snapshot and answers reads with 403. To fix: stop the"
                + " process that holds port " + ports + " (ss -ltnp) or give this server's Connector another port"
                + " (server.xml) and the peer lists the matching URL, then restart the server.");
    }

    private static List<PeerUrl> parse(List<String> urls) {
        List<PeerUrl> parsed = new ArrayList<>();
        for (String url : urls) {
            try {
                parsed.add(PeerUrl.parse(url));
            } catch (IllegalArgumentException e) {
                // the peer list logs it when it reads the same URL
            }
        }
        return parsed;
    }
}
