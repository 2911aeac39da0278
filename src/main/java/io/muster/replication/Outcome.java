package io.muster.replication;

/** How a batch went, and so what the batcher does next (Eureka's {@code TrafficShaper} classes). */
enum Outcome {
    /** Delivered; per-item answers were handled. */
    SUCCESS,
    /** 503 or a read timeout: the peer is busy; retry after a longer pause. */
    CONGESTION,
    /** Connection refused or reset: retry soon. */
    TRANSIENT_FAILURE,
    /** Any other error: retrying will not help; drop the batch. */
    PERMANENT_FAILURE
}
