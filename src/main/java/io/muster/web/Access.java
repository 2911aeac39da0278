package io.muster.web;

import java.util.List;

/** Who may call an endpoint; the roles come from the container's realm. */
public enum Access {
    /** Anyone: health, metrics and the dashboard's page. */
    OPEN,
    /** Eureka clients: anyone, unless {@code eureka.server.clientAuthRequired} asks for one of the three roles. */
    CLIENT,
    /**
     * Eureka clients writing their own application's instances: {@link #CLIENT}'s roles, and with
     * {@code eureka.server.appOwnership} a principal bound to the application too (see {@link Ownership}).
     */
    OWNER,
    /** Other registry nodes only. */
    PEER,
    /** Operators, for the dashboard's actions. */
    ADMIN;

    public static final String PEER_ROLE = "eureka-peer";
    public static final String ADMIN_ROLE = "eureka-admin";
    public static final String CLIENT_ROLE = "eureka-client";
    private static final List<String> ANY_ROLE = List.of(CLIENT_ROLE, ADMIN_ROLE, PEER_ROLE);

    /** The roles of which the caller needs one; empty when the endpoint is open. */
    public List<String> roles(boolean clientAuthRequired) {
        return switch (this) {
            case OPEN -> List.of();
            case CLIENT, OWNER -> clientAuthRequired ? ANY_ROLE : List.of();
            case PEER -> List.of(PEER_ROLE);
            case ADMIN -> List.of(ADMIN_ROLE);
        };
    }
}
