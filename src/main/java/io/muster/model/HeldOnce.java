package io.muster.model;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * One immutable value per key, for the few distinct values many instances repeat (lease settings, lease
 * durations): each is made once and then shared. Bounded: past {@code max} keys, values are made and not kept.
 * Thread-safe: two threads that miss the same key may both make a value, and one is kept.
 */
public final class HeldOnce<K, V> {
    private final Map<K, V> held = new ConcurrentHashMap<>();
    private final int max;

    public HeldOnce(int max) {
        this.max = max;
    }

    public V get(K key, Function<K, V> make) {
        V value = held.get(key);
        if (value != null) {
            return value;
        }
        V made = make.apply(key);
        return held.size() < max ? Objects.requireNonNullElse(held.putIfAbsent(key, made), made) : made;
    }
}
