package io.muster.cache;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HeapHeadroomTest {
    private final HeapHeadroom headroom = new HeapHeadroom();

    @Test
    void aSmallArrayFitsAndOneAsLargeAsTheHeapNever() {
        System.gc();   // so that the pools report what this JVM holds after a collection
        assertThat(headroom.allows(1024)).isTrue();
        assertThat(headroom.allows(Runtime.getRuntime().maxMemory())).isFalse();
        assertThat(headroom.allows(Runtime.getRuntime().maxMemory() * 95 / 100)).as("the reserve stays free").isFalse();
    }
}
