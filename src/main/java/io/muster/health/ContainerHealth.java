package io.muster.health;

import io.muster.api.Probes;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The probes of the server running in this class loader, for the check beans the container creates on its own.
 * Links nothing of MicroProfile, so the server can attach on any container.
 *
 * <p>Static state and live redeploys: the server attaches at start and detaches at stop, so nothing outlives an
 * undeploy; each deployed WAR has a class loader, hence statics, of its own.
 */
public final class ContainerHealth {
    /** One running server: where it is deployed, and its probes. */
    record Attached(String contextPath, Probes probes) {
    }

    private static final List<Attached> ATTACHED = new CopyOnWriteArrayList<>();

    private ContainerHealth() {
    }

    public static void attach(String contextPath, Probes probes) {
        ATTACHED.add(new Attached(contextPath, probes));
    }

    public static void detach(Probes probes) {
        ATTACHED.removeIf(a -> a.probes() == probes);
    }

    /**
     * The check of the first server attached, named with its context path so that a container listing the checks
     * of every application tells them apart; DOWN, and saying why, while no server runs here.
     */
    static Probes.Check check(Function<Probes, Probes.Check> which, String kind) {
        List<Attached> now = List.copyOf(ATTACHED);
        if (now.isEmpty()) {
            return new Probes.Check("muster " + kind, false,
                    java.util.Map.of("state", "no Muster server is running in this application"));
        }
        Attached first = now.get(0);
        Probes.Check c = which.apply(first.probes());
        return new Probes.Check("muster " + contextName(first.contextPath()) + " " + c.name(), c.up(), c.data());
    }

    /** "/eureka" for "/eureka/", "/" for the root context. */
    private static String contextName(String contextPath) {
        String p = contextPath == null ? "" : contextPath;
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p.isEmpty() ? "/" : p;
    }
}
