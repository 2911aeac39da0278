package io.muster.web;

import io.muster.testing.CapturedLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/** The receiver's line about refused replication: who, what to fix, once per caller per quiet period. */
class RefusedReplicationLogTest {
    private final AtomicLong nanos = new AtomicLong(1_000);
    private final RefusedReplicationLog refusals = new RefusedReplicationLog(nanos::get);
    private final CapturedLog log = new CapturedLog();
    private final Logger logger = Logger.getLogger(RefusedReplicationLog.class.getName());

    @BeforeEach
    void capture() {
        logger.addHandler(log);
    }

    @AfterEach
    void release() {
        logger.removeHandler(log);
    }

    private String last() {
        LogRecord r = log.records.get(log.records.size() - 1);
        return r.getMessage();
    }

    @Test
    void namesTheCallerAndTellsMissingWrongAndRoleApart() {
        assertThat(refusals.refused("10.0.0.7", null, 401, "POST peerreplication")).isTrue();
        assertThat(last()).contains("from 10.0.0.7", "sent no credentials", "eureka-peer");
        assertThat(refusals.refused("10.0.0.7", "peer", 401, "POST peerreplication")).isTrue();
        assertThat(last()).contains("user 'peer'", "wrong password");
        assertThat(refusals.refused("10.0.0.8", "client", 403, "POST peerreplication")).isTrue();
        assertThat(last()).contains("user 'client' lacks the eureka-peer role", "10.0.0.8");
    }

    @Test
    void logsEachCallerOncePerQuietPeriodWithTheCountInBetween() {
        assertThat(refusals.refused("10.0.0.7", "peer", 401, "POST peerreplication")).isTrue();
        for (int i = 0; i < 30; i++) {
            assertThat(refusals.refused("10.0.0.7", "peer", 401, "POST peerreplication")).isFalse();
        }
        nanos.addAndGet(RefusedReplicationLog.QUIET.toNanos());
        assertThat(refusals.refused("10.0.0.7", "peer", 401, "POST peerreplication")).isTrue();
        assertThat(last()).contains("30 more since the last line");
        assertThat(log.records).hasSize(2);
    }

    @Test
    void aCallerInventingNamesCannotFloodTheLogAndNamesAreCleaned() {
        for (int i = 0; i < 1_000; i++) {
            refusals.refused("10.6.6.6", "x" + i + "\n FAKE LINE", 401, "POST peerreplication");
        }
        assertThat(log.records).hasSize(RefusedReplicationLog.MAX_CALLERS);
        assertThat(log.records).allSatisfy(r -> assertThat(r.getMessage()).doesNotContain("\n"));
    }
}
