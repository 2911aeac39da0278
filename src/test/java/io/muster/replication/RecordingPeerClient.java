package io.muster.replication;

import io.muster.model.Applications;
import io.muster.model.ReplicationItem;
import io.muster.model.ReplicationResult;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;

/** A peer that records the batches it receives and answers as told. */
final class RecordingPeerClient implements PeerClient {
    final BlockingQueue<List<ReplicationItem>> batches = new LinkedBlockingQueue<>();
    volatile Function<List<ReplicationItem>, List<ReplicationResult>> answer =
            items -> items.stream().map(i -> ReplicationResult.of(200)).toList();
    volatile IOException failWith;
    volatile Applications registry = new Applications(1, "", List.of());

    @Override
    public List<ReplicationResult> sendBatch(List<ReplicationItem> items) throws IOException {
        IOException fail = failWith;   // read first: the test may change it as soon as it sees the batch
        var answerNow = answer;
        batches.add(new ArrayList<>(items));
        if (fail != null) {
            throw fail;
        }
        return answerNow.apply(items);
    }

    /** Null: the peer has no digest endpoint, as a stock Eureka server. */
    volatile PeerDigest digest;
    /** Runs right after the registry was read and before it is answered (what the peer does meanwhile). */
    volatile Runnable afterRegistryRead = () -> { };
    int digestCalls;
    int registryCalls;

    @Override
    public PeerDigest fetchDigest() throws IOException {
        IOException fail = failWith;
        if (fail != null) {
            throw fail;
        }
        digestCalls++;
        return digest;
    }

    @Override
    public Applications fetchRegistryForSync() throws IOException {
        return fetchRegistry();
    }

    @Override
    public Applications fetchRegistry() throws IOException {
        IOException fail = failWith;
        if (fail != null) {
            throw fail;
        }
        registryCalls++;
        Applications read = registry;
        afterRegistryRead.run();
        return read;
    }

    @Override
    public boolean holds(String app, String id) throws IOException {
        IOException fail = failWith;
        if (fail != null) {
            throw fail;
        }
        return registry.applications().stream().filter(a -> a.name().equals(app))
                .anyMatch(a -> a.instances().stream().anyMatch(i -> i.id().equals(id)));
    }
}
