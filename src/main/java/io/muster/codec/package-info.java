/**
 * Eureka's JSON and XML wire formats, both directions. The only code that knows field spellings such as
 * {@code "$"}, {@code "@enabled"}, {@code "@class"}, {@code versions__delta} and {@code apps__hashcode}.
 * May import {@code model} only.
 */
package io.muster.codec;
