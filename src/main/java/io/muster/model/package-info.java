/**
 * Immutable values that clients and peers exchange: instances, applications, statuses. No clock, no state,
 * no annotations. Imports nothing from the rest of the project.
 */
package io.muster.model;
