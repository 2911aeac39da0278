/**
 * JAX-RS: HTTP in, registry and cache calls, status codes out. No business rules and no hand-built payloads (the
 * codec writes those). May import every package except {@code bootstrap}.
 */
package io.muster.resources;
