package io.muster.chaos;

import java.util.concurrent.atomic.AtomicIntegerArray;

/** Which nodes the harness has taken down on purpose (killed, undeployed), so errors from them are expected. */
final class Outages {
    private final AtomicIntegerArray down;

    Outages(int nodes) {
        down = new AtomicIntegerArray(nodes);
    }

    void down(int node) {
        down.set(node, 1);
    }

    void up(int node) {
        down.set(node, 0);
    }

    boolean isDown(int node) {
        return down.get(node) == 1;
    }
}
