/** The recent-changes window behind the change stream and the blocking fetch. */
package io.muster.changes;
