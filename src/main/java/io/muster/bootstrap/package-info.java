/**
 * Composition root and lifecycle: builds the object graph from configuration, starts and stops it, and mounts
 * Jersey. The only package that knows all the others; nothing imports it.
 */
package io.muster.bootstrap;
