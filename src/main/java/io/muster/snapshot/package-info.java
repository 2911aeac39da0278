/**
 * Restart without a gap: the registry saved to a file on shutdown and periodically, and restored at start when
 * no peer could supply it. The files live in a directory only the server's user can enter
 * ({@link io.muster.snapshot.SnapshotDirectory}) and carry an HMAC under a key kept there, so a planted one is
 * ignored. Each deployment has a file of its own: its {@link io.muster.snapshot.SnapshotIdentity} is in the signed
 * header and its {@link io.muster.snapshot.SnapshotLock} is held while it runs. May import {@code model},
 * {@code registry} (what is saved and restored), {@code codec} (the body is Eureka's JSON) and {@code files}
 * (the private directory). Not {@code replication}: whether a peer supplied the registry is decided by the start-up
 * sync in {@code bootstrap}, which then asks this package to restore.
 */
package io.muster.snapshot;
