package io.muster.health;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Startup;

/** Muster's start-up: the copy from the peers (or the restore) is done; the same verdict as its own {@code /health/started}. */
@Startup
@ApplicationScoped
public class MusterStartupCheck implements HealthCheck {
    @Override
    public HealthCheckResponse call() {
        return Responses.of(ContainerHealth.check(p -> p.started(), "started"));
    }
}
