/**
 * The recent-changes window behind the change stream and the blocking fetch: a registry listener that keeps the
 * last visible changes, each ready to send as a server-sent event. May import {@code model}, {@code registry} (whose
 * changes it keeps) and {@code codec} (an event carries its instance in Eureka's JSON). The streams that send it and
 * the fetches that wait on it are the front door's ({@code web}), so this package knows nothing of HTTP.
 */
package io.muster.changes;
