package io.muster.replication;

import io.muster.config.ServerConfig.PeerConfig;

import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Which URLs are this node's peers now: the configured service URLs and the addresses the peer DNS name resolves
 * to, less this node itself (under any of its names) and less a URL with this node's host and port under another
 * context path, which is said once and left out. A DNS hiccup keeps the last answer rather than dropping every
 * peer and its queue.
 *
 * <p>Not thread-safe: {@link PeerCluster} asks it under its refresh lock only.
 */
final class PeerUrls {
    private static final Logger LOG = Logger.getLogger(PeerCluster.class.getName());
    private final PeerConfig config;
    private final LocalNode self;
    private final PeerDns dns;
    private List<PeerUrl> lastResolved = List.of();
    /** The URLs already logged as this node under another context path (each is said once). */
    private final Set<String> misnamed = new HashSet<>();

    PeerUrls(PeerConfig config, LocalNode self, PeerDns dns) {
        this.config = config;
        this.self = self;
        this.dns = dns;
    }

    /** The peers' URLs by base URL, in configuration order, each once. */
    Map<String, PeerUrl> now() {
        Map<String, PeerUrl> wanted = new LinkedHashMap<>();
        for (PeerUrl url : candidates()) {
            if (self.isMeUnderAnotherContext(url)) {
                sayMisnamedOnce(url);
            } else if (!self.isMe(url)) {
                wanted.putIfAbsent(url.base().toString(), url);
            }
        }
        return wanted;
    }

    /**
     * A URL on this node's own host and port but another context would answer 404 as a peer, and taking it for an
     * unreachable peer would hold reads back for nothing: it is this node, named wrongly, and left out.
     */
    private void sayMisnamedOnce(PeerUrl url) {
        if (misnamed.add(url.base().toString())) {
            LOG.warning("Muster: peer URL " + url + " has this node's host and port but context path "
                    + url.base().getRawPath() + " while this node is deployed at " + self.contextPath()
                    + ": it is not taken as a peer; clients and the other nodes must use " + self.urlLike(url)
                    + " (or deploy the WAR as " + contextFileName(url.base().getRawPath()) + ")");
        }
    }

    /** The WAR name that gives a context path ({@code /eureka/}: eureka.war; {@code /}: ROOT.war). */
    private static String contextFileName(String path) {
        String name = path.replaceAll("^/+|/+$", "").replace('/', '#');
        return (name.isEmpty() ? "ROOT" : name) + ".war";
    }

    private List<PeerUrl> candidates() {
        List<PeerUrl> urls = new ArrayList<>();
        for (String s : config.serviceUrls()) {
            try {
                urls.add(PeerUrl.parse(s));
            } catch (IllegalArgumentException e) {
                LOG.warning("Muster: ignoring peer URL: " + e.getMessage());
            }
        }
        if (config.dnsUrl() != null) {
            PeerUrl template = PeerUrl.parse(config.dnsUrl());
            try {
                List<PeerUrl> resolved = new ArrayList<>();
                for (String address : dns.addresses(template.base().getHost())) {
                    resolved.add(template.withHost(address));
                }
                lastResolved = List.copyOf(resolved);
            } catch (UnknownHostException e) {
                LOG.warning("Muster: peer DNS name " + template.base().getHost() + " does not resolve"
                        + (lastResolved.isEmpty() ? " yet" : "; keeping the " + lastResolved.size() + " peers it had"));
            }
            urls.addAll(lastResolved);
        }
        return urls;
    }
}
