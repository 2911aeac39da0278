package io.muster.replication;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tells whether a peer URL points at this node: by scheme, host, port and context path, not host alone (Eureka's
 * host-only test makes several nodes on one machine never replicate). An explicit {@code myUrl} wins; otherwise
 * the host must be one of this machine's addresses, the path this context's, and the port one this node serves
 * (known from start-up settings, and learned from the requests it answers).
 *
 * <p>Thread safety: the learned ports are a concurrent set.
 */
public final class LocalNode {
    private final String contextPath;
    private final PeerUrl myUrl;
    private final Set<Integer> ports = ConcurrentHashMap.newKeySet();
    /** Ports of this node's connectors that failed to bind: another process answers there, never this node. */
    private final Set<Integer> unboundPorts;
    /** The port this node names itself by: myUrl's, else the first one known. */
    private volatile int mainPort;

    /** @param contextPath e.g. {@code /eureka}; @param myUrl null unless configured */
    public LocalNode(String contextPath, PeerUrl myUrl, Set<Integer> knownPorts) {
        this(contextPath, myUrl, knownPorts, Set.of());
    }

    /** @param unboundPorts ports of this node's connectors that failed to bind (a port clash) */
    public LocalNode(String contextPath, PeerUrl myUrl, Set<Integer> knownPorts, Set<Integer> unboundPorts) {
        this.contextPath = contextPath.endsWith("/") ? contextPath : contextPath + "/";
        this.myUrl = myUrl;
        this.ports.addAll(knownPorts);
        this.unboundPorts = Set.copyOf(unboundPorts);
        this.mainPort = myUrl != null ? myUrl.port() : knownPorts.stream().mapToInt(Integer::intValue).min().orElse(0);
    }

    /** Records a port this node answered on; true when it was new (the peer list should then be recomputed). */
    public boolean learnPort(int port) {
        boolean added = port > 0 && ports.add(port);
        if (added && mainPort == 0) {
            mainPort = port;
        }
        return added;
    }

    /** Whether this node knows a port it serves on (until then, any local URL with its context may be itself). */
    public boolean knowsItsPort() {
        return !ports.isEmpty() || myUrl != null;
    }

    /** The port this node names itself by, once known. */
    public OptionalInt port() {
        int p = mainPort;
        return p > 0 ? OptionalInt.of(p) : OptionalInt.empty();
    }

    /** The context path, ending in a slash. */
    public String contextPath() {
        return contextPath;
    }

    /** The host of the configured {@code myUrl}, or null. */
    public String myUrlHost() {
        return myUrl == null ? null : myUrl.base().getHost();
    }

    /** Ports of this node's connectors that failed to bind. */
    public Set<Integer> unboundPorts() {
        return unboundPorts;
    }

    /** Whether every connector this node has failed to bind: no URL reaches it. */
    public boolean listensNowhere() {
        return ports.isEmpty() && !unboundPorts.isEmpty();
    }

    /**
     * The first of these URLs that names this node (its {@code myUrl}, or one on this machine with this context)
     * at a port whose connector failed to bind: whatever answers there is another process.
     */
    public Optional<PeerUrl> ownUrlOnUnboundPort(List<PeerUrl> urls) {
        if (myUrl != null) {
            return unboundPorts.contains(myUrl.port()) ? Optional.of(myUrl) : Optional.empty();
        }
        return urls.stream().filter(u -> unboundPorts.contains(u.port()) && hasMyContext(u)
                && isLocalAddress(u.base().getHost())).findFirst();
    }

    /**
     * Whether the URL has this node's host and port but another context path: it can only be this node, misspelt
     * (a WAR deployed under another name than the peer list says), never a peer, since this node's server answers
     * that port. False while the port is unknown.
     */
    public boolean isMeUnderAnotherContext(PeerUrl url) {
        if (hasMyContext(url)) {
            return false;
        }
        if (myUrl != null) {
            return myUrl.base().getHost().equals(url.base().getHost()) && myUrl.port() == url.port();
        }
        return ports.contains(url.port()) && isLocalAddress(url.base().getHost());
    }

    /** Where clients reach this node, spelled with the host and port of the URL that misnamed it. */
    public String urlLike(PeerUrl url) {
        return url.base().getScheme() + "://" + url.base().getHost() + ":" + url.port() + contextPath;
    }

    private boolean hasMyContext(PeerUrl url) {
        String path = url.base().getRawPath();
        return path.equals(contextPath) || (path + "/").equals(contextPath);
    }

    boolean isMe(PeerUrl url) {
        if (myUrl != null) {
            return myUrl.base().equals(url.base());
        }
        if (!hasMyContext(url)) {
            return false;
        }
        if (!ports.isEmpty() && !ports.contains(url.port())) {
            return false;
        }
        return isLocalAddress(url.base().getHost());
    }

    private static boolean isLocalAddress(String host) {
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (a.isLoopbackAddress() || a.isAnyLocalAddress() || NetworkInterface.getByInetAddress(a) != null) {
                    return true;
                }
            }
            return false;
        } catch (UnknownHostException | SocketException e) {
            return false;
        }
    }
}
