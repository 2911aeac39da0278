package io.muster.resources;

import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/**
 * The URL layout: Spring Cloud clients call {@code {ctx}/apps/...}, Netflix clients {@code {ctx}/v2/apps/...};
 * any version segment is accepted and means v2 (only XStream's v1 output differed, and no client asks for it).
 */
@Path("/")
public final class EurekaRoot {
    private static final String VERSION = "{version: [vV][0-9]+}/";

    private final ApplicationsResource apps;
    private final VipResource vips;
    private final VipResource secureVips;
    private final InstancesResource instances;
    private final StatusResource status;
    private final PeerReplicationResource replication;

    public EurekaRoot(Api api) {
        this.apps = new ApplicationsResource(api);
        this.vips = new VipResource(api, false);
        this.secureVips = new VipResource(api, true);
        this.instances = new InstancesResource(api);
        this.status = new StatusResource(api);
        this.replication = new PeerReplicationResource(api);
    }

    @Path("apps")
    public ApplicationsResource apps() {
        return apps;
    }

    @Path(VERSION + "apps")
    public ApplicationsResource versionedApps(@PathParam("version") String version) {
        return apps;
    }

    @Path("vips")
    public VipResource vips() {
        return vips;
    }

    @Path(VERSION + "vips")
    public VipResource versionedVips(@PathParam("version") String version) {
        return vips;
    }

    @Path("svips")
    public VipResource secureVips() {
        return secureVips;
    }

    @Path(VERSION + "svips")
    public VipResource versionedSecureVips(@PathParam("version") String version) {
        return secureVips;
    }

    @Path("instances")
    public InstancesResource instances() {
        return instances;
    }

    @Path(VERSION + "instances")
    public InstancesResource versionedInstances(@PathParam("version") String version) {
        return instances;
    }

    @Path("status")
    public StatusResource status() {
        return status;
    }

    @Path(VERSION + "status")
    public StatusResource versionedStatus(@PathParam("version") String version) {
        return status;
    }

    @Path("peerreplication")
    public PeerReplicationResource replication() {
        return replication;
    }

    @Path(VERSION + "peerreplication")
    public PeerReplicationResource versionedReplication(@PathParam("version") String version) {
        return replication;
    }
}
