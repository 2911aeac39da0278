package io.muster.replication;

import io.muster.config.ServerConfig.InstanceConfig;
import io.muster.model.DataCenterInfo;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.model.LeaseInfo;
import io.muster.model.PortInfo;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.registry.RenewOutcome;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.logging.Logger;

/**
 * This server as an instance of its own application, as a Eureka server's embedded client registers it: held in
 * this node's registry as a client write, so replication carries the registration and its renewals to every peer.
 * Stock Eureka peers count a peer as an available replica only when an instance of their own application with
 * the peer URL's host name is registered, so this is what makes a Muster node "available" to them.
 *
 * <p>Registered only while the node has peers (a standalone node has nobody to tell) and once its port is known.
 *
 * <p>Thread safety: {@link #renew} runs on the peers lane's thread; the built instance is published through a
 * volatile field.
 */
public final class SelfRegistration {
    private static final Logger LOG = Logger.getLogger(SelfRegistration.class.getName());
    static final int RENEWAL_INTERVAL_SECS = 30;
    private static final int DURATION_SECS = 90;

    private final InstanceConfig config;
    private final LocalNode self;
    private final InstanceRegistry registry;
    private final Clock clock;
    private final String contextPath;
    private volatile InstanceInfo instance;

    /** @param contextPath e.g. {@code /eureka} */
    public SelfRegistration(InstanceConfig config, LocalNode self, InstanceRegistry registry, Clock clock,
                            String contextPath) {
        this.config = config;
        this.self = self;
        this.registry = registry;
        this.clock = clock;
        this.contextPath = contextPath.endsWith("/") ? contextPath : contextPath + "/";
    }

    public String appName() {
        return config.appName();
    }

    /** This server's instance, or null until its port is known. */
    public InstanceInfo instance() {
        InstanceInfo built = instance;
        if (built == null) {
            OptionalInt port = self.port();
            if (port.isPresent()) {
                built = build(port.getAsInt());
                instance = built;
            }
        }
        return built;
    }

    /** Registers, or renews, this server's own instance when it has peers (every 30 s, as a client does). */
    public void renew(boolean hasPeers) {
        if (!config.registerWithPeers() || !hasPeers) {
            return;
        }
        InstanceInfo me = instance();
        if (me == null) {
            return;   // the port is learned from the first request; peers' batches arrive soon after start
        }
        RenewOutcome outcome = registry.renew(me.app(), me.id(), me.lastDirtyTimestamp(), null, Origin.CLIENT);
        if (outcome.result() == RenewOutcome.Result.NOT_FOUND) {
            try {
                registry.registerOwnInstance(me);
            } catch (RuntimeException e) {
                // never a reason to fail the start (or the timer): the node serves without counting as a replica
                LOG.warning("Muster: cannot register itself as " + me.app() + "/" + me.id() + ": " + e.getMessage());
                return;
            }
            LOG.info("Muster: registered itself as " + me.app() + "/" + me.id() + " (host " + me.hostName()
                    + ") so that peers count it as a replica");
        }
    }

    /** At shutdown: peers learn at once that this replica is gone. */
    public void cancel() {
        InstanceInfo me = instance;
        if (me != null) {
            registry.cancel(me.app(), me.id(), Origin.CLIENT);
        }
    }

    private InstanceInfo build(int port) {
        String ip = config.ipAddress() != null ? config.ipAddress() : localAddress(true);
        String host = config.hostName() != null ? config.hostName()
                : config.preferIpAddress() ? ip
                : self.myUrlHost() != null ? self.myUrlHost() : localAddress(false);
        String app = config.appName();
        String id = config.instanceId() != null ? config.instanceId()
                : host + ":" + app.toLowerCase(Locale.ROOT) + ":" + port;   // Spring Cloud's default instance id
        String base = "http://" + host + ":" + port;
        long now = clock.millis();
        return InstanceInfo.builder().instanceId(id).app(app).hostName(host).ipAddr(ip)
                .status(InstanceStatus.UP).port(new PortInfo(port, true)).securePort(new PortInfo(443, false))
                .dataCenterInfo(DataCenterInfo.MY_OWN)
                .leaseInfo(new LeaseInfo(RENEWAL_INTERVAL_SECS, DURATION_SECS, 0, 0, 0, 0))
                .metadata(Map.of("muster.server", "true"))
                .homePageUrl(base + "/").statusPageUrl(base + contextPath).healthCheckUrl(base + contextPath + "health")
                .vipAddress(app.toLowerCase(Locale.ROOT)).secureVipAddress(app.toLowerCase(Locale.ROOT))
                .lastUpdatedTimestamp(now).lastDirtyTimestamp(now).build();
    }

    /** Eureka's defaults: the machine's host name and address as Java resolves them. */
    private static String localAddress(boolean ip) {
        try {
            InetAddress local = InetAddress.getLocalHost();
            return ip ? local.getHostAddress() : local.getHostName();
        } catch (UnknownHostException e) {
            return ip ? "127.0.0.1" : "localhost";
        }
    }
}
