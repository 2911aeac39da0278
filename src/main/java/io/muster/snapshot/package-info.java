/**
 * Restart without a gap: the registry saved to a file on shutdown and periodically, and restored at start when
 * no peer could supply it. The files live in a directory only the server's user can enter
 * ({@link io.muster.snapshot.SnapshotDirectory}) and carry an HMAC under a key kept there, so a planted one is
 * ignored. May import {@code model}, {@code registry}, {@code codec} and {@code files}.
 */
package io.muster.snapshot;
