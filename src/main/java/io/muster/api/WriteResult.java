package io.muster.api;

import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormat;
import io.muster.model.InstanceInfo;
import io.muster.model.ReplicationResult;

/**
 * What a write to one instance did, as the HTTP status Eureka answers for it. The one mapping from a registry
 * outcome to HTTP: a client's request and a peer's batch item get the same status from it.
 *
 * @param newer this node's newer copy, for a 409 answered to a peer's heartbeat
 */
record WriteResult(int status, InstanceInfo newer) {
    static final WriteResult OK = new WriteResult(200, null);
    static final WriteResult NOT_FOUND = new WriteResult(404, null);
    static final WriteResult REGISTERED = new WriteResult(204, null);

    static WriteResult found(boolean found) {
        return found ? OK : NOT_FOUND;
    }

    /** 409 carries the newer instance in the format the caller accepts; every other answer has no body. */
    Reply toReply(String accept) {
        if (newer == null) {
            return Reply.empty(status);
        }
        WireFormat format = WireFormat.fromAccept(accept);
        return new Reply(status, format.mediaType(), EurekaCodec.encode(format, newer), java.util.Map.of());
    }

    ReplicationResult toReplication() {
        return new ReplicationResult(status == 204 ? 200 : status, newer);
    }
}
