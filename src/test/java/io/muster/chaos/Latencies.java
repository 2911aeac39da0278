package io.muster.chaos;

import java.util.Arrays;

/** Request latencies since the last {@link #drain}, in microseconds (a growing array; one interval's worth). */
final class Latencies {
    private long[] values = new long[4096];
    private int size;

    synchronized void record(long nanos) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = nanos / 1000;
    }

    /** p50, p99 and max in milliseconds and the count, for the interval that ends now. */
    synchronized double[] drain() {
        long[] v = Arrays.copyOf(values, size);
        size = 0;
        if (v.length > 1 << 16) {
            values = new long[4096];
        }
        Arrays.sort(v);
        if (v.length == 0) {
            return new double[]{0, 0, 0, 0};
        }
        return new double[]{v[(int) (v.length * 0.50)] / 1000.0, v[(int) Math.min(v.length - 1, v.length * 0.99)]
                / 1000.0, v[v.length - 1] / 1000.0, v.length};
    }
}
