package io.muster.replication;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/** Resolves the peer DNS name (a headless service: one address per node) to the nodes' addresses. */
@FunctionalInterface
interface PeerDns {
    /** The JVM's resolver, which honours the JDK's address cache TTL between refreshes. */
    PeerDns SYSTEM = host -> {
        List<String> addresses = new ArrayList<>();
        for (InetAddress a : InetAddress.getAllByName(host)) {
            addresses.add(a.getHostAddress());
        }
        return addresses;
    };

    List<String> addresses(String host) throws UnknownHostException;
}
