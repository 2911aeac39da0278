/**
 * Ready-to-send payloads per request shape, in two tiers as in Eureka, emptied by registry changes through a
 * listener. May import {@code model}, {@code registry}, {@code codec} and {@code config}.
 */
package io.muster.cache;
