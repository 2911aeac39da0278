package io.muster.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;

/** A java.util.logging handler that keeps what it is given, for tests that check what an operator is told. */
public final class CapturedLog extends Handler {
    /** Everything published so far, in order; safe to read while loggers on other threads publish. */
    public final List<LogRecord> records = new CopyOnWriteArrayList<>();

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
