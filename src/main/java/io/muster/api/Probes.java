package io.muster.api;

import io.muster.registry.TrafficGate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes' three probes, each a MicroProfile Health check. They answer what a load balancer or an orchestrator
 * acts on, so each is true only when clients would be served:
 * <ul>
 *   <li><b>started</b>: the start-up copy from the peers (or the restore of the node's own snapshot) is done and
 *       the node is open for traffic. A startupProbe holds the other probes back until then.</li>
 *   <li><b>live</b>: the registry answers; restarting the process would not help.</li>
 *   <li><b>ready</b>: reads are answered. A node that could reach none of its peers answers reads with 403 for
 *       a while (clients then ask another server); routing clients to it meanwhile would only earn them 403s.</li>
 * </ul>
 */
public final class Probes {
    /** One check in MicroProfile Health's shape: a name, UP or DOWN, and what an operator needs to know. */
    public record Check(String name, boolean up, Map<String, Object> data) {
        public Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name);
            m.put("status", up ? "UP" : "DOWN");
            if (!data.isEmpty()) {
                m.put("data", data);
            }
            return m;
        }
    }

    private final TrafficGate gate;

    public Probes(TrafficGate gate) {
        this.gate = gate;
    }

    public Check started() {
        boolean open = gate.isOpen();
        return new Check("start-up-sync", open, Map.of("state", open
                ? "done: copied from the peers or restored, open for traffic"
                : "copying the registry from the peers"));
    }

    public Check live() {
        return new Check("registry", true, Map.of());
    }

    public Check ready() {
        if (!gate.isOpen()) {
            return new Check("reads", false, Map.of("state", "not started: copying the registry from the peers"));
        }
        if (gate.allowsReads()) {
            return new Check("reads", true, Map.of());
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("state", "reads answer 403 until a peer answers: no peer was reachable at start, so this node "
                + "does not know what the cluster holds");
        java.time.Instant until = gate.readsHeldUntil();
        if (until != null) {
            data.put("readsHeldUntil", until.toString());
        }
        return new Check("reads", false, data);
    }

    /** What {@code /health} answers: every check, UP only if all are. */
    public List<Check> all() {
        return List.of(started(), live(), ready());
    }
}
