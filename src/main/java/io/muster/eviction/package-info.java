/**
 * When, and how many, leases may expire: the eviction pass and self-preservation. May import {@code model},
 * {@code registry} and {@code config}.
 */
package io.muster.eviction;
