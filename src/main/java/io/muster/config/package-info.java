/**
 * Typed, immutable settings, loaded and validated once at start-up. Accepts Eureka's own property names (Netflix's
 * {@code eureka.*} and Spring Cloud's {@code eureka.server.*}) so operators' existing files keep working. Imports
 * nothing from the rest of the project, so every package may read its settings from it; the front door
 * ({@code web}) is given its settings as values of its own instead.
 */
package io.muster.config;
