package io.muster.chaos;

import java.util.List;

/** The client-side counts of one fault (differences of the cumulative counters). */
record Counters(long writes, long acked, long failovers, long renewNotFound, long capRefusals,
                long capRefusalsWithoutRetryAfter, long capRefusedKnown, long serverErrorsWhileUp,
                long serverErrorsWhileDown, long other4xx, long deltas, long reconciles, long emptyAfterData,
                long readErrorsWhileUp) {
    static Counters of(ClientLoad l, List<DeltaWatcher> watchers) {
        return new Counters(l.writes.sum(), l.acked.sum(), l.failovers.sum(), l.renewNotFound.sum(),
                l.capRefusals.sum(), l.capRefusalsWithoutRetryAfter.sum(), l.capRefusedKnown.sum(),
                l.serverErrorsWhileUp.sum(), l.serverErrorsWhileDown.sum(), l.other4xx.sum(),
                watchers.stream().mapToLong(w -> w.deltas.sum()).sum(),
                watchers.stream().mapToLong(w -> w.reconciles.sum()).sum(),
                watchers.stream().mapToLong(w -> w.emptyAfterData.sum()).sum(),
                watchers.stream().mapToLong(w -> w.serverErrorsWhileUp.sum()).sum());
    }

    Counters minus(Counters o) {
        return new Counters(writes - o.writes, acked - o.acked, failovers - o.failovers,
                renewNotFound - o.renewNotFound, capRefusals - o.capRefusals,
                capRefusalsWithoutRetryAfter - o.capRefusalsWithoutRetryAfter, capRefusedKnown - o.capRefusedKnown,
                serverErrorsWhileUp - o.serverErrorsWhileUp, serverErrorsWhileDown - o.serverErrorsWhileDown,
                other4xx - o.other4xx, deltas - o.deltas, reconciles - o.reconciles,
                emptyAfterData - o.emptyAfterData, readErrorsWhileUp - o.readErrorsWhileUp);
    }
}
