package io.muster.api;

/** The request headers Eureka clients send beyond HTTP's own, named once for both roads of the front door. */
public final class EurekaHeaders {
    /** {@code full} (the default) or {@code compact} instances in a fetch. */
    public static final String EUREKA_ACCEPT = "X-Eureka-Accept";

    private EurekaHeaders() {
    }
}
