package io.muster.jmx;

import io.muster.replication.PeerNode;

import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * One deployment's beans in the platform MBean server, where JConsole, Tomcat's JMX proxy, Payara's monitoring
 * and Jolokia look: registered at start, the peers' kept in step with the peer list, all unregistered at
 * {@link #close()}. The platform server outlives the application, so a bean left there would keep its class
 * loader (and every class of the WAR) alive after an undeploy.
 *
 * <p>Thread safety: {@link #refreshPeers()} runs on one lane; {@link #close()} may run beside it, and what either
 * registered is unregistered.
 */
public final class MusterMBeans implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(MusterMBeans.class.getName());
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final MBeanNames names;
    private final Parts parts;
    private final Set<ObjectName> registered = ConcurrentHashMap.newKeySet();
    /** The peers' beans, by URL. */
    private final Map<String, ObjectName> peerBeans = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private MusterMBeans(Parts parts, MBeanNames names) {
        this.parts = parts;
        this.names = names;
    }

    /**
     * Registers the deployment's beans; one that cannot be (its name taken) is logged and left out.
     *
     * @param host        the virtual server the application is deployed to
     * @param contextPath the application's context path ("" for the root context)
     */
    public static MusterMBeans register(Parts parts, String host, String contextPath) {
        MusterMBeans beans = new MusterMBeans(parts, new MBeanNames(host, contextPath));
        beans.add(beans.names.of("Registry"), new DescribedBean(new RegistryBean(parts), RegistryMXBean.class));
        beans.add(beans.names.of("ClusterCheck"), new DescribedBean(new ClusterCheckBean(parts.check(),
                parts.peers()), ClusterCheckMXBean.class));
        beans.add(beans.names.of("ChangeStreams"), new DescribedBean(new ChangeStreamsBean(parts.streams()),
                ChangeStreamsMXBean.class));
        beans.add(beans.names.of("Settings"), new DescribedBean(new SettingsBean(parts.keys()),
                SettingsMXBean.class));
        beans.refreshPeers();
        LOG.info("Muster: MBeans registered as " + beans.names.pattern());
        return beans;
    }

    /** A bean for each current peer, none for a peer that left. */
    public void refreshPeers() {
        Set<String> urls = parts.peers().get().stream().map(PeerNode.Status::url).collect(Collectors.toSet());
        peerBeans.keySet().removeIf(url -> {
            if (urls.contains(url)) {
                return false;
            }
            remove(peerBeans.get(url));
            return true;
        });
        for (String url : urls) {
            if (!closed && !peerBeans.containsKey(url)) {
                ObjectName name = names.of("Peer", url);
                if (add(name, new DescribedBean(new PeerBean(url, parts.peers()), PeerMXBean.class))) {
                    peerBeans.put(url, name);
                }
            }
        }
    }

    private boolean add(ObjectName name, DescribedBean bean) {
        try {
            server.registerMBean(bean, name);
            registered.add(name);
            if (closed) {
                remove(name);   // closed meanwhile: what close() saw did not include it
                return false;
            }
            return true;
        } catch (InstanceAlreadyExistsException e) {
            LOG.warning("Muster: MBean " + name + " not registered: the name is taken (another deployment with the"
                    + " same host and context path in this JVM, or one that did not stop)");
        } catch (JMException e) {
            LOG.warning("Muster: MBean " + name + " not registered: " + e);
        }
        return false;
    }

    private void remove(ObjectName name) {
        if (name == null || !registered.remove(name)) {
            return;
        }
        try {
            server.unregisterMBean(name);
        } catch (InstanceNotFoundException gone) {
            // unregistered by someone else (a console can): nothing is left either way
        } catch (JMException e) {
            LOG.warning("Muster: MBean " + name + " not unregistered: " + e);
        }
    }

    /** Unregisters every bean of this deployment. */
    @Override
    public void close() {
        closed = true;
        registered.forEach(this::remove);
        peerBeans.clear();
    }
}
