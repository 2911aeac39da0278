package io.muster.jmx;

/** The change streams (GET /api/changes) and the fetches waiting for a change. */
@Description("Change streams (GET api/changes, server-sent events) and fetches parked with waitForChangeAfter:"
        + " how many are open against their caps, and how many streams were dropped for falling behind")
public interface ChangeStreamsMXBean {
    @Description("Change streams open now")
    int getOpenStreams();

    @Description("Fetches waiting for a change now")
    int getWaitingFetches();

    @Description("The cap on streams and waiting fetches together (eureka.server.changes.maxOpen)")
    int getMaxOpen();

    @Description("The cap per client address (eureka.server.changes.maxOpenPerClient)")
    int getMaxOpenPerClient();

    @Description("Streams dropped since start because their client fell too far behind")
    long getDroppedStreams();
}
