package io.muster.replication;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
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

    /** @param contextPath e.g. {@code /eureka}; @param myUrl null unless configured */
    public LocalNode(String contextPath, PeerUrl myUrl, Set<Integer> knownPorts) {
        this.contextPath = contextPath.endsWith("/") ? contextPath : contextPath + "/";
        this.myUrl = myUrl;
        this.ports.addAll(knownPorts);
    }

    /** Records a port this node answered on; true when it was new (the peer list should then be recomputed). */
    public boolean learnPort(int port) {
        return port > 0 && ports.add(port);
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
