/**
 * Typed, immutable settings, loaded and validated once at start-up. Accepts Eureka's own property names (Netflix's
 * {@code eureka.*} and Spring Cloud's {@code eureka.server.*}) so operators' existing files keep working. Imports
 * nothing from the rest of the project.
 */
package io.muster.config;
