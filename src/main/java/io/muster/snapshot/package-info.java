/**
 * Restart without a gap: the registry saved to a file on shutdown and periodically, and restored at start when
 * no peer could supply it.
 */
package io.muster.snapshot;
