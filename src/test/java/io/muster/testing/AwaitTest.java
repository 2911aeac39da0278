package io.muster.testing;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AwaitTest {
    @Test
    void returnsTheFirstValueThatHolds() {
        AtomicInteger reads = new AtomicInteger();
        int seen = Await.until("the third read", Duration.ofSeconds(5), reads::incrementAndGet, n -> n >= 3);
        assertThat(seen).isEqualTo(3);
    }

    @Test
    void failsWithWhatItWaitedForTheBoundAndTheLastValueSeen() {
        AtomicInteger reads = new AtomicInteger();
        assertThatThrownBy(() -> Await.until("a read past 1000", Duration.ofMillis(200), reads::incrementAndGet,
                n -> n > 1000))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("a read past 1000: not within 200 ms; last seen: ")
                .hasMessageEndingWith(": " + reads.get());
    }
}
