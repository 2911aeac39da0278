package io.muster.replication;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
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
    /** The port this node names itself by: myUrl's, else the first one known. */
    private volatile int mainPort;

    /** @param contextPath e.g. {@code /eureka}; @param myUrl null unless configured */
    public LocalNode(String contextPath, PeerUrl myUrl, Set<Integer> knownPorts) {
        this.contextPath = contextPath.endsWith("/") ? contextPath : contextPath + "/";
        this.myUrl = myUrl;
        this.ports.addAll(knownPorts);
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

    boolean isMe(PeerUrl url) {
        if (myUrl != null) {
            return myUrl.base().equals(url.base());
        }
        String path = url.base().getRawPath();
        if (!(path.equals(contextPath) || (path + "/").equals(contextPath))) {
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
