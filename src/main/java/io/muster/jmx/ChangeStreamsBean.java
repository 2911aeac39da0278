package io.muster.jmx;

/** Thread safety: the figures are the change streams' own counters, read at each call. */
final class ChangeStreamsBean implements ChangeStreamsMXBean {
    private final Parts.Streams streams;

    ChangeStreamsBean(Parts.Streams streams) {
        this.streams = streams;
    }

    @Override
    public int getOpenStreams() {
        return streams.streams().getAsInt();
    }

    @Override
    public int getWaitingFetches() {
        return streams.waitingFetches().getAsInt();
    }

    @Override
    public int getMaxOpen() {
        return streams.maxOpen();
    }

    @Override
    public int getMaxOpenPerClient() {
        return streams.maxOpenPerClient();
    }

    @Override
    public long getDroppedStreams() {
        return streams.dropped().getAsLong();
    }
}
