package io.muster.resources;

import io.muster.registry.Origin;

/** The replication header Eureka peers set on writes they forward. */
final class Origins {
    static final String REPLICATION_HEADER = "x-netflix-discovery-replication";

    private Origins() {
    }

    static Origin of(String replicationHeader) {
        return "true".equals(replicationHeader) ? Origin.PEER : Origin.CLIENT;
    }
}
