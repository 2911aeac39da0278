/**
 * Restart without a gap: the registry saved to a file on shutdown and periodically, and restored at start when
 * no peer could supply it. The files live in a directory only the server's user can enter
 * ({@link io.muster.snapshot.SnapshotDirectory}) and carry an HMAC under a key kept there, so a planted one is
 * ignored. Each deployment has a file of its own: its {@link io.muster.snapshot.SnapshotIdentity} is in the signed
 * header and its {@link io.muster.snapshot.SnapshotLock} is held while it runs. May import {@code model}, {@code registry}, {@code codec} and {@code files}.
 */
package io.muster.snapshot;
