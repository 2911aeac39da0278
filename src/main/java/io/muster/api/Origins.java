package io.muster.api;

import io.muster.registry.Origin;

/** The replication header Eureka peers set on writes they forward. */
public final class Origins {
    public static final String REPLICATION_HEADER = "x-netflix-discovery-replication";

    private Origins() {
    }

    public static Origin of(String replicationHeader) {
        return "true".equals(replicationHeader) ? Origin.PEER : Origin.CLIENT;
    }
}
