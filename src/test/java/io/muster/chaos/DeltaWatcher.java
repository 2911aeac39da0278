package io.muster.chaos;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * A client fetching deltas from one node every second, as Eureka clients do: it keeps its own copy, applies each
 * delta and compares its copy's hash with the one the delta carries (a mismatch costs a full fetch: a reconcile).
 * Counts what a client must never see: an empty registry from a node that served instances before, and a 5xx
 * while the node is not down on purpose.
 */
final class DeltaWatcher extends Thread {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final String url;
    private final int node;
    private final Outages outages;
    private final Map<String, String> copy = new HashMap<>();
    private boolean hasCopy;
    private boolean hadData;

    final LongAdder deltas = new LongAdder();
    final LongAdder reconciles = new LongAdder();
    final LongAdder emptyAfterData = new LongAdder();
    final LongAdder serverErrorsWhileUp = new LongAdder();
    final LongAdder duplicates = new LongAdder();

    DeltaWatcher(String url, int node, Outages outages) {
        super("chaos-delta-" + node);
        setDaemon(true);
        this.url = url;
        this.node = node;
        this.outages = outages;
    }

    @Override
    public void run() {
        while (!isInterrupted()) {
            try {
                poll();
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void poll() {
        if (!hasCopy) {
            full();
            return;
        }
        RegistryView delta = RegistryView.fetch(http, url, "apps/delta");
        if (delta.httpStatus() != 200) {
            failed(delta.httpStatus());
            return;
        }
        deltas.increment();
        delta.statusById().forEach((id, status) -> {
            if (delta.deleted().contains(id)) {
                copy.remove(id);
            } else {
                copy.put(id, status);
            }
        });
        if (!RegistryView.hashOf(copy.values()).equals(delta.hash())) {
            reconciles.increment();
            full();
        }
    }

    private void full() {
        RegistryView all = RegistryView.fetch(http, url, "apps/");
        if (all.httpStatus() != 200) {
            failed(all.httpStatus());
            return;
        }
        if (all.instances() == 0 && hadData) {
            emptyAfterData.increment();
        }
        hadData |= all.instances() > 0;
        duplicates.add(all.duplicates());
        copy.clear();
        copy.putAll(all.statusById());
        hasCopy = true;
    }

    private void failed(int status) {
        if (status >= 500 && !outages.isDown(node)) {
            serverErrorsWhileUp.increment();
        }
        if (status < 0 || status >= 500) {
            hasCopy = false;    // start again from a full fetch, as a client that lost its server does
        }
    }
}
